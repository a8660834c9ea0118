import type { Diagnostic } from '../../shared/prompt'
import type { Parsed } from './parse-cache'
import type { ProjectFile } from './types'
import { formatCount } from '../../shared/format-count'

// Prompt overrides under agent/prompts/: system.md for every channel, <channel>.md for one channel, and
// user-prompt.md for the user prompt template. Trimmed; an empty file counts as absent.

export const PROMPTS_FOLDER = 'agent/prompts'

export type OverrideSlot = { kind: 'system' } | { kind: 'user-prompt' } | { kind: 'channel'; channel: string }

/** Which override a project-relative path is, or null when it is not one. */
export function overrideSlotOf(relPath: string): OverrideSlot | null {
  const prefix = PROMPTS_FOLDER + '/'
  if (!relPath.startsWith(prefix)) return null
  const base = relPath.slice(prefix.length)
  if (base.includes('/') || !/\.md$/i.test(base)) return null
  const stem = base.slice(0, -3).toLowerCase()
  if (stem === '') return null
  if (stem === 'system') return { kind: 'system' }
  if (stem === 'user-prompt') return { kind: 'user-prompt' }
  return { kind: 'channel', channel: stem }
}

/** Parses an override file: trimmed text, or null when nothing is left. */
export function parseOverride(relPath: string, text: string): Parsed<ProjectFile | null> {
  const trimmed = text.trim()
  // user-prompt.md is a Handlebars template, checked when it is compiled; the system prompt files are not.
  const diagnostics: Diagnostic[] = overrideSlotOf(relPath)?.kind === 'user-prompt' ? [] : templateSyntaxProblems(relPath, trimmed)
  return { value: trimmed === '' ? null : { source: relPath, text: trimmed }, diagnostics }
}

/** `{{…}}`, `{{#name …}}`, `{{/name}}`, `{{^…}}`, `{{else}}`: group 1 the sigil, group 2 the name. */
const TEMPLATE_TAG = /\{\{~?\s*([#/^]?)\s*([^\s{}~]*)[^{}]*\}\}/g
const PLACEHOLDER_NAME = /^nao_prompt(\.[^\s{}]+)?$/

/** Block problems listed at most per file; a file full of them gets one more line saying how many. */
const MAX_BLOCK_PROBLEMS = 20

/**
 * A system prompt override is sent as written, except for its `{{ nao_prompt }}` placeholders. Template
 * syntax (`{{#each …}}`, a block never closed) is a sign the author expected a template: say so, rather than
 * let the raw braces reach the model silently. Linear in the file, whatever it holds: line numbers are
 * counted as the tags go by, and the problems listed are capped.
 */
export function templateSyntaxProblems(relPath: string, text: string): Diagnostic[] {
  const blockProblems: string[] = []
  const open: Array<{ name: string; line: number }> = []
  const others = new Set<string>()
  let line = 1
  let counted = 0
  const lineAt = (index: number): number => {
    for (; counted < index; counted++) if (text.charCodeAt(counted) === 10) line++
    return line
  }
  for (const tag of text.matchAll(TEMPLATE_TAG)) {
    const [whole, sigil, name] = tag
    if (sigil === '' && PLACEHOLDER_NAME.test(name)) continue
    if (sigil === '#' || sigil === '^') open.push({ name, line: lineAt(tag.index) })
    else if (sigil === '/') {
      const last = open.pop()
      if (!last || last.name !== name) {
        blockProblems.push(`line ${lineAt(tag.index)}: \`${whole}\` closes a block that was not opened${last ? ` (\`{{#${last.name}\` is open)` : ''}`)
      }
    }
    if (others.size < 3) others.add(whole.length > 40 ? `${whole.slice(0, 40)}…` : whole)
  }
  for (const block of open) blockProblems.push(`line ${block.line}: \`{{#${block.name}\` is never closed (no \`{{/${block.name}}}\`)`)
  const problems: Diagnostic[] = blockProblems.slice(0, MAX_BLOCK_PROBLEMS).map((problem) => ({ file: relPath, problem }))
  if (blockProblems.length > MAX_BLOCK_PROBLEMS) {
    problems.push({ file: relPath, problem: `${formatCount(blockProblems.length - MAX_BLOCK_PROBLEMS)} more unbalanced blocks` })
  }
  if (others.size > 0) {
    const shown = [...others].map((tag) => `\`${tag}\``).join(', ')
    problems.push({
      file: relPath,
      problem: `contains template syntax (${shown}) that is not a placeholder: this file is sent to the model as written — only {{ nao_prompt }} and {{ nao_prompt.<section_id> }} are replaced`
    })
  }
  return problems
}
