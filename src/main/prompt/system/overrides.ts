import type { Diagnostic } from '../../../shared/prompt'
import type { ProjectFile, ProjectSnapshot } from '../../project/types'
import type { RenderedSection } from '../markdown/jsx-runtime'
import { shift, type LocatedText } from '../markdown/render'

// A project can replace the system prompt with its own file, or wrap it: `{{ nao_prompt }}` marks where the
// default prompt goes and `{{ nao_prompt.<section_id> }}` where one of its sections goes.

/** nao's placeholder for the whole default prompt. */
export const PROMPT_PLACEHOLDER = /\{\{\s*nao_prompt\s*\}\}/g
/** Either placeholder; group 1 is the section id when there is one. */
const ANY_PLACEHOLDER = /\{\{\s*nao_prompt(?:\.([^\s{}]+))?\s*\}\}/g

/** `agent/prompts/<channel>.md`, then `agent/prompts/system.md`; a blank file counts as absent. */
export function findOverride(project: ProjectSnapshot, channel: string | null | undefined): ProjectFile | null {
  const candidates = [channel ? project.channelOverrides[channel.toLowerCase()] : undefined, project.systemOverride]
  return candidates.find((file): file is ProjectFile => file !== undefined && file !== null && file.text.trim() !== '') ?? null
}

/** True when the file wraps the default prompt (or some of its sections) rather than replacing it. */
export function hasPlaceholder(text: string): boolean {
  return new RegExp(ANY_PLACEHOLDER.source).test(text)
}

/** The override file as the whole prompt, registered as one section. */
export function replacePrompt(override: ProjectFile): LocatedText {
  const text = override.text.trim()
  return { text, sections: [overrideSection(override, text.length)] }
}

/**
 * The override file with each placeholder replaced by the default prompt or by one of its sections. Sections
 * move with the text they belong to; an unknown section id becomes a diagnostic and its placeholder is removed.
 */
export function wrapPrompt(override: ProjectFile, prompt: LocatedText): LocatedText & { diagnostics: Diagnostic[] } {
  const template = override.text.trim()
  const diagnostics: Diagnostic[] = []
  const sections: RenderedSection[] = []
  let text = ''
  let last = 0
  for (const match of template.matchAll(ANY_PLACEHOLDER)) {
    text += template.slice(last, match.index)
    last = match.index + match[0].length
    const sectionId = match[1]
    const inserted = sectionId === undefined ? prompt : sectionOf(prompt, sectionId)
    if (inserted === null) {
      diagnostics.push({ file: override.source, problem: unknownSectionProblem(sectionId ?? '', prompt) })
      continue
    }
    for (const section of inserted.sections) sections.push(shift(section, text.length))
    text += inserted.text
  }
  text += template.slice(last)
  return { text, sections: [overrideSection(override, text.length), ...sections], diagnostics }
}

/** One section's text and the sections inside it, located from 0. */
function sectionOf(prompt: LocatedText, id: string): LocatedText | null {
  const target = prompt.sections.find((section) => section.id === id)
  if (!target) return null
  const inside = prompt.sections.filter((section) => section.start >= target.start && section.end <= target.end)
  return { text: prompt.text.slice(target.start, target.end), sections: inside.map((section) => shift(section, -target.start)) }
}

function unknownSectionProblem(id: string, prompt: LocatedText): string {
  const known = prompt.sections.filter((section) => !section.id.includes('.')).map((section) => section.id)
  return `Unknown section "${id}" in {{ nao_prompt.${id} }}; the placeholder was removed. Known sections: ${known.join(', ')}.`
}

function overrideSection(override: ProjectFile, length: number): RenderedSection {
  return {
    id: 'prompt-override',
    title: `Project prompt (${override.source})`,
    component: 'ProjectOverride',
    sources: [override.source],
    start: 0,
    end: length
  }
}
