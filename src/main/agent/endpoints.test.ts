import { describe, expect, it } from 'vitest'
import { isLoopbackUrl, kindOf, normalizeBaseUrl, serverOrigin } from './endpoints'

describe('endpoints', () => {
  it('normalises a user-given URL', () => {
    expect(normalizeBaseUrl('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434/v1')
    expect(normalizeBaseUrl(' http://localhost:8080/v1/ ')).toBe('http://localhost:8080/v1')
    expect(() => normalizeBaseUrl('ftp://x')).toThrow('must start with http:// or https://')
    expect(() => normalizeBaseUrl('localhost')).toThrow('is not a URL')
    expect(() => normalizeBaseUrl('http://me:secret@127.0.0.1:1/v1')).toThrow('user name or password')
  })

  it('finds the server root, the kind and whether it is loopback', () => {
    expect(serverOrigin('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434')
    expect(kindOf('http://127.0.0.1:1234/v1')).toBe('lmstudio')
    expect(kindOf('http://127.0.0.1:9999/v1')).toBe('custom')
    expect(isLoopbackUrl('http://127.0.0.1:8000/v1')).toBe(true)
    expect(isLoopbackUrl('http://192.168.1.4:8000/v1')).toBe(false)
  })
})
