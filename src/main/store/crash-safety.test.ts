import { spawn } from 'node:child_process'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, expect, it } from 'vitest'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { openStore, STORE_FILE } from './open-store'

const temp = makeTempDir('glassbox-crash-')
afterAll(() => temp.cleanup())

const KILL_AFTER_COMMITS = 300

/** Runs the writer until it has reported `commits` committed turns, then SIGKILLs it; returns the reported ids. */
function writeThenKill(dataDir: string, commits: number): Promise<{ ids: string[]; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crash-writer.ts'), dataDir], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const ids: string[] = []
    let pending = ''
    let stderr = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      pending += chunk
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      ids.push(...lines)
      if (ids.length >= commits) child.kill('SIGKILL')
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (_code, signal) => {
      clearTimeout(timer)
      if (signal !== 'SIGKILL') reject(new Error(`writer exited on its own (${signal ?? _code}): ${stderr}`))
      else resolve({ ids, signal })
    })
  })
}

it('keeps every committed turn and an intact file when the writer is SIGKILLed mid-write', async () => {
  const { ids, signal } = await writeThenKill(temp.dir, KILL_AFTER_COMMITS)
  expect(signal).toBe('SIGKILL')
  expect(ids.length).toBeGreaterThanOrEqual(KILL_AFTER_COMMITS)

  const raw = new Database(join(temp.dir, STORE_FILE))
  expect(raw.pragma('integrity_check', { simple: true })).toBe('ok')
  raw.close()

  const store = openStore(temp.dir)
  const stored = new Set(store.db.prepare(`SELECT id FROM messages`).pluck().all())
  expect(ids.filter((id) => !stored.has(id))).toEqual([])
  // Atomic turns: no message without its run, no run without its message.
  expect(store.db.prepare(`SELECT count(*) FROM messages WHERE run_id IS NULL`).pluck().get()).toBe(0)
  expect(
    store.db.prepare(`SELECT count(*) FROM runs WHERE id NOT IN (SELECT run_id FROM messages)`).pluck().get()
  ).toBe(0)
  store.close()
}, 30_000)
