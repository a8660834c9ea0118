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
  return renderUserPrompt(query, context, options).text
}

/** The user prompt with what the inspector shows beside it: the template used and its variables. */
export interface RenderedUserPrompt {
  text: string
  /** `built-in:user-prompt`, the project's file, or null when the bare question was sent. */
  templateSource: string | null
  variables: UserPromptVariables | null
}

export function renderUserPrompt(
  query: string,
  context: ContextBlock | null | undefined,
  options: BuildUserPromptOptions = {}
): RenderedUserPrompt {
  if (!hasContext(context)) return { text: query, templateSource: null, variables: null }
  const template = options.template ?? PromptTemplate.load('user-prompt')
  const variables = userPromptVariables(query, context, options)
  return { text: template.render(variables), templateSource: template.source, variables }
}
