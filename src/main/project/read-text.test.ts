import { describe, expect, it } from 'vitest'
import { decodeUtf8, describeCut } from './read-text'

describe('decodeUtf8', () => {
  it('drops a character cut in half at the cap instead of refusing the file', () => {
    const bytes = Buffer.from('café', 'utf8').subarray(0, 4) // 'caf' + the first byte of 'é'
    expect(decodeUtf8(bytes, true)).toEqual({ ok: true, text: 'caf' })
  })

  it('refuses the same bytes when the file was read whole', () => {
    expect(decodeUtf8(Buffer.from('café', 'utf8').subarray(0, 4), false)).toMatchObject({ ok: false })
  })

  it('strips a byte-order mark', () => {
    expect(decodeUtf8(Buffer.from('\uFEFFrules', 'utf8'), false)).toEqual({ ok: true, text: 'rules' })
  })

  it('refuses NUL bytes as binary', () => {
    expect(decodeUtf8(Buffer.from([0x61, 0x00, 0x62]), false)).toEqual({ ok: false, problem: 'looks binary (contains NUL bytes); skipped' })
  })
})

describe('describeCut', () => {
  it('says how big the file is and how much was read', () => {
    expect(describeCut(5 * 1024 * 1024, 1024 * 1024)).toBe('is 5.0 MB; only the first 1.0 MB was read (size limit)')
  })
})
