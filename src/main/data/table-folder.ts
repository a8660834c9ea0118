import { cpSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

// Writes one table folder so that an interrupted sync leaves it old or new, never a mix: the new folder is
// built beside the old one (its generated files, plus hard links to every file sync does not produce, such
// as annotations.md) and then swapped in with two renames. A crash between the renames leaves the old folder
// under a recovery name, which `recoverTableFolders` puts back before the next sync.

/** Files sync writes in a table folder; nothing else in it is ever changed. */
export const PRODUCED_FILES = ['columns.md', 'description.md', 'preview.md'] as const

const NEW_SUFFIX = '.glassbox-new'
const OLD_SUFFIX = '.glassbox-old'

/** Where a failure can be injected in tests, to show each table stays old-or-new. */
export type CommitStep = 'file-written' | 'before-swap' | 'old-moved-aside'
export type CommitProbe = (step: CommitStep, table: string) => void

/**
 * Makes `tableDir` hold exactly `files` among the produced files, keeping every other entry.
 * Returns false when nothing had to change (no write, so file watchers see nothing).
 */
export function commitTableFolder(tableDir: string, files: Map<string, string>, probe?: CommitProbe): boolean {
  if (isUpToDate(tableDir, files)) return false
  const label = basename(tableDir)
  const parent = dirname(tableDir)
  const staging = join(parent, `.${label}${NEW_SUFFIX}`)
  const aside = join(parent, `.${label}${OLD_SUFFIX}`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  try {
    for (const [name, text] of files) {
      writeFileSync(join(staging, name), text)
      probe?.('file-written', label)
    }
    const existed = existsSync(tableDir)
    if (existed) keepForeignEntries(tableDir, staging)
    probe?.('before-swap', label)
    if (!existed) {
      renameSync(staging, tableDir)
      return true
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
    return true
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

function isUpToDate(tableDir: string, files: Map<string, string>): boolean {
  if (!existsSync(tableDir)) return false
  for (const name of PRODUCED_FILES) {
    const path = join(tableDir, name)
    const wanted = files.get(name)
    const present = existsSync(path)
    if (wanted === undefined ? present : !present || readFileSync(path, 'utf8') !== wanted) return false
  }
  return true
}

function keepForeignEntries(from: string, to: string): void {
  for (const entry of readdirSync(from)) {
    if (isProduced(entry)) continue
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

function isProduced(name: string): boolean {
  return PRODUCED_FILES.some((file) => file === name)
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

/** Removes the produced files of a table that is gone, then the folder if nothing else is left in it. */
export function removeTableFolder(tableDir: string): void {
  for (const name of PRODUCED_FILES) rmSync(join(tableDir, name), { force: true })
  removeIfEmpty(tableDir)
}

export function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir)
  } catch {
    // Already gone, or not ours to remove.
  }
}
