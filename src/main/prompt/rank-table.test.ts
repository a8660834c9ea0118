import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { GptEncoding } from 'gpt-tokenizer/GptEncoding'
import library from 'gpt-tokenizer'
import { countingWithRankTable, encodingWithTable, RankTable, type LibraryRanks } from './rank-table'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { seededRandom } from '../seeded-random'

// The rank table must answer every vocabulary look-up as gpt-tokenizer's own encoder does, so that a count
// made with it is the library's count: checked for each of the 200,000 tokens, for bytes and texts that are
// no token, and by counting real and hostile texts both ways.

const load = createRequire(import.meta.url)
const ranks = (load('gpt-tokenizer/bpeRanks/o200k_base') as { default: LibraryRanks }).default
/** The library's own look-ups, on the encoder `gpt-tokenizer` exports. */
const libraryCore = (library as unknown as { bytePairEncodingCoreProcessor: LibraryLookups }).bytePairEncodingCoreProcessor
interface LibraryLookups {
  getBpeRankFromString(key: string): number | undefined
  getBpeRankFromBytes(key: Uint8Array): number | undefined
}

let table: RankTable
beforeAll(() => {
  table = RankTable.fromRanks(ranks)
})

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function tempFile(name: string): string {
  const temp = makeTempDir()
  cleanups.push(temp.cleanup)
  return join(temp.dir, name)
}

describe('RankTable look-ups', () => {
  it("find every token's bytes and text as the library does, the byte-order-mark tokens it never finds included", () => {
    const encoder = new TextEncoder()
    const differences: string[] = []
    let bytesTokens = 0
    ranks.forEach((token, rank) => {
      const bytes = typeof token === 'string' ? encoder.encode(token) : Uint8Array.from(token)
      const byBytes = [table.rankOfBytes(bytes), libraryCore.getBpeRankFromBytes(bytes)]
      if (byBytes[0] !== byBytes[1]) differences.push(`bytes of ${rank}: ${byBytes.join(' vs ')}`)
      if (typeof token === 'string') {
        const byText = [table.rankOfText(token), libraryCore.getBpeRankFromString(token)]
        if (byText[0] !== byText[1]) differences.push(`text of ${rank}: ${byText.join(' vs ')}`)
      } else bytesTokens++
    })
    expect(differences).toEqual([])
    expect(ranks.length).toBe(199_998)
    expect(bytesTokens).toBeGreaterThan(1000)
    // The quirk kept: valid UTF-8 kept as bytes is decoded without its byte-order mark, so never found.
    const bom = ranks.findIndex((token) => typeof token !== 'string' && token[0] === 0xef && token[1] === 0xbb && token[2] === 0xbf)
    expect(bom).toBeGreaterThan(0)
    expect(table.rankOfBytes(Uint8Array.from(ranks[bom] as number[]))).not.toBe(bom)
  }, 60_000)

  it('find nothing, or the same token, for bytes and texts that are no token: random bytes, cut characters, byte-order marks, lone surrogates', () => {
    const random = seededRandom(26)
    const byte = () => Math.floor(random() * 256)
    const differences: string[] = []
    for (let index = 0; index < 100_000; index++) {
      const length = 1 + (index % 6)
      const tail = Array.from({ length }, byte)
      const key = Uint8Array.from(index % 4 === 0 ? [0xef, 0xbb, 0xbf, ...tail] : tail)
      if (table.rankOfBytes(key) !== libraryCore.getBpeRankFromBytes(key)) differences.push(`bytes ${[...key].join(',')}`)
    }
    const texts = ['', '\uFEFF', '\uFEFFusing', '\uFEFF\uFEFF', 'a\uD800', '\uDC00', '\uD83D\uDE00', 'x'.repeat(5000), ' the', 'The', '日本', '\u0000']
    for (const text of texts) {
      if (table.rankOfText(text) !== libraryCore.getBpeRankFromString(text)) differences.push(`text ${JSON.stringify(text)}`)
    }
    for (const cut of [[0xe6, 0x97], [0xef, 0xbb, 0xbf, 0xe6], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xef, 0xbb, 0xbf]]) {
      const key = Uint8Array.from(cut)
      if (table.rankOfBytes(key) !== libraryCore.getBpeRankFromBytes(key)) differences.push(`bytes ${cut.join(',')}`)
    }
    expect(differences).toEqual([])
  })
})

describe('counting with the rank table', () => {
  it("gives the library's count for every text of the sample project, for text beyond ASCII, and for what breaks tokenizers", () => {
    const encoding = encodingWithTable(table, GptEncoding)
    expect(encoding).not.toBeNull()
    const texts = [
      ...filesUnder(join(REPO_ROOT, 'resources', 'sample-project')).map((file) => readFileSync(file, 'utf8')),
      'Ünïcödé ✓ 日本語のテキスト 🎉👩‍👩‍👧 مرحبا Ελληνικά',
      '\uFEFFusing System;\n\uFEFF\uFEFF',
      'lone \uD800 surrogate \uDC00 halves',
      'a'.repeat(3000),
      ' '.repeat(700) + '\n\n\n\t\t',
      Array.from({ length: 2000 }, (_, index) => String.fromCodePoint(0x4e00 + ((index * 7919) % 20000))).join('')
    ]
    for (const text of texts) expect(encoding?.countTokens(text)).toBe(library.countTokens(text))
    // A chat-template control token in the text is refused the same way.
    expect(() => encoding?.countTokens('say <|endoftext|>')).toThrow(/Disallowed special token/)
    expect(() => library.countTokens('say <|endoftext|>')).toThrow(/Disallowed special token/)
  })

  it('is declined (null) by a library whose encoder does not look tokens up by the methods it replaces', () => {
    const changed = { getEncodingApi: () => ({ bytePairEncodingCoreProcessor: { getBpeRankFromString() {} } }) }
    expect(encodingWithTable(table, changed as unknown as typeof GptEncoding)).toBeNull()
  })
})

describe('the rank table on disk', () => {
  it('reads back as written, for the same library version only; a damaged or cut file reads as none', () => {
    const file = tempFile('o200k.ranks')
    table.write(file, 'ranks v1', library.countTokens)
    const read = RankTable.read(file, 'ranks v1')
    expect(read).not.toBeNull()
    const encoding = read && encodingWithTable(read, GptEncoding)
    expect(encoding?.countTokens('How did revenue in the north region change last week?')).toBe(library.countTokens('How did revenue in the north region change last week?'))
    expect(countingWithRankTable(file, 'ranks v1', load)?.('How did revenue change?')).toBe(library.countTokens('How did revenue change?'))
    expect(RankTable.read(file, 'ranks v2')).toBeNull()
    expect(countingWithRankTable(file, 'ranks v2', load)).toBeNull()
    // Written from a library that counted otherwise (another version whose ranks module looks the same): not used.
    table.write(file, 'ranks v1', (text) => library.countTokens(text) + 1)
    expect(RankTable.read(file, 'ranks v1')).not.toBeNull()
    expect(countingWithRankTable(file, 'ranks v1', load)).toBeNull()
    table.write(file, 'ranks v1', library.countTokens)
    expect(RankTable.read(tempFile('none.ranks'), 'ranks v1')).toBeNull()
    const bytes = readFileSync(file)
    writeFileSync(file, bytes.subarray(0, bytes.length - 1))
    expect(RankTable.read(file, 'ranks v1')).toBeNull()
    writeFileSync(file, 'not a rank table at all')
    expect(RankTable.read(file, 'ranks v1')).toBeNull()
    // Slots damaged (none empty, ranks past the table): look-ups end, finding nothing, and the table is not used.
    table.write(file, 'ranks v1', library.countTokens)
    const damaged = readFileSync(file)
    const slotsStart = damaged.length - (damaged.readUInt32LE(16) + damaged.readUInt32LE(12) * 4)
    damaged.fill(0x7f, slotsStart, slotsStart + damaged.readUInt32LE(12) * 4)
    writeFileSync(file, damaged)
    expect(RankTable.read(file, 'ranks v1')?.rankOfText('the')).toBeUndefined()
    expect(countingWithRankTable(file, 'ranks v1', load)).toBeNull()
  })
})

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return filesUnder(path)
    return /\.(md|ya?ml|sql|csv|json|txt)$/.test(entry.name) ? [path] : []
  })
}
