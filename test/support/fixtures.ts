import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/** The repo's root folder. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..')

/**
 * The repo's own nao-layout project (test/fixtures/nao-layout), used by path and never modified. Its DuckDB
 * file is built by the test set-up (test/support/global-setup.ts) from a seed.
 */
export const NAO_LAYOUT = resolve(REPO_ROOT, 'test/fixtures/nao-layout')

/** The fixture's DuckDB file. */
export const NAO_LAYOUT_DATABASE = join(NAO_LAYOUT, 'jaffle_shop.duckdb')

/** A fresh temp folder; `cleanup` removes it. */
export function makeTempDir(prefix = 'glassbox-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** A writable copy of the nao-layout fixture, for tests that change a project. */
export function copyNaoLayout(): { dir: string; cleanup: () => void } {
  return copyProject(NAO_LAYOUT, 'nao-layout')
}

/** A writable copy of any project folder (a read-only source stays as it is). */
export function copyProject(source: string, name: string): { dir: string; cleanup: () => void } {
  if (source === NAO_LAYOUT && !existsSync(NAO_LAYOUT_DATABASE)) {
    throw new Error(`${NAO_LAYOUT_DATABASE} is missing: the vitest set-up builds it (run the tests through vitest).`)
  }
  const temp = makeTempDir('glassbox-project-')
  const dir = join(temp.dir, name)
  cpSync(source, dir, { recursive: true })
  makeWritable(dir)
  return { dir, cleanup: temp.cleanup }
}

function makeWritable(path: string): void {
  const stat = statSync(path)
  chmodSync(path, stat.mode | 0o200)
  if (stat.isDirectory()) for (const entry of readdirSync(path)) makeWritable(join(path, entry))
}
