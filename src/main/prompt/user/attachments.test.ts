import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../../test/support/fixtures'
import { AttachmentError, describeAttachment, describeAttachments, formatSize, splitHeader } from './attachments'

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64'
)

let dir: string
let cleanup: () => void
beforeEach(() => ({ dir, cleanup } = makeTempDir('glassbox-attach-')))
afterEach(() => cleanup())

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

describe('describeAttachment', () => {
  it('describes a text file by size, lines and first line — never the content', async () => {
    const path = file('notes.txt', 'Revenue notes\nsecond line\nthird line\n')
    expect(await describeAttachment(path, { fileId: 'f1' })).toEqual({
      name: 'notes.txt',
      fileId: 'f1',
      type: 'text/plain',
      summary: 'Text, 37 bytes, 3 lines. First line: "Revenue notes"'
    })
  })

  it('counts a last line without a trailing newline', async () => {
    const meta = await describeAttachment(file('a.md', '# Title\nbody'))
    expect(meta.summary).toBe('Text, 12 bytes, 2 lines. First line: "# Title"')
  })

  it('lists the header columns of a CSV, honouring quotes', async () => {
    const meta = await describeAttachment(file('sales.csv', 'month,"net, EUR",region\n2025-01,10,EU\n2025-02,12,US\n'))
    expect(meta).toMatchObject({
      type: 'text/csv',
      summary: 'Table (CSV), 52 bytes, 3 lines (a header and 2 rows). Columns (3): month, net, EUR, region.'
    })
  })

  it('drops a byte-order mark and a CR from the header', async () => {
    const meta = await describeAttachment(file('bom.csv', '\uFEFFid,amount\r\n1,2\r\n'))
    expect(meta.summary).toBe('Table (CSV), 19 bytes, 2 lines (a header and 1 row). Columns (2): id, amount.')
  })

  it('lists the columns of a TSV', async () => {
    const meta = await describeAttachment(file('a.tsv', 'id\tnet, EUR\n1\t2\n'))
    expect(meta).toMatchObject({
      type: 'text/tab-separated-values',
      summary: 'Table (TSV), 16 bytes, 2 lines (a header and 1 row). Columns (2): id, net, EUR.'
    })
  })

  it('detects an image from its content, whatever its name', async () => {
    const meta = await describeAttachment(file('chart.bin', PNG))
    expect(meta).toMatchObject({ type: 'image/png', summary: 'PNG image, 68 bytes.' })
  })

  it('describes an SVG (text with an image type) as an image', async () => {
    const meta = await describeAttachment(file('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>'))
    expect(meta).toMatchObject({ type: 'image/svg+xml', summary: 'Image (image/svg+xml), 41 bytes.' })
  })

  it('keeps the optional variable fields after the summary', async () => {
    const meta = await describeAttachment(file('x.txt', 'x'), { fileId: 'f', variableId: 'v1', variableName: 'data' })
    expect(Object.keys(meta)).toEqual(['name', 'fileId', 'type', 'summary', 'variableId', 'variableName'])
  })

  it('gives a stable default fileId for the same path', async () => {
    const path = file('x.txt', 'x')
    expect((await describeAttachment(path)).fileId).toBe((await describeAttachment(path)).fileId)
  })

  it('says honestly that an empty file is empty', async () => {
    expect(await describeAttachment(file('empty.csv', ''), { fileId: 'e' })).toEqual({
      name: 'empty.csv',
      fileId: 'e',
      type: 'text/csv',
      summary: 'Empty file (0 bytes).'
    })
  })

  it('describes a binary file without showing it', async () => {
    const meta = await describeAttachment(file('blob.dat', new Uint8Array([1, 0, 2, 0, 3, 255])))
    expect(meta).toMatchObject({
      type: 'application/octet-stream',
      summary: 'Binary file, 6 bytes (application/octet-stream); its content cannot be shown as text.'
    })
  })

  it('treats text that is not UTF-8 as binary', async () => {
    const meta = await describeAttachment(file('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])))
    expect(meta.summary).toBe('Binary file, 5 bytes (text/plain); its content cannot be shown as text.')
  })

  it('describes a 200 MB file from its first 4 KB without reading it whole', async () => {
    const path = join(dir, 'huge.bin')
    writeFileSync(path, '')
    truncateSync(path, 200 * 1024 * 1024) // sparse: no 200 MB written
    const started = performance.now()
    const meta = await describeAttachment(path)
    expect(meta.summary).toBe('Binary file, 200.0 MB (application/octet-stream); its content cannot be shown as text.')
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('does not count the lines of a text file over 16 MB', async () => {
    const path = file('huge.log', 'first line\n' + 'more text\n'.repeat(1000))
    truncateSync(path, 17 * 1024 * 1024) // sparse; only the first 4 KB (all text) decide the kind
    expect((await describeAttachment(path)).summary).toBe('Text, 17.0 MB, too large to count lines. First line: "first line"')
  })

  it('refuses a missing file with a clear error', async () => {
    await expect(describeAttachment(join(dir, 'gone.csv'))).rejects.toThrow(
      new AttachmentError(join(dir, 'gone.csv'), 'the file does not exist (or is a broken link)')
    )
  })

  it('refuses a broken symbolic link like a missing file', async () => {
    const link = join(dir, 'link.csv')
    symlinkSync(join(dir, 'nowhere.csv'), link)
    await expect(describeAttachment(link)).rejects.toThrow(`Cannot attach ${link}: the file does not exist (or is a broken link)`)
  })

  it('refuses a folder with a clear error', async () => {
    const folder = join(dir, 'data')
    mkdirSync(folder)
    await expect(describeAttachment(folder)).rejects.toThrow(
      `Cannot attach ${folder}: it is a folder; attach the files inside it instead`
    )
  })
})

describe('describeAttachments', () => {
  it('describes the good files and turns the bad ones into diagnostics', async () => {
    const good = file('a.txt', 'hello')
    const missing = join(dir, 'missing.txt')
    const result = await describeAttachments([good, missing])
    expect([result.files.map((meta) => meta.name), result.diagnostics]).toEqual([
      ['a.txt'],
      [{ file: missing, problem: 'cannot be attached: the file does not exist (or is a broken link)' }]
    ])
  })
})

describe('splitHeader', () => {
  it('unescapes doubled quotes', () => {
    expect(splitHeader('"say ""hi""",b', ',')).toEqual(['say "hi"', 'b'])
  })

  it('splits on tabs for TSV', () => {
    expect(splitHeader('a\tb, c', '\t')).toEqual(['a', 'b, c'])
  })
})

describe('formatSize', () => {
  it('uses bytes, KB, MB and GB', () => {
    expect([1, 500, 2048, 5 * 1024 * 1024, 3 * 1024 ** 3].map(formatSize)).toEqual([
      '1 byte',
      '500 bytes',
      '2.0 KB',
      '5.0 MB',
      '3.0 GB'
    ])
  })
})
