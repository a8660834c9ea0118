import { readFile, realpath, stat } from 'node:fs/promises'
import { extname, isAbsolute, join, relative, resolve } from 'node:path'

// Serves the built renderer (out/renderer) and nothing else: every path is resolved (symlinks too)
// and must stay inside the renderer folder.

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf'
}

export type StaticResult =
  | { kind: 'file'; body: Buffer; contentType: string; immutable: boolean }
  | { kind: 'not-found' }
  | { kind: 'bad-path'; reason: string }

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

export async function readStaticFile(rendererDir: string, pathname: string): Promise<StaticResult> {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return { kind: 'bad-path', reason: 'The path is not valid URL encoding.' }
  }
  if (decoded.includes('\0')) return { kind: 'bad-path', reason: 'The path contains a NUL byte.' }
  const wanted = decoded === '/' || decoded === '' ? '/index.html' : decoded
  const root = await realpath(rendererDir)
  const target = resolve(join(root, wanted))
  if (!isInside(root, target)) return { kind: 'bad-path', reason: 'The path leaves the app folder.' }
  let real: string
  try {
    real = await realpath(target)
    if (!(await stat(real)).isFile()) return { kind: 'not-found' }
  } catch {
    return { kind: 'not-found' }
  }
  if (!isInside(root, real)) return { kind: 'bad-path', reason: 'The path leaves the app folder.' }
  const body = await readFile(real)
  const contentType = CONTENT_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream'
  return { kind: 'file', body, contentType, immutable: real.includes(`${join(root, 'assets')}`) }
}
