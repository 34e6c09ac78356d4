import { describe, expect, it } from 'vitest'
import { createOriginPolicy } from '../../../src/core/access/origin-policy.ts'

// Pages of this machine are allowed by default; their Origin's host is read as the Host check reads it
// (host-policy.ts), so that the two agree on what loopback is.
describe('createOriginPolicy, by default', () => {
  const policy = createOriginPolicy()

  it('allows pages on loopback hosts, in the spellings a browser serialises', () => {
    for (const origin of [
      'http://localhost:5173',
      'https://LOCALHOST',
      'http://localhost.:5173',
      'http://app.localhost:3000',
      'http://127.0.0.1:8080',
      'http://127.3.2.1',
      'http://[::1]:5173',
      'http://[::ffff:7f00:1]:5173',
    ]) {
      expect(policy.allows(origin), origin).toBe(true)
    }
  })

  it('refuses other pages, names with an empty label, and what is not an http(s) origin', () => {
    for (const origin of [
      'http://a..localhost:5173',
      'http://.localhost',
      'http://localhost.evil.example',
      'http://128.0.0.1',
      'http://[::2]:5173',
      'http://[::ffff:8000:1]',
      'file://localhost',
      'http://localhost/path',
      'null',
    ]) {
      expect(policy.allows(origin), origin).toBe(false)
    }
  })

  it('allows the origins named, in any case, and every page with *', () => {
    const named = createOriginPolicy(['https://App.Example'])
    expect(named.allows('https://app.example')).toBe(true)
    expect(named.allows('https://app.example:8443')).toBe(false)
    expect(createOriginPolicy(['*']).allows('https://anything.example')).toBe(true)
  })
})
