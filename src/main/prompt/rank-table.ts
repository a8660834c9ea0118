import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import type { GptEncoding } from 'gpt-tokenizer/GptEncoding'

// gpt-tokenizer's o200k vocabulary, as the library ships it, is a 2 MB JavaScript module of 200,000 strings that
// its encoder turns into a Map: ~340 ms before a fresh process can count one token, which a one-shot command
// (`glassbox prompt --question …`, whose new question is the one text no earlier run counted) pays in full.
// The same ranks, written once as a hash table in one binary file, are read back in a few milliseconds: one
// file read, no per-token objects. Only the library's vocabulary look-ups are served from it; its pre-token
// split, special tokens and byte-pair merges stay the library's own, so counts are the library's exactly
// (rank-table.test.ts compares every one of the 200,000 tokens' look-ups, and counts over a corpus). The two
// look-ups replaced are the library's private methods, so package.json pins its version; a table that counts
// a probe otherwise than the library did when writing it is not used.

/** The library's ranks: the token (as text, or as bytes when they are not UTF-8) at each rank's index. */
export type LibraryRanks = ReadonlyArray<string | readonly number[]>

const MAGIC = 0x31524247 // "GBR1"
const FORMAT = 3
const HEADER_WORDS = 7
/** How the library keeps a token: as text (found through its Map) or as bytes (found by binary search). */
const TEXT = 1
const BYTES = -1
type Kind = typeof TEXT | typeof BYTES

/**
 * A vocabulary as a hash table of byte strings: each slot holds rank + 1 for a token the library keeps as text,
 * -(rank + 1) for one it keeps as bytes, 0 when empty, found by FNV-1a of the token's bytes with linear probing;
 * a rank's bytes are `bytes[offsets[rank]..offsets[rank + 1]]`.
 *
 * Look-ups answer as the library's do, quirks included. It finds a text by its Map of the tokens kept as text.
 * It finds bytes that are valid UTF-8 by decoding them, with TextDecoder's default of dropping a leading
 * byte-order mark, and looking the text up; other bytes among the tokens kept as bytes. So a token kept as bytes
 * that is valid UTF-8 (o200k has nine, each starting with a byte-order mark) is never found.
 */
export class RankTable {
  private readonly mask: number
  private readonly encoder = new TextEncoder()
  private scratch = new Uint8Array(3072)

  private constructor(
    private readonly offsets: Uint32Array,
    private readonly slots: Int32Array,
    private readonly bytes: Uint8Array,
    /** The library's own count of PROBE, when the table was written from it (-1 for a table not read from a file). */
    readonly probeCount = -1
  ) {
    this.mask = slots.length - 1
  }

  /** The table for the library's ranks. A token listed twice keeps its last rank, as the library's Map does. */
  static fromRanks(ranks: LibraryRanks): RankTable {
    const kinds = new Int8Array(ranks.length)
    const offsets = new Uint32Array(ranks.length + 1)
    // Written in place, one growing buffer rather than 200,000 small arrays: the table is made after a run, while
    // its process has yet to exit.
    let bytes = Buffer.allocUnsafe(1 << 21)
    let at = 0
    for (let rank = 0; rank < ranks.length; rank++) {
      offsets[rank] = at
      const token = ranks[rank]
      // A hole (a rank without a token) stays empty, as the library's constructor skips it.
      if (token === undefined) continue
      // Three bytes of UTF-8 at most for each UTF-16 unit.
      if (at + token.length * 3 > bytes.length) {
        const grown = Buffer.allocUnsafe(bytes.length * 2 + token.length * 3)
        bytes.copy(grown, 0, 0, at)
        bytes = grown
      }
      if (typeof token === 'string') {
        // Buffer#write encodes as TextEncoder does (a lone surrogate as U+FFFD), without a view per token.
        at += bytes.write(token, at)
        kinds[rank] = TEXT
      } else {
        bytes.set(token, at)
        at += token.length
        if (!isValidUtf8(bytes.subarray(at - token.length, at))) kinds[rank] = BYTES
      }
    }
    offsets[ranks.length] = at
    // At most 80% full: o200k's 200,000 tokens in 2^18 slots. Half full took a megabyte more to read at every
    // load (~3 ms); a probe looks at a few more slots, which a count does not notice.
    let size = 1
    while (size < ranks.length * 1.25) size *= 2
    const table = new RankTable(offsets, new Int32Array(size), Uint8Array.prototype.slice.call(bytes, 0, at))
    for (let rank = 0; rank < ranks.length; rank++) if (kinds[rank] !== 0) table.insert(rank, kinds[rank] as Kind)
    return table
  }

  /** The table in `file` (written by `write`), or null when there is none or it is not one for `source`. */
  static read(file: string, source: string): RankTable | null {
    let data: Uint8Array
    try {
      // A file this big is read into memory of its own (not Node's shared pool), so the views below start aligned.
      data = readFileSync(file)
    } catch {
      return null
    }
    const sourceBytes = new TextEncoder().encode(source)
    if (data.byteLength < HEADER_WORDS * 4 || data.byteOffset % 4 !== 0) return null
    const header = new Uint32Array(data.buffer, data.byteOffset, HEADER_WORDS)
    const [magic, format, count, slotCount, byteCount, sourceLength, probeCount] = header
    if (magic !== MAGIC || format !== FORMAT || sourceLength !== sourceBytes.length) return null
    if (slotCount === 0 || (slotCount & (slotCount - 1)) !== 0) return null
    const sourceStart = HEADER_WORDS * 4
    const offsetsStart = sourceStart + padded(sourceLength)
    const slotsStart = offsetsStart + (count + 1) * 4
    const bytesStart = slotsStart + slotCount * 4
    if (data.byteLength !== bytesStart + byteCount) return null
    if (!sameBytes(data.subarray(sourceStart, sourceStart + sourceLength), sourceBytes)) return null
    const offsets = new Uint32Array(data.buffer, data.byteOffset + offsetsStart, count + 1)
    if (offsets[count] !== byteCount) return null
    return new RankTable(offsets, new Int32Array(data.buffer, data.byteOffset + slotsStart, slotCount), data.subarray(bytesStart), probeCount)
  }

  /**
   * Writes the table to `file` through a temporary file, so no reader sees half of it; `source` is what `read`
   * checks, and `libraryCount` (the library's own count, loaded in full) counts the probe the reader checks.
   */
  write(file: string, source: string, libraryCount: (text: string) => number): void {
    const sourceBytes = new TextEncoder().encode(source)
    const count = this.offsets.length - 1
    const header = Uint32Array.of(MAGIC, FORMAT, count, this.slots.length, this.bytes.length, sourceBytes.length, libraryCount(PROBE))
    const sourcePadded = new Uint8Array(padded(sourceBytes.length))
    sourcePadded.set(sourceBytes)
    const temp = `${file}.${process.pid}`
    try {
      writeFileSync(temp, Buffer.concat([header, sourcePadded, this.offsets, this.slots, this.bytes].map((part) => new Uint8Array(part.buffer, part.byteOffset, part.byteLength))))
      renameSync(temp, file)
    } catch (error) {
      rmSync(temp, { force: true })
      throw error
    }
  }

  /** The rank the library finds for the bytes `key`, or undefined. */
  rankOfBytes(key: Uint8Array): number | undefined {
    if (key.length >= 3 && key[0] === 0xef && key[1] === 0xbb && key[2] === 0xbf) {
      if (!isValidUtf8(key)) return this.find(key, key.length, BYTES)
      // Decoded without its byte-order mark: the text of the bytes after it.
      return key.length === 3 ? undefined : this.find(key.subarray(3), key.length - 3, TEXT)
    }
    // A text token's bytes are valid UTF-8, and the bytes tokens kept are not: a match of either is the library's.
    return this.find(key, key.length, TEXT) ?? this.find(key, key.length, BYTES)
  }

  /**
   * The rank the library finds for the text `key`, or undefined. A text with a lone surrogate is no token (every
   * token is valid UTF-8), though its UTF-8 encoding (with U+FFFD in the surrogate's place) may be one.
   */
  rankOfText(key: string): number | undefined {
    if (!(key as WellFormedCheck).isWellFormed()) return undefined
    // Three bytes of UTF-8 at most for each UTF-16 unit.
    if (this.scratch.length < key.length * 3) this.scratch = new Uint8Array(key.length * 3)
    return this.find(this.scratch, this.encoder.encodeInto(key, this.scratch).written, TEXT)
  }

  private find(key: Uint8Array, length: number, kind: Kind): number | undefined {
    const { slots, mask } = this
    // Never more probes than slots: a damaged file without an empty slot must not loop forever.
    for (let probes = 0, slot = hashOf(key, 0, length) & mask; probes < slots.length; probes++, slot = (slot + 1) & mask) {
      const entry = slots[slot]
      if (entry === 0) return undefined
      if (Math.sign(entry) === kind && this.holds(Math.abs(entry) - 1, key, 0, length)) return Math.abs(entry) - 1
    }
    return undefined
  }

  /** Whether `rank`'s bytes are `source[start..start + length]`. */
  private holds(rank: number, source: Uint8Array, start: number, length: number): boolean {
    const { offsets, bytes } = this
    // A rank past the table (a damaged file) holds nothing.
    if (rank + 1 >= offsets.length) return false
    const at = offsets[rank]
    if (offsets[rank + 1] - at !== length) return false
    for (let index = 0; index < length; index++) if (bytes[at + index] !== source[start + index]) return false
    return true
  }

  private insert(rank: number, kind: Kind): void {
    const { offsets, slots, bytes, mask } = this
    const start = offsets[rank]
    const length = offsets[rank + 1] - start
    for (let slot = hashOf(bytes, start, length) & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]
      if (entry === 0 || (Math.sign(entry) === kind && this.holds(Math.abs(entry) - 1, bytes, start, length))) {
        slots[slot] = kind * (rank + 1)
        return
      }
    }
  }
}

/**
 * The library's encoder with its vocabulary look-ups served by `table`: made from an empty vocabulary (so
 * nothing of its 200,000 tokens is built), then given the table's look-ups. Null when this version of the
 * library does not look tokens up by the two methods this replaces (the caller then loads it in full).
 */
export function encodingWithTable(table: RankTable, library: typeof GptEncoding): GptEncoding | null {
  const encoding = library.getEncodingApi('o200k_base', () => [])
  const core = (encoding as unknown as { bytePairEncodingCoreProcessor?: Partial<VocabularyLookups> }).bytePairEncodingCoreProcessor
  if (!core || typeof core.getBpeRankFromString !== 'function' || typeof core.getBpeRankFromBytes !== 'function') return null
  core.getBpeRankFromString = (key) => table.rankOfText(key)
  core.getBpeRankFromBytes = (key) => table.rankOfBytes(key)
  return encoding
}

/** ES2024's String.prototype.isWellFormed, which Node 20 has and the ES2022 typings do not. */
type WellFormedCheck = string & { isWellFormed(): boolean }

const RANKS_MODULE = 'gpt-tokenizer/bpeRanks/o200k_base'

/** The ranks the installed library counts with (loading them is the slow part this table spares). */
export function libraryRanks(load: NodeJS.Require): LibraryRanks {
  return (load(RANKS_MODULE) as { default: LibraryRanks }).default
}

/** Which ranks the library has installed (its ranks module's path, size and mtime): a table of others is not used. */
export function ranksVersion(load: NodeJS.Require): string | null {
  try {
    const path = load.resolve(RANKS_MODULE)
    const info = statSync(path)
    return `${path}:${info.size}:${info.mtimeMs}`
  } catch {
    return null
  }
}

/**
 * A text that takes the library's ways of looking tokens up (whole pre-tokens, and byte pairs merged for words
 * that are no token): a table whose count of it is not the one the library made when the table was written is
 * not used, whatever changed. ASCII: the split pattern's first match of other text costs ~15 ms more, which a
 * question in English never pays.
 */
const PROBE = 'Revenue_by_region(2026-01-31) -> 12.5% of qzxvbnmregionalisation\n\tindented "quoted"'

/**
 * The library's count, served by the table in `file` when it is one of `version`'s ranks and counts the probe
 * as the library did; null otherwise.
 */
export function countingWithRankTable(file: string, version: string, load: NodeJS.Require): ((text: string) => number) | null {
  const table = RankTable.read(file, version)
  const encoding = table && encodingWithTable(table, (load('gpt-tokenizer/GptEncoding') as typeof import('gpt-tokenizer/GptEncoding')).GptEncoding)
  if (!table || !encoding) return null
  try {
    return encoding.countTokens(PROBE) === table.probeCount ? encoding.countTokens : null
  } catch {
    return null
  }
}

/** What gpt-tokenizer's BytePairEncodingCore looks every pre-token and every byte pair up with. */
interface VocabularyLookups {
  getBpeRankFromString(key: string): number | undefined
  getBpeRankFromBytes(key: Uint8Array): number | undefined
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** Whether `bytes` are UTF-8 by the library's strict rules (no overlong forms, surrogates or cut sequences). */
function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    STRICT_UTF8.decode(bytes)
    return true
  } catch {
    return false
  }
}

function hashOf(source: Uint8Array, start: number, length: number): number {
  let hash = 0x811c9dc5
  for (let index = start; index < start + length; index++) hash = Math.imul(hash ^ source[index], 0x01000193)
  return hash >>> 0
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false
  return true
}

function padded(length: number): number {
  return Math.ceil(length / 4) * 4
}
