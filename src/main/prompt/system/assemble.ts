import type { Diagnostic, MemoryItem, OverrideMode, PromptSection } from '../../../shared/prompt'
import type { ProjectSnapshot, Skill } from '../../project/types'
import { h } from '../markdown/jsx-runtime'
import { renderLocated, withCountSettled, withTokens, type LocatedText } from '../markdown/render'
import type { LazyCount } from '../markdown/lazy-count'
import type { RenderedSection } from '../markdown/jsx-runtime'
import { containsControlMarker, defangLocated } from '../../agent/defang'
import { formatPromptDate, isKnownTimezone } from './date'
import { findOverride, hasPlaceholder, replacePrompt, wrapPrompt } from './overrides'
import { SystemPrompt } from './system-prompt'
import { ChatForkContextPrompt, MessagingProviderSystemPrompt } from './wrappers'

export interface SystemPromptInput {
  project: ProjectSnapshot
  memory: { included: MemoryItem[]; droppedCount: number }
  now: Date
  /** IANA time zone of the user, e.g. `Europe/Paris`; an unknown one falls back to UTC with a diagnostic. */
  timezone: string
  testMode: boolean
  /** Names of the tools the run offers (see createAgentTools). */
  tools: string[]
  /** Messaging channel (whatsapp, slack, …) the chat is for, if any. */
  channel?: string | null
  /** Text the user selected when forking the chat, if any. */
  forkSelection?: string | null
  /** A complete system prompt given by the caller: used verbatim, everything else is skipped. */
  runtimeOverride?: string | null
  /** Defaults to project.skills; the budget fitter may pass a trimmed list. */
  skills?: Skill[]
}

export interface SystemPromptResult {
  text: string
  sections: PromptSection[]
  overrideMode: OverrideMode
  /** Problems found while assembling (override placeholders, time zone); the project's own are not repeated. */
  diagnostics: Diagnostic[]
}

/** Builds the system prompt for one run. Same input → byte-identical output; repeated inputs are served from a cache. */
export function assembleSystemPrompt(input: SystemPromptInput): SystemPromptResult {
  if (input.runtimeOverride && input.runtimeOverride.trim() !== '') return runtimePrompt(input.runtimeOverride)
  const timezoneKnown = isKnownTimezone(input.timezone)
  const timezone = timezoneKnown ? input.timezone : 'UTC'
  const date = formatPromptDate(input.now, timezone)
  const key = cacheKey(input, date, timezone)
  const cached = cacheFor(input.project).get(key)
  if (cached) return copy(settleCounts(cached))
  const pendingCounts: Array<LazyCount | null> = []
  const result = build(input, date, timezone, pendingCounts)
  if (!timezoneKnown) {
    result.diagnostics.push({ file: 'timezone', problem: `Unknown time zone "${input.timezone}"; today's date is given in UTC.` })
  }
  remember(input.project, key, freeze(result), pendingCounts)
  return copy(result)
}

/** `pendingCounts` gets, for each section, the count behind its getter (null for a section given its count). */
function build(input: SystemPromptInput, date: string, timezone: string, pendingCounts: Array<LazyCount | null>): SystemPromptResult {
  const { project } = input
  const override = findOverride(project, input.channel)
  // A file without placeholders replaces the whole prompt: nothing else is rendered.
  if (override && !hasPlaceholder(override.text)) return finish(defanged(replacePrompt(override)), 'replaced', [], pendingCounts)

  const skills = canonicalSkills(input)
  let prompt = renderLocated(
    h(SystemPrompt, { project, memory: input.memory, skills, date, timezone, testMode: input.testMode, tools: input.tools })
  )
  if (input.channel) prompt = renderLocated(h(MessagingProviderSystemPrompt, { basePrompt: prompt, channel: input.channel }))
  if (input.forkSelection && input.forkSelection.trim() !== '') {
    prompt = renderLocated(h(ChatForkContextPrompt, { basePrompt: prompt, selection: input.forkSelection }))
  }
  if (!override) return finish(defanged(prompt), 'default', [], pendingCounts)
  const wrapped = wrapPrompt(override, prompt)
  return finish(defanged(wrapped), 'wrapped', wrapped.diagnostics, pendingCounts)
}

/**
 * The project's text in the prompt (rules, skills, table names, memories, the override itself) is data:
 * chat-template control tokens in it are defanged, and the sections' offsets moved past the joiners.
 */
function defanged(prompt: LocatedText): LocatedText {
  if (prompt.markerFree || !containsControlMarker(prompt.text)) return prompt
  const { text, insertedAt } = defangLocated(prompt.text)
  if (insertedAt.length === 0) return prompt
  const shift = (offset: number): number => offset + countBelow(insertedAt, offset)
  const sections = prompt.sections.map((section): RenderedSection => {
    const start = shift(section.start)
    const end = shift(section.end)
    if (end - start === section.end - section.start) return { ...section, start, end }
    // Its text changed: the token count kept for the old text no longer holds.
    const { tokens: _stale, ...rest } = section
    return { ...rest, start, end }
  })
  return { text, sections }
}

/** How many of the ascending `offsets` are below `limit`. */
function countBelow(offsets: readonly number[], limit: number): number {
  let low = 0
  let high = offsets.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (offsets[middle] < limit) low = middle + 1
    else high = middle
  }
  return low
}

function runtimePrompt(text: string): SystemPromptResult {
  const section = { id: 'runtime', title: 'Runtime system prompt', component: 'RuntimeOverride', sources: [], start: 0, end: text.length }
  return finish({ text, sections: [section] }, 'runtime', [])
}

function finish(prompt: LocatedText, overrideMode: OverrideMode, diagnostics: Diagnostic[], pendingCounts?: Array<LazyCount | null>): SystemPromptResult {
  const sections = uniqueIds(prompt.sections).map((section) => withTokens(prompt.text, section, pendingCounts))
  return { text: prompt.text, sections, overrideMode, diagnostics: [...diagnostics] }
}

/** A section injected twice (or two skills with one name) keeps its id once; later copies get `~2`, `~3`… */
function uniqueIds<T extends { id: string }>(sections: readonly T[]): T[] {
  const seen = new Map<string, number>()
  return sections.map((section) => {
    const count = (seen.get(section.id) ?? 0) + 1
    seen.set(section.id, count)
    return count === 1 ? section : { ...section, id: `${section.id}~${count}` }
  })
}

// Cache: per snapshot object (snapshots are replaced, never edited, when the project changes) and its version,
// then per the other inputs. The date is part of the key, the clock time is not.

const MAX_RESULTS_PER_PROJECT = 32

/**
 * A kept result, the count behind each of its sections' getters (null for a section given its count), and how
 * many of its sections (from the first) already hold their count as a plain value.
 */
interface CachedResult {
  result: SystemPromptResult
  pendingCounts: ReadonlyArray<LazyCount | null>
  settled: number
}

const caches = new WeakMap<ProjectSnapshot, { version: number; results: Map<string, CachedResult> }>()
function cacheFor(project: ProjectSnapshot): Map<string, CachedResult> {
  const entry = caches.get(project)
  if (entry && entry.version === project.version) return entry.results
  const results = new Map<string, CachedResult>()
  caches.set(project, { version: project.version, results })
  return results
}

function remember(project: ProjectSnapshot, key: string, result: SystemPromptResult, pendingCounts: ReadonlyArray<LazyCount | null>): void {
  const results = cacheFor(project)
  if (results.size >= MAX_RESULTS_PER_PROJECT) {
    const oldest = results.keys().next()
    if (!oldest.done) results.delete(oldest.value)
  }
  results.set(key, { result, pendingCounts, settled: 0 })
}

/**
 * The kept result, each section whose count has been read since replaced by one holding it as a plain value, in
 * order from the first (counts are read in order, by the inspector and the budget), as far as they have been read:
 * once all are, nothing is left to do. Callers get copies of the array, so the kept one is changed in place.
 */
function settleCounts(cached: CachedResult): SystemPromptResult {
  const { sections } = cached.result
  while (cached.settled < sections.length) {
    const count = cached.pendingCounts[cached.settled]
    if (count && !count.known) break
    if (count) sections[cached.settled] = Object.freeze(withCountSettled(sections[cached.settled], count))
    cached.settled++
  }
  return cached.result
}

function cacheKey(input: SystemPromptInput, date: string, timezone: string): string {
  const memory = input.memory.included.map((item) => `${item.id}|${item.category}|${item.content}`).join('\u0001')
  return JSON.stringify([
    date,
    timezone,
    input.testMode,
    input.tools.join(','),
    input.channel ?? '',
    input.forkSelection ?? '',
    skillsKey(input),
    input.memory.droppedCount,
    memory
  ])
}

function skillsKey(input: SystemPromptInput): string {
  const skills = input.skills
  if (!skills || skills === input.project.skills) return ''
  // Bracketed, so a given list never has the key of the project's own: an empty one would have had ''.
  return `[${skills.map((skill) => `${skill.location}|${skill.name}`).join('\u0001')}]`
}

// The budget fitter passes a fresh copy of the skills list on every call. Equal lists map to one array, so the
// rendered Skills section (memoised per list object) is reused.
const skillLists = new WeakMap<readonly Skill[], Map<string, readonly Skill[]>>()

function canonicalSkills(input: SystemPromptInput): readonly Skill[] {
  const all = input.project.skills
  const given = input.skills
  if (!given || given === all) return all
  if (given.length === all.length && given.every((skill, index) => skill === all[index])) return all
  let lists = skillLists.get(all)
  if (!lists) {
    lists = new Map()
    skillLists.set(all, lists)
  }
  const key = skillsKey(input)
  const known = lists.get(key)
  if (known) return known
  lists.set(key, given)
  return given
}

/** Callers get their own arrays; the cached sections themselves are frozen, so changing one fails loudly. */
function copy(result: SystemPromptResult): SystemPromptResult {
  return { ...result, sections: result.sections.slice(), diagnostics: result.diagnostics.slice() }
}

function freeze(result: SystemPromptResult): SystemPromptResult {
  for (const section of result.sections) Object.freeze(section.sources)
  result.sections.forEach(Object.freeze)
  result.diagnostics.forEach(Object.freeze)
  return result
}
