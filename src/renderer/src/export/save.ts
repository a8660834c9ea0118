import type { SaveFileInput } from '../../../shared/save-file'
import type { Transport } from '../transport'

// One way to save an export, whichever app this is: the desktop app's save dialog, or a browser download.

/** Where it went (a path, or the downloaded file's name), or null when the user cancelled the dialog. */
export async function saveExport(transport: Transport, input: SaveFileInput): Promise<string | null> {
  if (transport.saveFile) return transport.saveFile(input)
  const bytes = input.encoding === 'base64' ? Uint8Array.from(atob(input.content), (char) => char.charCodeAt(0)) : input.content
  const url = URL.createObjectURL(new Blob([bytes], { type: mimeOf(input.filter.extensions[0]) }))
  const link = document.createElement('a')
  link.href = url
  link.download = input.suggestedName
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has taken the blob by the next task; keep the URL a little longer for slow disks.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000)
  return input.suggestedName
}

function mimeOf(extension: string | undefined): string {
  if (extension === 'csv') return 'text/csv;charset=utf-8'
  if (extension === 'md') return 'text/markdown;charset=utf-8'
  if (extension === 'png') return 'image/png'
  return 'application/octet-stream'
}

/** A file name from a title: letters, digits, dashes; never empty. */
/** A result's CSV title: the chat's question, then the query's number in the run ("Revenue by month – query 2"). */
export function csvTitle(chatTitle: string | undefined, queryId: string | null | undefined): string {
  const number = queryId ? /_q(\d+)$/.exec(queryId)?.[1] : undefined
  const query = number ? `query ${number}` : 'query result'
  const asked = chatTitle && chatTitle !== 'New chat' ? chatTitle : null
  return asked ? `${asked} – ${query}` : `Glassbox ${query}`
}

export function fileNameFrom(title: string, extension: string): string {
  const stem = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
  return `${stem || 'glassbox-export'}.${extension}`
}
