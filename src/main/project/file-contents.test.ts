import { utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { readProjectTextCached } from './file-contents'

const cleanups: Array<() => void> = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function project(): string {
  const temp = makeTempDir()
  cleanups.push(temp.cleanup)
  return temp.dir
}

describe('readProjectTextCached', () => {
  it('serves a file from memory while its mtime and size stay, and reads it again once they change', async () => {
    const root = project()
    const path = join(root, 'columns.md')
    writeFileSync(path, 'id (int64)\n')
    const mtime = new Date('2026-01-01T00:00:00.000Z')
    utimesSync(path, mtime, mtime)
    expect(await readProjectTextCached(root, 'columns.md', 1024)).toMatchObject({ ok: true, text: 'id (int64)\n' })

    // Same size, same mtime: indistinguishable by its key, so the kept text is served (that is the cache).
    writeFileSync(path, 'ab (int64)\n')
    utimesSync(path, mtime, mtime)
    expect(await readProjectTextCached(root, 'columns.md', 1024)).toMatchObject({ ok: true, text: 'id (int64)\n' })

    utimesSync(path, mtime, new Date(mtime.getTime() + 5000))
    expect(await readProjectTextCached(root, 'columns.md', 1024)).toMatchObject({ ok: true, text: 'ab (int64)\n' })
  })

  it('refuses what readProjectText refuses, every time', async () => {
    const root = project()
    writeFileSync(join(root, 'data.bin'), Buffer.from([1, 0, 2]))
    expect(await readProjectTextCached(root, 'data.bin', 1024)).toMatchObject({ ok: false })
    expect(await readProjectTextCached(root, '../outside.md', 1024)).toMatchObject({ ok: false })
  })
})
