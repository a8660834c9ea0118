import { describe, expect, it } from 'vitest'
import { formatCount, plural } from './format-count'

describe('formatCount', () => {
  it('writes what toLocaleString("en-US") writes, for whole numbers of every size and sign', () => {
    const values = [0, -0, 1, 12, 123, 999, 1000, 1234, 99_999, 100_000, 1_234_567, -1, -1000, -987_654_321, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1.5, 2 ** 60]
    for (let digits = 1; digits <= 16; digits++) values.push(Number('9'.repeat(digits)), Number('1' + '0'.repeat(digits - 1)))
    for (const value of values) expect(formatCount(value), String(value)).toBe(value.toLocaleString('en-US'))
  })
})

describe('plural', () => {
  it('puts the noun in the right number, the count grouped', () => {
    expect([plural(0, 'test'), plural(1, 'test'), plural(2, 'test'), plural(1234, 'table'), plural(1, 'memory', 'memories'), plural(3, 'memory', 'memories')]).toEqual([
      '0 tests',
      '1 test',
      '2 tests',
      '1,234 tables',
      '1 memory',
      '3 memories'
    ])
  })
})
