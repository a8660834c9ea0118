import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../support/fixtures'
import { chromiumOrSkip, findChromium } from './browser'

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function binDir(...names: string[]): string {
  const temp = makeTempDir('glassbox-bin-')
  cleanups.push(temp.cleanup)
  for (const name of names) {
    writeFileSync(join(temp.dir, name), '#!/bin/sh\n')
    chmodSync(join(temp.dir, name), 0o755)
  }
  mkdirSync(join(temp.dir, 'empty'))
  return temp.dir
}

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first', () => {
    const dir = binDir('my-chrome', 'chromium')
    expect(findChromium({ CHROMIUM_PATH: join(dir, 'my-chrome'), PATH: dir })).toBe(join(dir, 'my-chrome'))
  })

  it('then chromium, chromium-browser, google-chrome on PATH, in that order', () => {
    const first = binDir('google-chrome')
    const second = binDir('chromium-browser', 'google-chrome')
    expect(findChromium({ PATH: `${first}:${second}` })).toBe(join(second, 'chromium-browser'))
    expect(findChromium({ PATH: first })).toBe(join(first, 'google-chrome'))
  })

  it('finds nothing in a PATH without them, nor a CHROMIUM_PATH that is not executable', () => {
    const dir = binDir('firefox')
    writeFileSync(join(dir, 'chromium'), 'not executable')
    expect(findChromium({ PATH: `${dir}:${join(dir, 'empty')}` })).toBeNull()
    expect(findChromium({ CHROMIUM_PATH: join(dir, 'chromium'), PATH: '/usr/bin' })).toBeNull()
  })

  it('skips without a browser, but fails under GLASSBOX_REQUIRE_BROWSER=1', () => {
    const dir = binDir()
    expect(chromiumOrSkip({ PATH: dir })).toBeNull()
    expect(() => chromiumOrSkip({ PATH: dir, GLASSBOX_REQUIRE_BROWSER: '1' })).toThrow(/GLASSBOX_REQUIRE_BROWSER=1 but no chromium/)
  })
})
