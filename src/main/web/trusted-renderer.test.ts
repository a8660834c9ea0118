import { describe, expect, it } from 'vitest'
import { isTrustedRendererUrl } from './trusted-renderer'

const index = '/opt/glassbox/out/renderer/index.html'

describe('isTrustedRendererUrl', () => {
  it('accepts the built renderer file, with a hash or query', () => {
    expect(isTrustedRendererUrl('file:///opt/glassbox/out/renderer/index.html', index, undefined)).toBe(true)
    expect(isTrustedRendererUrl('file:///opt/glassbox/out/renderer/index.html#chat', index, undefined)).toBe(true)
  })

  it('refuses another local file', () => {
    expect(isTrustedRendererUrl('file:///tmp/evil.html', index, undefined)).toBe(false)
  })

  it('accepts the dev server only when one is configured', () => {
    expect(isTrustedRendererUrl('http://localhost:5173/', index, 'http://localhost:5173')).toBe(true)
    expect(isTrustedRendererUrl('http://localhost:5173/', index, undefined)).toBe(false)
  })

  it('refuses a look-alike origin of the dev server', () => {
    expect(isTrustedRendererUrl('http://localhost:51730/', index, 'http://localhost:5173')).toBe(false)
    expect(isTrustedRendererUrl('http://localhost:5173.evil.example/', index, 'http://localhost:5173')).toBe(false)
  })

  it('refuses a frame without a URL', () => {
    expect(isTrustedRendererUrl('', index, 'http://localhost:5173')).toBe(false)
  })
})
