import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/** The repo's root folder. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..')

/** The real nao example project, used by path and never modified. */
export const NAO_EXAMPLE = resolve(REPO_ROOT, '../shared/fixtures/nao-example')

/** A fresh temp folder; `cleanup` removes it. */
export function makeTempDir(prefix = 'glassbox-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** A writable copy of the nao example (its files are read-only on CI), for tests that change a project. */
export function copyNaoExample(): { dir: string; cleanup: () => void } {
  const temp = makeTempDir('glassbox-nao-')
  const dir = join(temp.dir, 'nao-example')
  cpSync(NAO_EXAMPLE, dir, { recursive: true })
  makeWritable(dir)
  return { dir, cleanup: temp.cleanup }
}

function makeWritable(path: string): void {
  const stat = statSync(path)
  chmodSync(path, stat.mode | 0o200)
  if (stat.isDirectory()) for (const entry of readdirSync(path)) makeWritable(join(path, entry))
}
