import { previousResultsPartial } from './partials/previous-results'
import { visionNotePartial } from './partials/vision-note'
import { userPromptTemplate } from './user-prompt'

// The built-in templates by name, and the partials by stem (`{{> previous-results}}`). One file per
// template or partial, so each is edited on its own; adding one means adding it here.

export const builtInTemplates: Readonly<Record<string, string>> = {
  'user-prompt': userPromptTemplate
}

export const builtInPartials: Readonly<Record<string, string>> = {
  'previous-results': previousResultsPartial,
  'vision-note': visionNotePartial
}

/** How every user-prompt template is compiled, precompiled or at run time: a prompt is not HTML, nothing is escaped. */
export const COMPILE_OPTIONS = { noEscape: true } as const
