import { hash } from 'node:crypto'

// Names from a database become folder names under databases/, and names may be anything: 240 characters, a
// slash, a newline. A name that is safe and short is its folder as is (so nao's layout is unchanged); any
// other gets a readable, shortened form plus a stable hash of the real name, so `a/b` and `a_b` (or two
// long names with one prefix) never share a folder. The real name stays in the files inside.

/** Bytes of a name kept before the hash: with `table=`, `~hash` and sync's staging suffix, far below 255. */
const MAX_NAME_BYTES = 96
const UNSAFE = /[/\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
const HASH_LENGTH = 10

/** The folder form of a database, schema or table name. */
export function folderSegment(name: string): string {
  const safe = name.replace(UNSAFE, '_')
  const dotsOnly = /^\.*$/.test(safe)
  if (safe === name && !dotsOnly && Buffer.byteLength(name) <= MAX_NAME_BYTES) return name
  return `${truncateBytes(dotsOnly ? safe.replace(/\./g, '_') : safe, MAX_NAME_BYTES - HASH_LENGTH - 1)}~${shortHash(name)}`
}

/** A stable suffix telling apart two things that would share a folder. */
export function shortHash(text: string): string {
  return hash('sha256', text, 'hex').slice(0, HASH_LENGTH)
}

function truncateBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text
  let kept = ''
  for (const char of text) {
    if (Buffer.byteLength(kept + char) > maxBytes) break
    kept += char
  }
  return kept
}
