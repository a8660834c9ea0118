import { hasContext, type ContextBlock } from './context-block'
import type { Diagnostic } from '../../../shared/prompt'
import { defangControlTokens } from '../../agent/defang'
import { builtInUsedInstead, PromptTemplate, TemplateError, type ResolvedTemplate, type UserPromptVariables } from './prompt-template'

// The user prompt: the question alone when there is no context, otherwise the template filled with the
// context block as JSON. The question is passed as data, never spliced into template text, so `{{`, `<`,
// `&`, quotes and back-ticks in it reach the model exactly as typed; the context block (names and
// summaries from the project) has its chat-template control tokens defanged.

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
    // File names and summaries come from the project: data, with control tokens defanged.
    contextJson: defangControlTokens(JSON.stringify(context, null, 2)),
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

export interface UserPromptRenderer {
  render(query: string, context: ContextBlock | null | undefined): string
  /** The resolved template's diagnostics, plus one if the project's template failed while rendering. */
  readonly diagnostics: readonly Diagnostic[]
}

/**
 * Renders user prompts with a resolved template. When the project's template fails at render time — over its
 * time or output budget, or an error behind a condition the load-time check did not take — the built-in
 * template is used for that and every later render, and a diagnostic names the file.
 */
export function userPromptRenderer(resolved: ResolvedTemplate, options: Pick<BuildUserPromptOptions, 'hasVision'> = {}): UserPromptRenderer {
  const builtIn = PromptTemplate.load('user-prompt')
  const diagnostics = [...resolved.diagnostics]
  let template = resolved.template
  return {
    diagnostics,
    render(query, context) {
      try {
        return buildUserPrompt(query, context, { ...options, template })
      } catch (error) {
        if (!(error instanceof TemplateError) || template === builtIn) throw error
        diagnostics.push(builtInUsedInstead(error.source, error.problem))
        template = builtIn
        return buildUserPrompt(query, context, { ...options, template })
      }
    }
  }
}
