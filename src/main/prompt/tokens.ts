import { hash } from 'node:crypto'
import { createRequire } from 'node:module'
import { fileBesideBuild } from '../build-cache'
import { countingWithRankTable, libraryRanks, RankTable, ranksVersion } from './rank-table'

// A fast local estimate with a real BPE tokenizer (o200k). Local models use other vocabularies, so the
// count is an estimate; the budget keeps a safety margin and can be calibrated with server-reported usage.

const SHORT_TEXT = 256
/**
 * BPE merges within one pre-token in time quadratic in its length: 20k identical letters take a second,
 * 1 MB minutes. Ordinary words and numbers are far shorter than this; a longer run of non-space (minified
 * JSON, base64, a data URI) or of space is counted in pieces of this size instead — a piece boundary may shift
 * the count by a token, which a budget with a safety margin does not notice.
 */
const MAX_RUN = 256
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}|\\s{${MAX_RUN + 1},}`, 'g')
const MAX_ENTRIES = 20_000
const cache = new Map<string, number>()

// crypto.hash, one call without a Hash object: a prompt's ~400 sections are digested in a third of the time.
function digestOf(text: string): string {
  return hash('sha1', text, 'base64')
}

/**
 * The last few long texts digested, with their digests. A prompt's whole system text (250 KB on a big project)
 * is counted by each pass of the budget fitter and by every preview, the same string each time; comparing it
 * (`===`: the same object at once, another one by length first) costs far less than hashing it again.
 */
const RECENT_DIGESTS = 4
const recentDigests: Array<{ text: string; digest: string }> = []

function digestOfLong(text: string): string {
  for (const recent of recentDigests) if (recent.text === text) return recent.digest
  const digest = digestOf(text)
  recentDigests.unshift({ text, digest })
  if (recentDigests.length > RECENT_DIGESTS) recentDigests.pop()
  return digest
}

/** Counts kept between processes (the store's), asked before the tokenizer and told every count it makes. */
export interface TokenCountMemory {
  get(key: string): number | undefined
  remember(key: string, tokens: number): void
}

let memory: TokenCountMemory | null = null

/** Makes `next` the memory every count consults (null: none); returns a function that undoes it if still current. */
export function keepTokenCountsIn(next: TokenCountMemory | null): () => void {
  memory = next
  return () => {
    if (memory === next) memory = null
  }
}

/** The vocabulary a remembered count belongs to: a new one must not reuse the old counts. */
const VOCABULARY = 'o200k'

export function countTokens(text: string): number {
  return countTokensBy(text, '', countInPieces)
}

/**
 * The count `count` makes of `text`, kept in this process and in the store's memory like countTokens' own.
 * `scheme` names the way of counting (empty for the tokenizer's count of the whole text), so counts made one
 * way are never taken for another's.
 */
export function countTokensBy(text: string, scheme: string, count: (text: string) => number): number {
  if (text.length === 0) return 0
  // Short texts are their own key; long ones are keyed by a content hash so the cache stays small. The store's
  // memory is keyed by the hash of every text, taken once.
  const digest = text.length <= SHORT_TEXT ? null : digestOfLong(text)
  const key = scheme + (digest === null ? text : 'sha1:' + digest)
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const tokens = memory ? countRemembering(memory, `${VOCABULARY}${scheme}:${digest ?? digestOf(text)}`, text, count) : count(text)
  if (cache.size >= MAX_ENTRIES) {
    // Maps iterate in insertion order: drop the oldest entry.
    const oldest = cache.keys().next()
    if (!oldest.done) cache.delete(oldest.value)
  }
  cache.set(key, tokens)
  return tokens
}

function countRemembering(from: TokenCountMemory, key: string, text: string, count: (text: string) => number): number {
  const known = from.get(key)
  if (known !== undefined) return known
  const tokens = count(text)
  from.remember(key, tokens)
  return tokens
}

/**
 * The tokenizer, loaded on the first count nothing remembers. Synchronous (CommonJS), because counts are taken
 * synchronously, when a section's count is first read. The library's vocabulary is a 2 MB module that takes
 * ~340 ms to load and build; a build of the command line (both bundles: its commands, web mode) keeps it as a
 * rank table in its folder instead (see rank-table.ts), written after the first run that loaded the library and
 * read back in milliseconds.
 */
let bpe: ((text: string) => number) | null = null

function countBpeTokens(text: string): number {
  bpe ??= loadTokenizer()
  return bpe(text)
}

function loadTokenizer(): (text: string) => number {
  const load = createRequire(import.meta.url)
  const tableFile = fileBesideBuild('o200k.ranks')
  const version = tableFile && ranksVersion(load)
  if (tableFile && version) {
    const fromTable = countingWithRankTable(tableFile.path, version, load)
    if (fromTable) return fromTable
    tableFile.writeLater((path) => RankTable.fromRanks(libraryRanks(load)).write(path, version, libraryCount))
  }
  const libraryCount = (load('gpt-tokenizer') as typeof import('gpt-tokenizer')).countTokens
  return libraryCount
}

/** The BPE count, with every run longer than MAX_RUN counted piece by piece: near-linear on any input. */
function countInPieces(text: string): number {
  let total = 0
  let from = 0
  for (const run of text.matchAll(LONG_RUN)) {
    if (run.index > from) total += countBpeTokens(text.slice(from, run.index))
    total += countRun(run[0])
    from = run.index + run[0].length
  }
  if (from === 0) return countBpeTokens(text)
  return from < text.length ? total + countBpeTokens(text.slice(from)) : total
}

/** Past this, a run (a blob, in practice) is estimated from three samples rather than counted whole. */
const SAMPLED_RUN = 64 * 1024
const SAMPLE = 8 * 1024

function countRun(run: string): number {
  if (run.length <= SAMPLED_RUN) return countPieces(run)
  // A base64 or minified blob is uniform enough that its start, middle and end tell its density.
  const middle = Math.floor((run.length - SAMPLE) / 2)
  const sampled = countPieces(run.slice(0, SAMPLE)) + countPieces(run.slice(middle, middle + SAMPLE)) + countPieces(run.slice(-SAMPLE))
  return Math.ceil((sampled * run.length) / (3 * SAMPLE))
}

function countPieces(run: string): number {
  let total = 0
  for (let at = 0; at < run.length; at += MAX_RUN) total += countBpeTokens(run.slice(at, at + MAX_RUN))
  return total
}
