import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { main } from '../cli'
import { STORE_FILE } from '../store'
import { run } from './memory-command'

let temp: { dir: string; cleanup: () => void }
let dataDir: string
let project: string
let out: string
let err: string
const io = { stdout: (text: string) => void (out += text), stderr: (text: string) => void (err += text) }

beforeEach(() => {
  temp = makeTempDir('glassbox-memory-cli-')
  dataDir = join(temp.dir, 'data')
  project = join(temp.dir, 'shop')
  mkdirSync(project)
  out = ''
  err = ''
})
afterEach(() => temp.cleanup())

/** Runs through the real dispatcher, as `glassbox memory …` does, so errors come out as one stderr line. */
async function memory(...args: string[]): Promise<number> {
  out = ''
  err = ''
  return main(['memory', ...args, '--project', project, '--data-dir', dataDir], io)
}

async function jsonOf(...args: string[]): Promise<unknown> {
  expect(await memory(...args, '--json')).toBe(0)
  expect(out.indexOf('\n')).toBe(out.length - 1)
  return JSON.parse(out)
}

it('adds, lists, edits, disables, enables and deletes memories', async () => {
  expect(await jsonOf('add', '--category', 'global_rule', 'Always show revenue', 'in EUR')).toMatchObject({
    id: 1,
    category: 'global_rule',
    content: 'Always show revenue in EUR.',
    enabled: true,
    supersededBy: null,
    chatId: null
  })
  expect(await memory('add', '--category', 'personal_fact', 'The user leads the growth team.')).toBe(0)
  expect(out).toBe('Added #2  personal_fact  The user leads the growth team.\n')

  expect(await jsonOf('edit', '1', 'Always show revenue in USD')).toMatchObject({ id: 1, content: 'Always show revenue in USD.' })
  expect(await jsonOf('disable', '2')).toMatchObject({ id: 2, enabled: false })

  expect(await memory('list')).toBe(0)
  expect(out).toBe(
    `Memory is on for ${project}\n` +
      '#2  personal_fact  The user leads the growth team.  [disabled]\n' +
      '#1  global_rule    Always show revenue in USD.\n'
  )
  expect(await jsonOf('enable', '2')).toMatchObject({ id: 2, enabled: true })
  expect(await jsonOf('delete', '1')).toEqual({ deleted: 1 })
  expect(await jsonOf('list')).toMatchObject([{ id: 2 }])
})

it('turns memory off and on for the project', async () => {
  expect(await jsonOf('off')).toEqual({ memoryEnabled: false })
  expect(await memory('list')).toBe(0)
  expect(out).toBe(`Memory is off for ${project}\n(no memories)\n`)
  expect(await jsonOf('on')).toEqual({ memoryEnabled: true })
})

it('identifies the project by its real path, so a symlink sees the same memories', async () => {
  await memory('add', '--category', 'global_rule', 'Always EUR')
  const link = join(temp.dir, 'link')
  symlinkSync(project, link)
  out = ''
  expect(await main(['memory', 'list', '--project', link, '--data-dir', dataDir, '--json'], io)).toBe(0)
  expect(JSON.parse(out)).toMatchObject([{ content: 'Always EUR.' }])
})

it('keeps projects apart: an id from another project is unknown here', async () => {
  await memory('add', '--category', 'global_rule', 'Always EUR')
  const other = join(temp.dir, 'other')
  mkdirSync(other)
  expect(await main(['memory', 'delete', '1', '--project', other, '--data-dir', dataDir], io)).toBe(1)
  expect(err).toBe(`glassbox memory: no memory #1 in project ${other}\n`)
})

it.each([
  [['delete', '42'], /^glassbox memory: no memory #42 in project .*\n$/],
  [['edit', '42', 'x'], /^glassbox memory: no memory #42 in project /],
  [['disable', 'abc'], /^glassbox memory: memory id must be a positive whole number, got 'abc'\n$/],
  [['delete'], /^glassbox memory: missing memory id; usage: memory list/],
  [['add', '--category', 'rule', 'x'], /^glassbox memory: unknown category 'rule': use global_rule or personal_fact\n$/],
  [['add', 'x'], /^glassbox memory: missing --category/],
  [['add', '--category', 'global_rule', '   '], /^glassbox memory: missing memory text/],
  [['forget'], /^glassbox memory: unknown action 'forget'/],
  [['list', '--colour'], /^glassbox memory: Unknown option '--colour'/]
])('rejects %j with one clear line', async (args, message) => {
  expect(await memory(...args)).toBe(1)
  expect(err).toMatch(message)
  expect(err.trim().split('\n')).toHaveLength(1)
})

it('requires --project, and an existing folder', async () => {
  expect(await main(['memory', 'list', '--data-dir', dataDir], io)).toBe(1)
  expect(err).toMatch(/^glassbox memory: missing --project DIR/)
  err = ''
  expect(await main(['memory', 'list', '--project', join(temp.dir, 'nope'), '--data-dir', dataDir], io)).toBe(1)
  expect(err).toBe(`glassbox memory: project folder not found: ${join(temp.dir, 'nope')}\n`)
})

it('reports a store from a newer Glassbox in one line, without touching it', async () => {
  await memory('list')
  const raw = new Database(join(dataDir, STORE_FILE))
  raw.pragma('user_version = 990')
  raw.close()
  expect(await memory('list')).toBe(1)
  expect(err).toMatch(/^glassbox memory: .*glassbox\.sqlite has schema version 990, but this Glassbox only knows up to \d+/)
})

it('can be called directly with run()', async () => {
  expect(await run(['add', '--category', 'personal_fact', 'Works in Berlin', '--project', project, '--data-dir', dataDir, '--json'], io)).toBe(0)
  expect(JSON.parse(out)).toMatchObject({ content: 'Works in Berlin.' })
})
