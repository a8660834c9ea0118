import { describe, expect, it } from 'vitest'
import { resolveDataDir } from './data-dir'

describe('resolveDataDir', () => {
  it('prefers the explicit folder', () => {
    expect(resolveDataDir('/tmp/x', { GLASSBOX_DATA_DIR: '/tmp/y' })).toBe('/tmp/x')
  })
  it('falls back to GLASSBOX_DATA_DIR', () => {
    expect(resolveDataDir(undefined, { GLASSBOX_DATA_DIR: '/tmp/y' })).toBe('/tmp/y')
  })
  it('ends in the app folder otherwise', () => {
    expect(resolveDataDir(undefined, {})).toMatch(/Glassbox$/)
  })
})
