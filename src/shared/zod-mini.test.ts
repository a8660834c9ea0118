import { describe, expect, it } from 'vitest'
import * as z from './zod-mini'

describe('zod/mini as Glassbox loads it', () => {
  it('words its messages as classic zod does, with no classic schema ever built', () => {
    const result = z.safeParse(z.object({ name: z.string().check(z.minLength(1)) }), { name: '' })
    expect(result.error && z.prettifyError(result.error)).toBe('✖ Too small: expected string to have >=1 characters\n  → at name')
  })
})
