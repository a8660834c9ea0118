import { describe, expect, it, vi } from 'vitest'
import { derivedFromCode, fileBesideBuild } from './build-cache'

describe('derivedFromCode outside the bundled command line', () => {
  it('derives the value every time: there is no cache to keep it (the code may have changed since)', () => {
    const derive = vi.fn(() => ({ type: 'object' }))
    expect(derivedFromCode('tool-parameters:read', derive)).toEqual({ type: 'object' })
    expect(derivedFromCode('tool-parameters:read', derive)).toEqual({ type: 'object' })
    expect(derive).toHaveBeenCalledTimes(2)
  })
})

describe('fileBesideBuild outside the bundled command line', () => {
  it('is null: there is no build to keep a file beside', () => {
    expect(fileBesideBuild('o200k.ranks')).toBeNull()
  })
})
