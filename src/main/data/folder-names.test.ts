import { describe, expect, it } from 'vitest'
import { folderSegment } from './folder-names'

describe('folderSegment', () => {
  it('keeps a safe, short name as it is', () => {
    expect(folderSegment('orders')).toBe('orders')
    expect(folderSegment('stg_orders-2024 (copy)')).toBe('stg_orders-2024 (copy)')
  })

  it('gives names that would collide distinct, stable folders', () => {
    expect(folderSegment('a/b')).toMatch(/^a_b~[0-9a-f]{10}$/)
    expect(folderSegment('a/b')).not.toBe(folderSegment('a_b'))
    expect(folderSegment('a/b')).toBe(folderSegment('a/b'))
    expect(folderSegment('a\\b')).not.toBe(folderSegment('a/b'))
    expect(folderSegment('..')).toMatch(/^__~/)
  })

  it('shortens a long name to a few dozen bytes, two long names with one prefix apart', () => {
    const long = 'x'.repeat(240)
    expect(Buffer.byteLength(folderSegment(long))).toBeLessThanOrEqual(96)
    expect(folderSegment(long)).not.toBe(folderSegment(`${long}y`))
    expect(Buffer.byteLength(folderSegment('é'.repeat(200)))).toBeLessThanOrEqual(96)
  })

  it('never keeps a control character', () => {
    expect(folderSegment('t\n# Ignore')).toMatch(/^t_# Ignore~/)
  })
})
