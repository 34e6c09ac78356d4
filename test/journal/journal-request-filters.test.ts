import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { defaults } from '../../src/core/defaults.ts'
import type { JournalFilter } from '../../src/core/journal/journal-filter.ts'
import { createManualClock } from '../../src/core/time/clock.ts'

// Issue 41: the journal's filters on what a request carried (its JSON body, a field of it by path, its headers, its
// query), in-process and over HTTP, and what a wait that missed says. The dashboard's box is in dashboard-script.test.ts.

function setUp() {
  const app = createApp({ clock: createManualClock('2030-06-15T10:00:30Z') })
  const send = (path: string, init: RequestInit = {}) =>
    app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress: '127.0.0.1' })
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    send('/v1/pets', {
      method: 'POST',
      headers: { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }).then((response) => response.text())
  return { app, send, post, journal: app.simulator.journal }
}

/** A journal holding: #1 Rex (pending, tagged), #2 Rexx, #3 a list with a query, #4 a body that is not JSON. */
async function recorded() {
  const context = setUp()
  await context.post({ name: 'Rex', categoryId: 1, status: 'pending' }, { 'X-Correlation-Id': 'corr-1', 'x-api-key': 'sekrit-api-key' })
  await context.post({ name: 'Rexx', categoryId: 2 }, { 'x-correlation-id': 'corr-2' })
  await context.send('/v1/pets?limit=5&status=available', {
    headers: { authorization: 'Bearer demo-pro-key', 'x-correlation-id': 'list-3' },
  })
  await context.post('not json', { 'x-correlation-id': 'corr-4' })
  return context
}

const sequences = (entries: ReadonlyArray<{ sequence: number }>) => entries.map((entry) => entry.sequence)

describe('journal filters on the body, headers and query, in-process', () => {
  it.each<[string, JournalFilter, number[]]>([
    ['a body subset', { body: { name: 'Rex' } }, [1]],
    ['a body subset of two fields', { body: { name: 'Rex', status: 'pending' } }, [1]],
    ['a body subset that differs in one field', { body: { name: 'Rex', status: 'sold' } }, []],
    ['a body field by path', { bodyFields: { name: 'Rexx' } }, [2]],
    ['a number field, as a number or its text', { bodyFields: { categoryId: 2 } }, [2]],
    ['a number field as text', { bodyFields: { categoryId: '1' } }, [1]],
    ['a field no body has', { bodyFields: { 'tags[0]': 'x' } }, []],
    ['a header, its name in any case', { headers: { 'x-CORRELATION-id': 'corr-2' } }, [2]],
    ['a header that contains', { headers: { 'x-correlation-id': { contains: 'corr' } } }, [1, 2, 4]],
    ['a header present', { headers: { 'x-api-key': { present: true } } }, [1]],
    ['a header absent', { headers: { 'x-api-key': { present: false } }, operation: 'createPet' }, [2, 4]],
    ['a credential header, matched as sent', { headers: { 'x-api-key': 'sekrit-api-key' } }, [1]],
    ['a query parameter', { query: { limit: '5' } }, [3]],
    ['a query parameter that differs', { query: { limit: '6' } }, []],
    ['all at once (AND)', { body: { categoryId: 1 }, bodyFields: { status: 'pending' }, headers: { 'x-correlation-id': 'corr-1' } }, [1]],
  ])('%s', async (_name, filter, expected) => {
    const { journal } = await recorded()
    expect(sequences(journal.find(filter))).toEqual(expected)
    expect(journal.count(filter)).toBe(expected.length)
    expect(journal.toHar(filter).log.entries).toHaveLength(expected.length)
  })

  it('waits for a request by its body and header', async () => {
    const { journal, post } = setUp()
    const waiting = journal.waitFor({ bodyFields: { name: 'Rex' }, headers: { 'x-correlation-id': 'corr-1' } }, { timeoutMs: 2000 })
    await post({ name: 'Rex', categoryId: 1 }, { 'x-correlation-id': 'other' })
    await post({ name: 'Rex', categoryId: 1 }, { 'x-correlation-id': 'corr-1' })
    expect((await waiting).sequence).toBe(2)
  })

  it('names what the nearest request sent instead, and never the Authorization it was asked for', async () => {
    const { journal } = await recorded()
    const filter = {
      operation: 'createPet',
      bodyFields: { name: 'Rex', 'owner.name': 'Ann' },
      headers: { authorization: 'Bearer a-secret-key' },
    } as const
    const error: Error = await journal.waitFor({ ...filter, since: 2 }, { timeoutMs: 0 }).catch((caught) => caught)
    expect(error.message).toContain(
      '(differs in body.name: sent "Rexx", body.owner.name: sent no such field, header.authorization: sent "Bearer demo-pro-key")',
    )
    expect(error.message).toContain('body.name: sent no JSON body')
    expect(error.message).not.toContain('a-secret-key')
    const withKey: Error = await journal
      .waitFor({ headers: { 'x-api-key': 'wrong' }, until: 1 }, { timeoutMs: 0 })
      .catch((caught) => caught)
    expect(withKey.message).toContain('header.x-api-key: sent "[redacted]"')
    expect(withKey.message).toContain('"headers":{"x-api-key":"[redacted]"}')
    expect(withKey.message).not.toContain('sekrit-api-key')
  })

  it('exports the pact interactions a body filter takes', async () => {
    const { journal } = await recorded()
    expect(journal.toPact({ filter: { bodyFields: { name: 'Rex' } } }).interactions).toHaveLength(1)
    expect(journal.toPact({ filter: { bodyFields: { name: 'Nobody' } } }).interactions).toHaveLength(0)
  })

  it.each<[string, JournalFilter, RegExp]>([
    ['a bad path', { bodyFields: { 'tags[x]': 1 } }, /index is \[n\]/],
    ['a deep path', { bodyFields: { [Array(20).fill('a').join('.')]: 1 } }, /at most 16 steps/],
    ['a long value', { headers: { 'x-id': 'v'.repeat(9000) } }, /at most 8192 characters/],
    ['a deep body', { body: JSON.parse(`${'['.repeat(20)}${']'.repeat(20)}`) }, /nests at most 16 deep/],
    ['too many filters', { query: Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`q${index}`, '1'])) }, /At most 32/],
    ['a header name that is not one', { headers: { 'x id': 'v' } }, /is not a header name/],
    ['a header match that is not one', { headers: { 'x-id': { equals: 'v' } as never } }, /must be a string, \{ contains/],
    ['a body field that is an object', { bodyFields: { name: { first: 'R' } as never } }, /string, number, boolean or null/],
  ])('refuses %s with a RangeError', async (_name, filter, message) => {
    const { journal } = await recorded()
    expect(() => journal.find(filter)).toThrow(RangeError)
    expect(() => journal.find(filter)).toThrow(message)
  })
})

describe('journal filters on the body, headers and query, over HTTP', () => {
  it.each([
    ['body.name=Rex', [1]],
    [`body=${encodeURIComponent('{"name":"Rex","status":"pending"}')}`, [1]],
    ['body.categoryId=2', [2]],
    ['header.x-correlation-id=corr-2', [2]],
    ['header.X-Correlation-Id:contains=corr', [1, 2, 4]],
    ['header.x-api-key:present=true', [1]],
    ['query.limit=5', [3]],
    ['query.limit=5&header.x-correlation-id=list-3&operation=listPets', [3]],
  ])('GET /__sim/requests?%s', async (query, expected) => {
    const { send } = await recorded()
    const page = await (await send(`/__sim/requests?${query}`)).json()
    expect(sequences(page.requests)).toEqual(expected)
    expect((await (await send(`/__sim/requests/count?${query}`)).json()).count).toBe(expected.length)
    const wait = await send(`/__sim/requests/wait?${query}&timeoutMs=0`)
    expect(wait.status).toBe(expected.length > 0 ? 200 : 404)
    if (expected.length > 0) expect((await wait.json()).request.sequence).toBe(expected[0])
    const har = await (await send(`/__sim/requests.har?${query}`)).json()
    expect(har.log.entries).toHaveLength(expected.length)
  })

  it('answers a wait that missed with what was sent instead, the Authorization asked for redacted', async () => {
    const { send } = await recorded()
    const response = await send(
      `/__sim/requests/wait?operation=createPet&body.name=Rex&header.authorization=${encodeURIComponent('Bearer hidden-key')}&since=2&timeoutMs=0`,
    )
    expect(response.status).toBe(404)
    const { code, message } = await response.json()
    expect(code).toBe('request_not_seen')
    expect(message).toContain('(differs in body.name: sent "Rexx", header.authorization: sent "Bearer demo-pro-key")')
    expect(message).not.toContain('hidden-key')
  })

  it('keeps the body and header filters in the next page', async () => {
    const { send, post } = setUp()
    const big = 'x'.repeat(60 * 1024)
    for (let index = 0; index < 40; index++) await post({ name: index % 2 === 0 ? 'Rex' : 'Max', note: big }, { 'x-id': 'a' })
    const first = await (await send('/__sim/requests?body.name=Rex&header.x-id=a')).json()
    expect(first.next).toContain('body.name=Rex')
    expect(first.next).toContain('header.x-id=a')
    const second = await (await send(first.next)).json()
    const all = [...first.requests, ...second.requests]
    expect(all.every((entry: { request: { body: { text: string } } }) => entry.request.body.text.includes('"name":"Rex"'))).toBe(true)
    expect(defaults.journalPageBytes).toBeGreaterThan(0)
  })

  it.each([
    ['a bad index', 'body.tags[x]=1', /index is \[n\]/],
    ['a body that is not JSON', 'body={"name"', /body must be JSON/],
    ['a header match that is not one', 'header.x-id:equals=1', /a header filter is header.<name>=value/],
    ['a present that is not a boolean', 'header.x-id:present=yes', /header.<name>:present=true\|false/],
    ['a header twice, in two cases', 'header.x-id=1&header.X-ID:contains=1', /header.x-id is given more than once/],
    ['a header name with a space', 'header.x%20id=1', /is not a header name/],
    ['a 16 KiB value', `body.name=${'a'.repeat(16 * 1024)}`, /at most 8192 characters/],
    ['a body 20 deep', `body=${encodeURIComponent(`${'['.repeat(20)}${']'.repeat(20)}`)}`, /nests at most 16 deep/],
    ['40 filters', Array.from({ length: 40 }, (_, index) => `query.q${index}=1`).join('&'), /At most 32 body, header and query filters/],
  ])('answers %s with a 400 invalid_query_parameter', async (_name, query, message) => {
    const { send } = setUp()
    for (const path of ['/__sim/requests', '/__sim/requests/count', '/__sim/requests/wait', '/__sim/requests.har']) {
      const response = await send(`${path}?${query}`)
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body.code).toBe('invalid_query_parameter')
      expect(body.message).toMatch(message)
      expect(body.message.length).toBeLessThan(1000)
    }
  })
})
