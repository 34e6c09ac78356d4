// Issue 40's new input, `--store <url>`, read twice: by the CLI (its form, as a usage error) and by the store (the
// address the client takes, and the one shown). Whatever is given: each either accepts it or refuses it with its own
// error, never another; the password given never appears in what is shown or in a refusal; and what the CLI accepts,
// the store reads.
import fc from 'fast-check'
import { InvalidArgumentError } from 'commander'
import { describe, expect, it } from 'vitest'
import { parseStoreUrl as checkStoreFlag } from '../../src/cli/store-options.ts'
import { maskStoreUrl, parseStoreUrl as readStoreAddress } from '../../src/node/store-url.ts'

/** A password unlike anything else in a URL, so that finding it anywhere means it leaked. */
const password = fc.stringMatching(/^[A-Za-z0-9]{6,24}$/).map((text) => `Pw${text}`)
const host = fc.constantFrom('127.0.0.1', 'redis', 'redis.internal.example', '[::1]')
const storeUrls = fc.record({
  scheme: fc.constantFrom('redis', 'rediss'),
  user: fc.constantFrom('', 'default', 'app'),
  password,
  host,
  port: fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }),
  db: fc.option(fc.integer({ min: 0, max: 15 }), { nil: undefined }),
})

describe('--store <url>, whatever is given', () => {
  it('never shows the password of a URL it accepts', () => {
    fc.assert(
      fc.property(storeUrls, ({ scheme, user, password: secret, host: name, port, db }) => {
        const url = `${scheme}://${user}:${secret}@${name}${port === undefined ? '' : `:${port}`}${db === undefined ? '' : `/${db}`}`
        expect(checkStoreFlag(url)).toBe(url)
        const address = readStoreAddress(url)
        expect(address.display).not.toContain(secret)
        expect(address.display).toContain(':***@')
        expect(address.password).toBe(secret)
        expect(address.db).toBe(db ?? 0)
        expect(address.tls).toBe(scheme === 'rediss')
      }),
      { numRuns: 300 },
    )
  })

  it('refuses anything else with its own error, naming no password', () => {
    const anyText = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      password.map((secret) => `http://user:${secret}@host:6379/0`),
      password.map((secret) => `redis://user:${secret}@/0`),
      fc
        .tuple(fc.constantFrom('redis', 'rediss', 'unix'), host, fc.string({ maxLength: 8 }))
        .map(([scheme, name, rest]) => `${scheme}://${scheme === 'unix' ? '' : name}/${encodeURIComponent(rest)}`),
      fc.string({ maxLength: 6 }).map((db) => `unix:///run/redis.sock?db=${encodeURIComponent(db)}`),
    )
    fc.assert(
      fc.property(anyText, (text) => {
        const secret = /:(Pw[A-Za-z0-9]+)@/.exec(text)?.[1]
        let accepted: string | undefined
        try {
          accepted = checkStoreFlag(text)
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidArgumentError)
          if (secret !== undefined) expect((error as Error).message).not.toContain(secret)
        }
        // What the CLI lets through, the store reads: a start never fails on a form the flag's check passed.
        if (accepted !== undefined) expect(() => readStoreAddress(accepted)).not.toThrow()
        try {
          const address = readStoreAddress(text)
          if (secret !== undefined) expect(address.display).not.toContain(secret)
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError)
          if (secret !== undefined) expect((error as Error).message).not.toContain(secret)
        }
      }),
      { numRuns: 500 },
    )
  })
})

// Issue 45, Low 14: a password holding `/` made the URL unparsable, and the usage error printed it whole.
describe('a --store password with the characters URLs reserve', () => {
  /** Any printable ASCII but `%` (a raw `%` is read as the start of an escape), at least one reserved character. */
  const reserved = fc
    .tuple(
      fc.stringMatching(/^[!-$&-~]{0,16}$/),
      fc.constantFrom('/', '?', '#', '@', ':', '[', ']', ' '),
      fc.stringMatching(/^[!-$&-~]{0,16}$/),
    )
    .map(([before, special, after]) => `Pw${before}${special}${after}`)

  it('is read percent-encoded or as written, and never shown', () => {
    fc.assert(
      fc.property(reserved, fc.boolean(), host, (secret, encoded, name) => {
        const url = `redis://app:${encoded ? encodeURIComponent(secret) : secret}@${name}:6379/1`
        expect(checkStoreFlag(url)).toBe(url)
        const address = readStoreAddress(url)
        expect(address.password).toBe(secret)
        expect(address.username).toBe('app')
        expect(address.db).toBe(1)
        expect(address.display).toBe(`redis://app:***@${name}:6379/1`)
      }),
      { numRuns: 300 },
    )
  })

  it('is hidden in the refusal of a URL otherwise wrong, by the flag and by the store', async () => {
    fc.assert(
      fc.property(reserved, (secret) => {
        const url = `redis://app:${secret}@127.0.0.1:6379/not-a-db`
        expect(() => checkStoreFlag(url)).toThrow(InvalidArgumentError)
        expect(() => readStoreAddress(url)).toThrow(RangeError)
        const refusals = [() => checkStoreFlag(url), () => readStoreAddress(url)].map((read) => {
          try {
            read()
          } catch (error) {
            return (error as Error).message
          }
          return ''
        })
        for (const message of refusals) expect(message).not.toContain(secret)
        expect(maskStoreUrl(url)).toBe('redis://app:***@127.0.0.1:6379/not-a-db')
      }),
      { numRuns: 200 },
    )
  })
})
