import { hasContext, type ContextBlock } from './context-block'
import { PromptTemplate, type UserPromptVariables } from './prompt-template'

// The user prompt: the question alone when there is no context, otherwise the template filled with the
// context block as JSON. The question is passed as data, never spliced into template text, so `{{`, `<`,
// `&`, quotes and back-ticks in it reach the model exactly as typed.

export interface BuildUserPromptOptions {
  /** Whether the model can see images. Unknown means no: a needless note is cheaper than a hallucination. */
  hasVision?: boolean
  /** A project's template (from resolveUserPromptTemplate); the built-in one otherwise. */
  template?: PromptTemplate
}

export function userPromptVariables(
  query: string,
  context: ContextBlock,
  options: BuildUserPromptOptions = {}
): UserPromptVariables {
  const hasImages = context.files.some((file) => file.type.startsWith('image/'))
  return {
    hasResultsMeta: (context.resultsMeta?.length ?? 0) > 0,
    contextJson: JSON.stringify(context, null, 2),
    showVisionWarning: hasImages && !(options.hasVision ?? false),
    query
  }
}

export function buildUserPrompt(
  query: string,
  context: ContextBlock | null | undefined,
  options: BuildUserPromptOptions = {}
): string {
  if (!hasContext(context)) return query
  const template = options.template ?? PromptTemplate.load('user-prompt')
  return template.render(userPromptVariables(query, context, options))
}
