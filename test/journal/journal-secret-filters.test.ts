import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { fingerprint } from '../../src/core/access/fingerprint.ts'
import type { ExchangeParts } from '../../src/core/journal/journal-exchange.ts'
import { createSecretScrubber } from '../../src/core/journal/journal-redaction.ts'
import { createRequestJournal, type RecordInput } from '../../src/core/journal/request-journal.ts'

// Issue 45, Low 12: `header.authorization:contains=` answered whether the token sent held a text, so a token the
// journal shows only as its fingerprint was read back a character at a time (673 counts); and a near miss cut a
// value at 80 characters before the keys in it were scrubbed, so a key straddling the cut showed its first characters.

const secret = 'sk-live-4f9a1c77e02b4d5e8a3b6c1d'

function setUp() {
  const app = createApp()
  const send = (path: string, init: RequestInit = {}) =>
    app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress: '127.0.0.1' })
  return { app, send, journal: app.simulator.journal }
}

/** Every text a prober would try: each prefix of what was sent, and each substring of 1 to 3 characters of the secret. */
function probes(sent: string): string[] {
  const found = new Set<string>()
  for (let end = 1; end <= sent.length; end++) found.add(sent.slice(0, end))
  for (let start = 0; start < secret.length; start++)
    for (let length = 1; length <= 3; length++) found.add(secret.slice(start, start + length))
  return [...found]
}

describe('a contains filter on a credential header learns nothing of the credential', () => {
  it('matches Authorization as the journal shows it (the fingerprint), whatever prefix or piece is probed', async () => {
    const { send, journal } = setUp()
    expect((await send('/v1/pets?limit=1', { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401)
    const shown = journal.entries()[0]!.request.headers.authorization!
    expect(shown).toBe(`Bearer ${fingerprint(secret)}`)
    for (const probe of probes(`Bearer ${secret}`)) {
      // The answer is what the shown value says, which a client reads anyway: the secret adds nothing.
      expect([probe, journal.count({ headers: { authorization: { contains: probe } } })]).toEqual([probe, shown.includes(probe) ? 1 : 0])
    }
    expect(journal.count({ headers: { authorization: { contains: fingerprint(secret) } } })).toBe(1)
    // The whole value is still matched as sent: a test names the credential it sent.
    expect(journal.count({ headers: { authorization: `Bearer ${secret}` } })).toBe(1)
  })

  it('over HTTP too, and for a header named like a credential', async () => {
    const { send } = setUp()
    await send('/v1/pets?limit=1', { headers: { authorization: 'Bearer demo-pro-key', 'x-api-key': secret } })
    const count = async (query: string) => ((await (await send(`/__sim/requests/count?${query}`)).json()) as { count: number }).count
    expect(await count(`header.x-api-key:contains=${secret.slice(0, 3)}`)).toBe(0)
    expect(await count(`header.x-api-key:contains=${encodeURIComponent('[redacted]')}`)).toBe(1)
    expect(await count(`header.x-api-key=${secret}`)).toBe(1)
    expect(await count(`header.authorization:contains=demo-pro`)).toBe(1)
  })

  it('a path filter with a query matches a credential-named parameter as shown, [redacted]', async () => {
    const { send, journal } = setUp()
    await send(`/v1/pets?limit=1&api_key=${secret}`, { headers: { authorization: 'Bearer demo-pro-key' } })
    expect(journal.count({ path: `/v1/pets?limit=1&api_key=${secret.slice(0, 1)}*` })).toBe(0)
    expect(journal.count({ path: `/v1/pets?limit=1&api_key=${secret}` })).toBe(0)
    expect(journal.count({ path: '/v1/pets?limit=1&api_key=[redacted]' })).toBe(1)
    expect(journal.count({ path: '/v1/pets?*' })).toBe(1)
  })

  it('a path filter matches a key in force in the path as shown, its label', async () => {
    const app = createApp({ keys: { [secret]: 'pro' } })
    await app.fetch(new Request(`http://127.0.0.1:4010/v1/pets/${secret}`, { headers: { authorization: `Bearer ${secret}` } }), {
      clientAddress: '127.0.0.1',
    })
    const { journal } = app.simulator
    expect(journal.entries()[0]!.path).toBe(`/v1/pets/${fingerprint(secret)}`)
    const shown = journal.entries()[0]!.path
    for (const probe of probes(secret)) {
      const expected = shown.startsWith(`/v1/pets/${probe}`) ? 1 : 0
      expect([probe, journal.count({ path: `/v1/pets/${probe}*` })]).toEqual([probe, expected])
    }
    expect(journal.count({ path: `/v1/pets/${fingerprint(secret)}` })).toBe(1)
    expect(journal.count({ path: `/v1/pets/${fingerprint(secret)}?*` })).toBe(0)
    expect(journal.count({ path: '/v1/pets/*' })).toBe(1)
  })
})

function input(body: string): RecordInput {
  const exchange: ExchangeParts = {
    rawHeaders: ['Content-Type', 'application/json'],
    requestBody: new TextEncoder().encode(body),
    responseHeaders: {},
    responseBody: undefined,
  }
  return {
    atMs: 0,
    method: 'POST',
    path: '/v1/pets',
    status: 201,
    operation: 'createPet',
    caller: 'anonymous',
    plan: 'anonymous',
    durationMs: 1,
    exchange,
  }
}

describe('a near miss scrubs a key before it cuts the value it is in', () => {
  it.each([60, 70, 75, 79])('a key starting at character %i of the value, across the cut at 80', async (at) => {
    const journal = createRequestJournal({ scrub: createSecretScrubber([secret]) })
    // `"` then `at - 1` characters, then the key: it starts at `at` in the value's JSON text.
    journal.record(input(JSON.stringify({ name: 'Rex', note: `${'n'.repeat(at - 1)}${secret}` })))
    const error: Error = await journal.waitFor({ bodyFields: { note: 'other' } }, { timeoutMs: 0 }).catch((caught) => caught)
    expect(error.message).toContain('differs in body.note: sent "nnnn')
    for (let length = 6; length <= secret.length; length++) expect(error.message).not.toContain(secret.slice(0, length))
  })
})
