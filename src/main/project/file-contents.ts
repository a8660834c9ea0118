import { fileVersionKey, readProjectText, versionKey, type TextRead, type TextRefused } from './read-text'

// Contents of the files the prompt does not need (columns.md, preview.md, docs, …): read on demand (agent
// reads, attachments), not when the project opens, and kept while their real path, mtime and size stay the
// same, up to a total size; the oldest go first.

const MAX_CACHED_BYTES = 16 * 1024 * 1024

interface Entry {
  key: string
  maxBytes: number
  read: TextRead
}

const entries = new Map<string, Entry>()
let cachedBytes = 0

/** readProjectText, served from memory while the file is unchanged. Same guard, same refusals. */
export async function readProjectTextCached(root: string, relPath: string, maxBytes: number): Promise<TextRead | TextRefused> {
  const id = `${root}\u0000${relPath}`
  const cached = entries.get(id)
  if (cached && cached.maxBytes === maxBytes && cached.key === fileVersionKey(root, relPath)) {
    // Most recently used last, so eviction takes the oldest.
    entries.delete(id)
    entries.set(id, cached)
    return cached.read
  }
  const read = await readProjectText(root, relPath, maxBytes)
  forget(id)
  if (read.ok && read.text.length <= MAX_CACHED_BYTES / 4) remember(id, { key: versionKey(read.real, read.mtimeMs, read.size), maxBytes, read })
  return read
}

function remember(id: string, entry: Entry): void {
  entries.set(id, entry)
  cachedBytes += entry.read.text.length
  for (const [oldest, old] of entries) {
    if (cachedBytes <= MAX_CACHED_BYTES) break
    entries.delete(oldest)
    cachedBytes -= old.read.text.length
  }
}

function forget(id: string): void {
  const entry = entries.get(id)
  if (!entry) return
  entries.delete(id)
  cachedBytes -= entry.read.text.length
}
