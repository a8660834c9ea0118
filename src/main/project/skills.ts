import matter from 'gray-matter'
import { readYaml } from './yaml'
import type { Diagnostic } from '../../shared/prompt'
import type { Skill } from './types'

// A skill is `agent/skills/<stem>.md` with optional YAML frontmatter (name, description). Bad frontmatter
// costs the skill its metadata, not its body.

export const SKILLS_FOLDER = 'agent/skills'

/** Frontmatter engines: YAML and JSON only. gray-matter would otherwise `eval` a `---js` block. */
const SAFE_ENGINES = {
  yaml: { parse: parseYamlMapping },
  json: { parse: (text: string): object => toMapping(JSON.parse(text)) },
  javascript: { parse: refuseEngine('JavaScript') },
  coffee: { parse: refuseEngine('CoffeeScript') }
}

export interface ParsedSkill {
  skill: Skill
  diagnostics: Diagnostic[]
}

/** Parses a skill file's text; `location` is its project-relative path. */
export function parseSkill(location: string, text: string): ParsedSkill {
  const stem = stemOf(location)
  try {
    const file = plainFrontmatter(text) ?? withoutFrontmatter(text) ?? matter(text, { engines: SAFE_ENGINES })
    const diagnostics: Diagnostic[] = []
    const name = readField(file.data, 'name', location, diagnostics) ?? stem
    const description = readField(file.data, 'description', location, diagnostics) ?? ''
    return { skill: { name: name.trim() || stem, description: description.trim(), location, body: file.content }, diagnostics }
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
    return {
      skill: { name: stem, description: '', location, body: bodyAfterFrontmatter(text) },
      diagnostics: [{ file: location, problem: `has malformed frontmatter (${reason}); loaded with name "${stem}" and no description` }]
    }
  }
}

/**
 * gray-matter's reading of the usual shape, `---` then simple `key: text` lines then `---`, without its set-up per
 * file (~20 µs a skill in a process that has read few, 6 ms for 300 at open); null for anything else, which
 * gray-matter reads. Its rules, kept: the block ends at the first `\n---`, and one line break after it is dropped.
 */
function plainFrontmatter(text: string): { data: Record<string, string>; content: string } | null {
  if (!text.startsWith('---\n') && !text.startsWith('---\r\n')) return null
  const close = text.indexOf('\n---', 3)
  if (close === -1) return null
  const data = simpleMapping(text.slice(3, close))
  if (data === null) return null
  let content = text.slice(close + 4)
  if (content.startsWith('\r')) content = content.slice(1)
  if (content.startsWith('\n')) content = content.slice(1)
  return { data, content }
}

/**
 * A text that cannot hold front matter is all body, as gray-matter reads it: gray-matter looks for `---` at
 * the start, after a byte-order mark it strips. Without this, it would copy the text into a Buffer first.
 */
function withoutFrontmatter(text: string): { data: Record<string, string>; content: string } | null {
  return text.startsWith('---') || text.startsWith('\uFEFF') ? null : { data: {}, content: text }
}

/** The text after a closing `---` line, or all of it when there is none. */
export function bodyAfterFrontmatter(text: string): string {
  if (!text.startsWith('---')) return text
  const close = /\r?\n---[^\S\r\n]*(\r?\n|$)/.exec(text.slice(3))
  return close ? text.slice(3 + close.index + close[0].length) : text
}

function readField(data: Record<string, unknown>, key: string, location: string, diagnostics: Diagnostic[]): string | null {
  const value = data[key]
  if (value === undefined || value === null) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value)
  diagnostics.push({ file: location, problem: `frontmatter \`${key}\` is not text; the default is used` })
  return null
}

function stemOf(location: string): string {
  const base = location.slice(location.lastIndexOf('/') + 1)
  return base.replace(/\.md$/i, '')
}

function parseYamlMapping(text: string): object {
  return simpleMapping(text) ?? toMapping(readYaml(text))
}

// Most skills' frontmatter is two lines like `name: revenue` / `description: How to …`. A YAML parser costs
// many times more per file before the JIT warms up (with `yaml`, 150 ms for 300 skills at open), so lines that
// can only mean a plain string are read directly; anything else (quotes, numbers, lists, comments, colons, …)
// goes to YAML.
const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+([A-Za-z][^#:{}[\]&*!|>'"%@`]*?)[ \t]*$/
const NOT_A_STRING = /^(?:true|false|null)$/i

function simpleMapping(text: string): Record<string, string> | null {
  const mapping: Record<string, string> = {}
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue
    const match = SIMPLE_LINE.exec(line)
    if (!match || NOT_A_STRING.test(match[2]) || match[1] === '__proto__' || Object.hasOwn(mapping, match[1])) return null
    mapping[match[1]] = match[2]
  }
  return mapping
}

function toMapping(value: unknown): object {
  if (value === null || value === undefined) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error('frontmatter is not a key: value mapping')
  return value
}

function refuseEngine(language: string): (text: string) => object {
  return () => {
    throw new Error(`${language} frontmatter is not allowed`)
  }
}
