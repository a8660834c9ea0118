import { describe, expect, it } from 'vitest'
import { capJson, capText, pythonFloat, pythonJson } from '../engines/table-content'
import { columnLine, renderPreview } from './table-markdown'

describe('pythonFloat', () => {
  it('writes floats as Python repr does', () => {
    expect([33, 0.1, -2.5, 0.0001, 0.00001, 1e16, 123456789012345.6, 1.5e-7].map(pythonFloat)).toEqual([
      '33.0',
      '0.1',
      '-2.5',
      '0.0001',
      '1e-05',
      '1e+16',
      '123456789012345.6',
      '1.5e-07'
    ])
  })

  it('writes values JSON has no number for as strings', () => {
    expect([NaN, Infinity, -Infinity].map(pythonFloat)).toEqual(['"NaN"', '"Infinity"', '"-Infinity"'])
  })
})

describe('pythonJson', () => {
  it("uses Python's separators for nested values", () => {
    expect(pythonJson({ a: [1, 2.5, null], b: { c: true } })).toBe('{"a": [1, 2.5, null], "b": {"c": true}}')
  })
})

describe('caps', () => {
  it('cuts long text and says how much was left out', () => {
    expect(capText('abcdefghij', 4)).toBe('abcd… [6 more characters]')
    expect(capText('abcd', 4)).toBe('abcd')
  })

  it('turns an over-long JSON cell into a capped string', () => {
    expect(capJson('[1, 2, 3, 4]', 5)).toBe('"[1, 2… [7 more characters]"')
  })
})

describe('renderPreview', () => {
  it('says so when the table is empty', () => {
    expect(renderPreview({ schema: 'main', table: 't', columns: [{ name: 'a', type: 'int32' }], rowCount: 0, preview: [] })).toBe(
      '# t - Preview\n\n**Dataset:** `main`\n\n## Rows (0)\n\n_The table has no rows._\n'
    )
  })
})

describe('columnLine', () => {
  it('is nao’s line when the engine says nothing more', () => {
    expect(columnLine({ name: 'id', type: 'int32' })).toBe('- id (int32)')
  })

  it('adds nullability, keys and the comment after the type, on one line', () => {
    expect(columnLine({ name: 'car_id', type: 'integer', nullable: false, references: ['cars.id'], comment: 'The car\nsold' })).toBe(
      '- car_id (integer) not null, → cars.id — The car sold'
    )
    expect(columnLine({ name: 'a', type: 'bigint', primaryKey: ['a', 'b'], unique: true })).toBe('- a (bigint) primary key (a, b), unique')
  })
})
