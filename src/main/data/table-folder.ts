import { hash } from 'node:crypto'
import { cpSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import { readRegularFileSync } from '../project/regular-file'
import { isInside } from '../project/safe-path'

// Writes one table folder so that an interrupted sync leaves it old or new, never a mix: the new folder is
// built beside the old one (its generated files, plus hard links to every file sync does not produce, such
// as annotations.md) and then swapped in with two renames. A crash between the renames leaves the old folder
// under a recovery name, which `recoverTableFolders` puts back before the next sync.
//
// Sync overwrites only what it wrote itself. Each table folder carries a small manifest (SYNC_MANIFEST) with
// the hash of every file sync wrote there; it is part of the folder, so it is swapped in with the files and a
// crash never separates them. A produced file whose content does not match the manifest (nao's own
// preview.md with its template footer, an analyst's edit) is someone else's: left untouched and reported.
// A file identical to what sync would write is taken over (that is how folders from before the manifest, or
// from nao's sync, become sync's). Writes land only at realpaths inside the project.

/** Files sync writes in a table folder; nothing else in it is ever changed. */
export const PRODUCED_FILES = ['columns.md', 'description.md', 'preview.md'] as const

/** The manifest of what sync wrote in a table folder: `{ "files": { "columns.md": "<sha256>" } }`. */
export const SYNC_MANIFEST = '.glassbox-sync.json'

const NEW_SUFFIX = '.glassbox-new'
const OLD_SUFFIX = '.glassbox-old'

/** Where a failure can be injected in tests, to show each table stays old or new. */
export type CommitStep = 'file-written' | 'before-swap' | 'old-moved-aside'
export type CommitProbe = (step: CommitStep, table: string) => void

/** A write sync refused because the place it would land is outside the project (through a symlink). */
export class WriteOutsideProjectError extends Error {
  constructor(
    readonly where: string,
    link: 'leads-outside' | 'is-a-link' = 'leads-outside'
  ) {
    super(
      link === 'leads-outside'
        ? `${where} leads outside the project (through a symlink); sync writes only inside the project, so nothing was written or removed there`
        : `${where} is a symlink; sync replaces folders and does not write through links, so nothing was written or removed there`
    )
    this.name = 'WriteOutsideProjectError'
  }
}

/** What a commit did to one table folder, by file name. */
export interface TableCommit {
  /** Produced files written or removed. */
  changed: string[]
  /** Produced files left untouched because sync did not write them (or they were edited since). */
  foreign: string[]
}

/**
 * Throws WriteOutsideProjectError unless `target` (existing or about to be created) resolves inside
 * `rootReal` (already a realpath): its deepest existing ancestor is resolved, symlinks included.
 */
export function assertWritableInside(rootReal: string, target: string): void {
  let existing = target
  while (!pathExists(existing)) existing = dirname(existing)
  let real: string
  try {
    real = realpathSync(existing)
  } catch {
    real = existing // a broken link on the way: its own location is what would be written through
  }
  const where = relative(rootReal, target).split(sep).join('/') || '.'
  if (!isInside(rootReal, real)) throw new WriteOutsideProjectError(where)
  if (existing === target && lstatSync(target).isSymbolicLink()) throw new WriteOutsideProjectError(where, 'is-a-link')
}

/**
 * Makes `tableDir` hold `files` among the produced files sync owns, keeping every other entry (and every
 * produced file it does not own) as it is. Writes nothing when nothing has to change, so watchers see nothing.
 */
export function commitTableFolder(rootReal: string, tableDir: string, files: Map<string, string>, probe?: CommitProbe): TableCommit {
  assertWritableInside(rootReal, tableDir)
  const plan = planCommit(tableDir, files)
  if (plan.changed.length === 0 && sameManifest(plan.oldManifest, plan.newManifest)) return { changed: [], foreign: plan.foreign }
  const label = basename(tableDir)
  const parent = dirname(tableDir)
  const staging = join(parent, `.${label}${NEW_SUFFIX}`)
  const aside = join(parent, `.${label}${OLD_SUFFIX}`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  try {
    for (const [name, text] of plan.writes) {
      writeFileSync(join(staging, name), text)
      probe?.('file-written', label)
    }
    if (Object.keys(plan.newManifest).length > 0) writeFileSync(join(staging, SYNC_MANIFEST), manifestText(plan.newManifest))
    const existed = pathExists(tableDir)
    if (existed) keepEntries(tableDir, staging, plan.replaced)
    probe?.('before-swap', label)
    if (!existed) {
      renameSync(staging, tableDir)
      return { changed: plan.changed, foreign: plan.foreign }
    }
    renameSync(tableDir, aside)
    try {
      probe?.('old-moved-aside', label)
      renameSync(staging, tableDir)
    } catch (error) {
      renameSync(aside, tableDir)
      throw error
    }
    rmSync(aside, { recursive: true, force: true })
    return { changed: plan.changed, foreign: plan.foreign }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

interface CommitPlan {
  writes: Map<string, string>
  /** Entries of the old folder the new one replaces or drops (everything else is carried over). */
  replaced: Set<string>
  changed: string[]
  foreign: string[]
  oldManifest: Record<string, string>
  newManifest: Record<string, string>
}

function planCommit(tableDir: string, files: Map<string, string>): CommitPlan {
  const oldManifest = readManifest(tableDir)
  const plan: CommitPlan = { writes: new Map(), replaced: new Set([SYNC_MANIFEST]), changed: [], foreign: [], oldManifest, newManifest: {} }
  for (const name of PRODUCED_FILES) {
    const wanted = files.get(name)
    const current = readOwnable(join(tableDir, name))
    if (current === 'not-a-file' || (typeof current === 'string' && current !== wanted && oldManifest[name] !== sha256(current))) {
      plan.foreign.push(name)
      continue
    }
    plan.replaced.add(name)
    if (wanted !== undefined) {
      plan.writes.set(name, wanted)
      plan.newManifest[name] = sha256(wanted)
    }
    if (current !== wanted && !(current === null && wanted === undefined)) plan.changed.push(name)
  }
  return plan
}

/** The text of a produced file, null when absent, 'not-a-file' for a folder, link, pipe or device. */
function readOwnable(path: string): string | null | 'not-a-file' {
  let info
  try {
    info = lstatSync(path)
  } catch {
    return null
  }
  if (!info.isFile()) return 'not-a-file'
  try {
    return readRegularFileSync(path).toString('utf8')
  } catch {
    return 'not-a-file'
  }
}

function readManifest(tableDir: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(readRegularFileSync(join(tableDir, SYNC_MANIFEST), 64 * 1024).toString('utf8'))
    const files = parsed && typeof parsed === 'object' && 'files' in parsed ? parsed.files : null
    if (!files || typeof files !== 'object') return {}
    return Object.fromEntries(Object.entries(files).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
  } catch {
    return {} // absent or unreadable: sync owns nothing there that it cannot prove
  }
}

function manifestText(files: Record<string, string>): string {
  const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)))
  return JSON.stringify({ comment: 'Files glassbox sync wrote here, by content hash; sync rewrites only these.', files: sorted }, null, 2) + '\n'
}

function sameManifest(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key])
}

function sha256(text: string): string {
  return hash('sha256', text, 'hex')
}

function pathExists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

function keepEntries(from: string, to: string, replaced: ReadonlySet<string>): void {
  for (const entry of readdirSync(from)) {
    if (replaced.has(entry)) continue
    const source = join(from, entry)
    const target = join(to, entry)
    // A hard link keeps the very same file (content, times, inode); folders and links are copied as they are.
    if (lstatSync(source).isFile()) {
      try {
        linkSync(source, target)
        continue
      } catch {
        // Some file systems have no hard links: fall back to a copy.
      }
    }
    cpSync(source, target, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true })
  }
}

/** Puts back table folders left aside by a sync that was killed between its two renames; drops leftovers. */
export function recoverTableFolders(schemaDir: string): void {
  if (!existsSync(schemaDir)) return
  for (const entry of readdirSync(schemaDir)) {
    const path = join(schemaDir, entry)
    if (entry.startsWith('.table=') && entry.endsWith(NEW_SUFFIX)) {
      rmSync(path, { recursive: true, force: true })
    } else if (entry.startsWith('.table=') && entry.endsWith(OLD_SUFFIX)) {
      const original = join(schemaDir, entry.slice(1, -OLD_SUFFIX.length))
      if (existsSync(original)) rmSync(path, { recursive: true, force: true })
      else renameSync(path, original)
    }
  }
}

/**
 * For a table that is gone: removes the produced files sync wrote (and its manifest), then the folder if
 * nothing else is left. Files sync did not write stay, reported as foreign.
 */
export function removeTableFolder(rootReal: string, tableDir: string): TableCommit {
  assertWritableInside(rootReal, tableDir)
  const manifest = readManifest(tableDir)
  const result: TableCommit = { changed: [], foreign: [] }
  for (const name of PRODUCED_FILES) {
    const current = readOwnable(join(tableDir, name))
    if (current === null) continue
    if (current === 'not-a-file' || manifest[name] !== sha256(current)) {
      result.foreign.push(name)
      continue
    }
    rmSync(join(tableDir, name), { force: true })
    result.changed.push(name)
  }
  rmSync(join(tableDir, SYNC_MANIFEST), { force: true })
  removeIfEmpty(tableDir)
  return result
}

export function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir)
  } catch {
    // Already gone, or not ours to remove.
  }
}
