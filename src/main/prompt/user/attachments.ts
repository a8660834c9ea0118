import { hash } from 'node:crypto'
import { promises as fsPromises } from 'node:fs'
import { basename, resolve } from 'node:path'
import { NotRegularFileError, openRegularFile } from '../../project/regular-file'
import type { Diagnostic } from '../../../shared/prompt'
import type { FileMeta } from './context-block'
import { errorMessage } from '../../../shared/error-message'

// An attached file becomes metadata for the context block: a MIME type and a short honest summary. Only the
// first 4 KB are read to detect the type; text files up to LINE_COUNT_LIMIT are scanned (not kept) to count
// lines. The content never reaches the prompt: the model reads it with a tool when it needs to.

export const HEAD_BYTES = 4096
/** Larger text files are not scanned for a line count, so attaching a huge log stays instant. */
export const LINE_COUNT_LIMIT = 16 * 1024 * 1024
const FIRST_LINE_CHARS = 120
const MAX_LISTED_COLUMNS = 40
const SCAN_CHUNK = 64 * 1024
const NEWLINE = 0x0a

/** An attachment that cannot be described at all (missing, a folder, unreadable). */
export class AttachmentError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string
  ) {
    super(`Cannot attach ${path}: ${problem}`)
    this.name = 'AttachmentError'
  }
}

export interface DescribeAttachmentOptions {
  /** Defaults to a stable id derived from the absolute path. */
  fileId?: string
  /** Defaults to the file's base name. */
  name?: string
  variableId?: string
  variableName?: string
}

export async function describeAttachment(path: string, options: DescribeAttachmentOptions = {}): Promise<FileMeta> {
  const absolute = resolve(path)
  const name = options.name ?? basename(absolute)
  const size = await sizeOfRegularFile(path, absolute)
  const head = size === 0 ? new Uint8Array(0) : await readHead(path, absolute)
  // Loaded with the first attachment: the type tables are ~300 KB of code a prompt without one never needs.
  const [{ fileTypeFromBuffer }, { lookup }] = await Promise.all([import('file-type'), import('mime-types')])
  const detected = size === 0 ? undefined : await fileTypeFromBuffer(head)
  const text = detected === undefined && looksLikeUtf8Text(head, size > head.length)
  const type = detected?.mime ?? (lookup(name) || (text || size === 0 ? 'text/plain' : 'application/octet-stream'))

  let summary: string
  if (size === 0) summary = 'Empty file (0 bytes).'
  else if (detected && type.startsWith('image/')) summary = `${detected.ext.toUpperCase()} image, ${formatSize(size)}.`
  else if (type.startsWith('image/')) summary = `Image (${type}), ${formatSize(size)}.` // e.g. SVG, which is text
  else if (!text) summary = `Binary file, ${formatSize(size)} (${type}); its content cannot be shown as text.`
  else summary = await describeText(absolute, head, size, type, name)

  const meta: FileMeta = { name, fileId: options.fileId ?? defaultFileId(absolute), type, summary }
  if (options.variableId !== undefined) meta.variableId = options.variableId
  if (options.variableName !== undefined) meta.variableName = options.variableName
  return meta
}

/**
 * Describes several attachments; the ones that cannot be attached become diagnostics {file, problem} so
 * the message is still sent with the rest.
 */
export async function describeAttachments(paths: readonly string[]): Promise<{ files: FileMeta[]; diagnostics: Diagnostic[] }> {
  const files: FileMeta[] = []
  const diagnostics: Diagnostic[] = []
  for (const path of paths) {
    try {
      files.push(await describeAttachment(path))
    } catch (error) {
      if (!(error instanceof AttachmentError)) throw error
      diagnostics.push({ file: error.path, problem: `cannot be attached: ${error.problem}` })
    }
  }
  return { files, diagnostics }
}

async function sizeOfRegularFile(path: string, absolute: string): Promise<number> {
  try {
    const stats = await fsPromises.stat(absolute)
    if (stats.isDirectory()) throw new AttachmentError(path, 'it is a folder; attach the files inside it instead')
    if (!stats.isFile()) throw new AttachmentError(path, 'it is not a regular file')
    return stats.size
  } catch (error) {
    throw toAttachmentError(path, error)
  }
}

async function readHead(path: string, absolute: string): Promise<Uint8Array> {
  try {
    const handle = await openRegularFile(absolute)
    try {
      const buffer = new Uint8Array(HEAD_BYTES)
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0)
      return buffer.subarray(0, bytesRead)
    } finally {
      await handle.close()
    }
  } catch (error) {
    throw toAttachmentError(path, error)
  }
}

function toAttachmentError(path: string, error: unknown): AttachmentError {
  if (error instanceof AttachmentError) return error
  if (error instanceof NotRegularFileError) return new AttachmentError(path, 'it is not a regular file')
  const code = error instanceof Error && 'code' in error ? error.code : undefined
  if (code === 'ENOENT') return new AttachmentError(path, 'the file does not exist (or is a broken link)')
  if (code === 'EACCES' || code === 'EPERM') return new AttachmentError(path, 'permission denied')
  return new AttachmentError(path, errorMessage(error))
}

/** No NUL byte and valid UTF-8 (a multi-byte character cut at the end of the sample is fine). */
function looksLikeUtf8Text(head: Uint8Array, truncated: boolean): boolean {
  if (head.includes(0)) return false
  const decoder = new TextDecoder('utf-8', { fatal: true })
  try {
    decoder.decode(head, { stream: truncated })
    return true
  } catch {
    return false
  }
}

async function describeText(absolute: string, head: Uint8Array, size: number, type: string, name: string): Promise<string> {
  const sample = new TextDecoder('utf-8').decode(head).replace(/^\uFEFF/, '')
  const firstLine = sample.split(/\r?\n/, 1)[0]
  const lines = size <= LINE_COUNT_LIMIT ? await countLines(absolute) : null
  const delimiter = tableDelimiter(type, name)
  if (delimiter !== null) {
    const columns = splitHeader(firstLine, delimiter)
    const shown = columns.slice(0, MAX_LISTED_COLUMNS).join(', ')
    const more = columns.length > MAX_LISTED_COLUMNS ? `, … ${columns.length - MAX_LISTED_COLUMNS} more` : ''
    const rows = lines === null ? 'too large to count rows' : `${plural(lines, 'line')} (a header and ${plural(lines - 1, 'row')})`
    return `Table (${delimiter === '\t' ? 'TSV' : 'CSV'}), ${formatSize(size)}, ${rows}. Columns (${columns.length}): ${shown}${more}.`
  }
  const count = lines === null ? 'too large to count lines' : plural(lines, 'line')
  return `Text, ${formatSize(size)}, ${count}. First line: "${clip(firstLine, FIRST_LINE_CHARS)}"`
}

async function countLines(absolute: string): Promise<number> {
  const handle = await openRegularFile(absolute)
  try {
    const buffer = new Uint8Array(SCAN_CHUNK)
    let newlines = 0
    let lastByte = NEWLINE
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, SCAN_CHUNK, null)
      if (bytesRead === 0) break
      for (let i = 0; i < bytesRead; i++) if (buffer[i] === NEWLINE) newlines++
      lastByte = buffer[bytesRead - 1]
    }
    // A last line without a trailing newline still counts.
    return newlines + (lastByte === NEWLINE ? 0 : 1)
  } finally {
    await handle.close()
  }
}

function tableDelimiter(type: string, name: string): ',' | '\t' | null {
  if (type === 'text/csv' || /\.csv$/i.test(name)) return ','
  if (type === 'text/tab-separated-values' || /\.tsv$/i.test(name)) return '\t'
  return null
}

/** Header cells, honouring double quotes (`"a,b"` is one column and `""` an escaped quote). */
export function splitHeader(line: string, delimiter: string): string[] {
  const cells: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const char = line[i]
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"'
        i++
      } else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"') quoted = true
    else if (char === delimiter) {
      cells.push(cell.trim())
      cell = ''
    } else cell += char
  }
  cells.push(cell.trim())
  return cells
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(1)} ${units[unit]}`
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max) + '…'
}

function defaultFileId(absolute: string): string {
  return 'file_' + hash('sha1', absolute, 'hex').slice(0, 12)
}
