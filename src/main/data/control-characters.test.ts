import { describe, expect, it } from 'vitest'
import { escapeControlCharacters } from './control-characters'

describe('escapeControlCharacters', () => {
  it('makes newlines, carriage returns and escapes visible', () => {
    expect(escapeControlCharacters('a\nb\rc\u001b[2J\u2028')).toBe('a\\nb\\rc\\u001b[2J\\u2028')
  })
})
