import type { PromptPreview, PromptSection } from './prompt'

// How the system prompt's tokens are told by section, the same in the app's inspector and the command line.
// Sections are counted on their own at the plain estimate; the whole prompt is counted at the server's scale.
// Rows are shown at that scale, and what the sections alone do not account for (headings and blank lines
// between them, token boundaries) is its own figure, so the top-level rows add up to the whole.

export interface SectionTokens {
  /** A section's tokens as shown, at the server's scale. */
  shown(section: PromptSection): number
  /** Ids of the sections inside no other one: only these add up (a memory item lies within ## Memory). */
  outer: ReadonlySet<string>
  /** The whole system prompt, as the budget counts it (the top-level rows' sum when there is no budget). */
  total: number
  /** What lies between the sections: total less the top-level rows. */
  between: number
}

export function sectionTokens(preview: Pick<PromptPreview, 'sections' | 'budget'>): SectionTokens {
  const scale = preview.budget?.tokenScale ?? 1
  const shown = (section: PromptSection): number => Math.ceil(section.tokens * scale)
  const outer = new Set(topLevel(preview.sections).map((section) => section.id))
  const topLevelTokens = preview.sections.filter((section) => outer.has(section.id)).reduce((sum, section) => sum + shown(section), 0)
  const total = preview.budget?.parts.find((part) => part.name === 'system')?.tokens ?? topLevelTokens
  return { shown, outer, total, between: total - topLevelTokens }
}

/** Sections not inside another one (ranges nest: a memory item lies within the Memory section). */
export function topLevel(sections: readonly PromptSection[]): PromptSection[] {
  return sections.filter(
    (section) => !sections.some((other) => other !== section && other.start <= section.start && other.end >= section.end && (other.start < section.start || other.end > section.end))
  )
}

/** "estimated", and the factor applied to match the server's tokenizer when there is one. */
export function estimateNote(tokenScale: number | undefined): string {
  return tokenScale === undefined || tokenScale === 1 ? 'estimated' : `estimated, scaled ×${tokenScale.toFixed(2)} to the server's tokenizer`
}
