import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { errorCatalogue } from '../../src/core/http/error-catalogue.ts'
import { defaults } from '../../src/core/defaults.ts'
import { compileGlob, journalFilterNames, type GlobMeter, type JournalFilter } from '../../src/core/journal/journal-filter.ts'
import { compileContains } from '../../src/core/journal/text-search.ts'
import type { JournalEntry } from '../../src/core/journal/request-journal.ts'
import { createManualClock } from '../../src/core/time/clock.ts'

// Every control endpoint that reads journal filters, with every filter, under generated queries (issue #26): no
// crash, no 5xx but the documented ones, an Error body from the catalogue for every refusal, and bounds that are
// counted, never timed: the steps of every path glob, the bytes of a page. Fixed seed, bounded runs: `npm test` stays
// fast. The journal holds requests shaped to hurt: a 4 KB path, names that are Object.prototype's, 404s and 405s.

const runs = { seed: 2611, numRuns: 150 }
const app = createApp({ clock: createManualClock('2030-06-15T10:00:30Z') })
const send = (path: string, init: RequestInit = {}) =>
  app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress: '127.0.0.1' })
const longPath = `/v1/${'a'.repeat(4092)}`

beforeAll(async () => {
  const key = { authorization: 'Bearer demo-pro-key' }
  const requests: Array<[string, RequestInit]> = [
    ['/v1/pets?limit=2', { headers: key }],
    [
      '/v1/pets?constructor=1&__proto__=2&toString=3',
      {
        headers: [
          ['authorization', 'Bearer demo-pro-key'],
          ['__proto__', 'x'],
        ],
      },
    ],
    ['/v1/pets/1', { headers: key }],
    ['/v1/pets/1', { method: 'PATCH', headers: key }],
    ['/v1/pets', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' }],
    ['/v1/pets', { method: 'POST', headers: { authorization: 'Bearer not-a-key' } }],
    [longPath, { headers: key }],
    [`${longPath}?${'a'.repeat(2000)}=1`, {}],
    [
      '/v1/pets?limit=5',
      {
        method: 'POST',
        headers: { ...key, 'content-type': 'application/json', 'x-correlation-id': 'abc-123' },
        body: '{"__proto__":{"a":1},"name":"Rexx","categoryId":2,"tags":["a","b"],"owner":{"name":"Ann"}}',
      },
    ],
    ['/v1/pets', { method: 'POST', headers: { ...key, 'content-type': 'application/json', 'x-correlation-id': 'a' }, body: 'not json' }],
  ]
  for (const [path, init] of requests) await (await send(path, init)).arrayBuffer()
})

/** Values a filter may be given: good ones, near misses, pathological globs, and anything at all. */
const filterValue = fc.oneof(
  fc.constantFrom('listPets', 'createPet', 'getPet', 'routeNotFound', 'methodNotAllowed', 'createPets', 'LISTPETS'),
  fc.constantFrom('get', 'POST', 'patch', 'FETCH', 'PROPFIND', ''),
  fc.constantFrom('401', '4xx', '0', '2XX', '600', '1e2', ' 404 ', '-1', '00'),
  fc.constantFrom('demo-pro-key', 'anonymous', 'key#00000000', 'not-a-key'),
  fc.nat({ max: 20 }).map(String),
  fc.constantFrom('1.5', '9007199254740993', '1'.repeat(20)),
  fc.constantFrom('*', '/v1/*', '/v*', '*/1', 'pets', '/pets/*', '/v1/pets?*', '*__proto__*', '/v1?', '/v10/*'),
  fc.integer({ min: 1, max: 2000 }).map((count) => `/v1/${'*a'.repeat(count)}*!`),
  fc.integer({ min: 1, max: 4000 }).map((count) => `*${'a'.repeat(count)}b`),
  fc.string({ unit: fc.constantFrom('*', 'a', '/', '?', '=', '1', 'v'), maxLength: 40 }).map((text) => `/v1${text}`),
  fc.string({ unit: 'binary', maxLength: 30 }),
  // Issue 41's: bodies as JSON (good, broken, hostile), field values, header values and query values.
  fc.constantFrom('{"name":"Rex"}', '{"name":"Rexx","tags":["a","b"]}', '[1,2]', 'true', '{', '{"__proto__":{"a":1}}', '"Rex"', 'null'),
  fc.constantFrom('Rex', 'Rexx', 'abc-123', 'abc', 'true', 'false', 'Bearer demo-pro-key', '2', 'a'),
  fc.integer({ min: 1, max: 20 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 1, max: 16 * 1024 }).map((count) => 'a'.repeat(count)),
)

/** Query parameters: the filter's names (repeated at times), the wait's `timeoutMs` and names of no filter. */
const queryParameters = fc.array(
  fc.tuple(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...journalFilterNames) },
      { weight: 1, arbitrary: fc.constantFrom('bogus', 'constructor', '__proto__', 'toString', 'timeoutms', '') },
      {
        weight: 4,
        arbitrary: fc.oneof(
          fc.constantFrom('body', 'body.name', 'body.tags[1]', 'body.owner.name', 'body.__proto__', 'body.constructor', 'body.a..b'),
          fc.constantFrom('body.tags[', 'body.[0]', 'header.x-correlation-id', 'header.Authorization:contains', 'header.x-id:present'),
          fc.constantFrom('header.x:bogus', 'header.', 'header.__proto__', 'query.limit', 'query.__proto__', 'query.', 'body.'),
          fc.string({ unit: fc.constantFrom('a', '.', '[', ']', '0', ':'), maxLength: 20 }).map((path) => `body.${path}`),
        ),
      },
    ),
    filterValue,
  ),
  { maxLength: 5 },
)

const endpoints = ['/__sim/requests', '/__sim/requests/count', '/__sim/requests/wait', '/__sim/requests.har', '/__sim/events']

/** The statuses each endpoint may answer with these queries: the documented ones. */
const allowed: Record<string, readonly number[]> = {
  '/__sim/requests': [200, 400],
  '/__sim/requests/count': [200, 400],
  '/__sim/requests/wait': [200, 400, 404, 503],
  '/__sim/requests.har': [200, 400],
  '/__sim/events': [200, 503],
}

describe('the journal endpoints under generated filters', () => {
  it('answer every query with a documented status, and every refusal with an Error body of the catalogue', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints),
        queryParameters,
        fc.constantFrom('0', '', 'x', '60001'),
        async (endpoint, parameters, timeoutMs) => {
          const query = new URLSearchParams(parameters)
          // A wait waits at most 0 ms here: a valid timeout is 0, the others are refused.
          if (endpoint === '/__sim/requests/wait') query.append('timeoutMs', timeoutMs)
          const response = await send(`${endpoint}?${query}`)
          expect(allowed[endpoint]).toContain(response.status)
          if (endpoint === '/__sim/events' && response.status === 200) {
            await response.body?.cancel()
            return
          }
          const text = await response.text()
          const body = JSON.parse(text)
          if (response.status >= 400) {
            expect(Object.keys(errorCatalogue)).toContain(body.code)
            expect(errorCatalogue[body.code as keyof typeof errorCatalogue].status).toBe(response.status)
            expect(typeof body.message).toBe('string')
            // A refusal quotes a value cut short, never a 16 KiB one whole.
            expect(body.message.length).toBeLessThan(1000)
            return
          }
          if (endpoint === '/__sim/requests') {
            expect(new TextEncoder().encode(text).byteLength).toBeLessThanOrEqual(defaults.journalPageBytes)
            expect(Array.isArray(body.requests)).toBe(true)
          } else if (endpoint === '/__sim/requests/count') {
            expect(body.count).toBeGreaterThanOrEqual(0)
            expect(body.count).toBeLessThanOrEqual(app.simulator.journal.counts().total)
          } else if (endpoint === '/__sim/requests/wait') {
            expect(typeof body.request.sequence).toBe('number')
          } else {
            expect(Array.isArray(body.log.entries)).toBe(true)
          }
        },
      ),
      runs,
    )
  })
})

/** A glob's meaning by dynamic programming over the pattern and the text: independent of compileGlob's method. */
function modelGlob(pattern: string, text: string): boolean {
  let row = new Array<boolean>(text.length + 1).fill(false)
  row[0] = true
  for (const character of pattern) {
    const next = new Array<boolean>(text.length + 1).fill(false)
    if (character === '*') {
      next[0] = row[0]!
      for (let index = 1; index <= text.length; index++) next[index] = row[index]! || next[index - 1]!
    } else {
      for (let index = 1; index <= text.length; index++) next[index] = row[index - 1]! && text[index - 1] === character
    }
    row = next
  }
  return row[text.length]!
}

/** An entry as a filter sees it, written from docs/journal.md. */
function modelMatches(filter: JournalFilter, entry: JournalEntry): boolean {
  const { operation, method, path, status, since, until } = filter
  if (operation !== undefined && entry.operation !== operation) return false
  if (method !== undefined && entry.method !== method.toUpperCase()) return false
  if (path !== undefined) {
    const target = path.includes('?') ? entry.path : entry.path.split('?')[0]!
    if (!modelGlob(path, target)) return false
  }
  if (status !== undefined) {
    const text = String(status).trim().toLowerCase()
    const ok = /^[1-5]xx$/.test(text) ? Math.floor(entry.status / 100) === Number(text[0]) : entry.status === Number(text)
    if (!ok) return false
  }
  if (since !== undefined && entry.sequence < since) return false
  if (until !== undefined && entry.sequence > until) return false
  return true
}

describe('the journal in-process under generated filters', () => {
  const filters = fc.record(
    {
      operation: fc.constantFrom('listPets', 'createPet', 'getPet', 'routeNotFound', 'methodNotAllowed', 'createPets'),
      method: fc.constantFrom('get', 'POST', 'Patch', 'FETCH'),
      path: fc.oneof(
        fc.constantFrom('*', '/v1/pets*', 'pets', '/v1/pets?*__proto__*', '*a!', '*a'),
        fc.string({ unit: fc.constantFrom('*', 'a', '/', 'p', 'e', 't', 's', '1', '?'), maxLength: 24 }).map((text) => `/v1${text}`),
      ),
      status: fc.constantFrom('200', '4xx', '0', 'x'),
      since: fc.nat({ max: 10 }),
      until: fc.nat({ max: 10 }),
    },
    { requiredKeys: [] },
  )

  it('finds what the documented meaning of the filter finds, or refuses with a RangeError', () => {
    const { journal } = app.simulator
    const all = journal.entries()
    fc.assert(
      fc.property(filters, (filter) => {
        let found: JournalEntry[]
        try {
          found = journal.find(filter as JournalFilter)
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError)
          return
        }
        expect(found.map((entry) => entry.sequence)).toEqual(
          all.filter((entry) => modelMatches(filter as JournalFilter, entry)).map((entry) => entry.sequence),
        )
      }),
      { ...runs, numRuns: 300 },
    )
  })

  it('matches any path glob against every recorded path in steps linear in the two', () => {
    const paths = app.simulator.journal.entries().map((entry) => entry.path)
    fc.assert(
      fc.property(filterValue, (pattern) => {
        for (const path of paths) {
          const meter: GlobMeter = { steps: 0 }
          compileGlob(pattern, meter)(path)
          expect(meter.steps).toBeLessThanOrEqual(2 * (path.length + pattern.length))
        }
      }),
      runs,
    )
  })
})

/** What a body, header or query filter takes, written from docs/journal.md over the entry as the journal shows it. */
function modelRequestMatches(filter: JournalFilter, entry: JournalEntry): boolean {
  const { request } = entry
  let json: unknown
  let isJson = request.body !== null && request.body.encoding === 'utf8' && !request.body.truncated
  try {
    json = isJson ? JSON.parse(request.body!.text) : undefined
  } catch {
    isJson = false
  }
  const subset = (sent: unknown, wanted: unknown): boolean =>
    wanted === null || typeof wanted !== 'object'
      ? sent === wanted
      : Array.isArray(wanted)
        ? Array.isArray(sent) && sent.length === wanted.length && wanted.every((item, index) => subset(sent[index], item))
        : sent !== null &&
          typeof sent === 'object' &&
          !Array.isArray(sent) &&
          Object.keys(wanted).every((name) => Object.hasOwn(sent, name) && subset((sent as never)[name], (wanted as never)[name]))
  if (filter.body !== undefined && !(isJson && subset(json, filter.body))) return false
  for (const [path, wanted] of Object.entries(filter.bodyFields ?? {})) {
    // The model's paths are `a`, `a.b` and `a[n]`.
    let value: unknown = json
    for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
      value = value !== null && typeof value === 'object' && Object.hasOwn(value, part) ? (value as never)[part] : undefined
    }
    const text = value === null || ['number', 'boolean'].includes(typeof value) ? JSON.stringify(value) : value
    if (!isJson || value === undefined || !(value === wanted || (typeof wanted === 'string' && text === wanted))) return false
  }
  for (const [name, match] of Object.entries(filter.headers ?? {})) {
    const sent = request.headers[name.toLowerCase()]
    if (typeof match === 'string' && sent !== match) return false
    if (typeof match === 'object' && 'contains' in match && !sent?.includes(match.contains)) return false
    if (typeof match === 'object' && 'present' in match && (sent !== undefined) !== match.present) return false
  }
  for (const [name, wanted] of Object.entries(filter.query ?? {})) {
    const sent = request.query[name]
    if (!(sent === wanted || (Array.isArray(sent) && sent.includes(wanted)))) return false
  }
  return true
}

describe('the body, header and query filters in-process under generated filters', () => {
  const text = fc.constantFrom('Rex', 'Rexx', 'a', 'b', 'Ann', '2', 'abc-123', 'abc', '', 'Bearer demo-pro-key', 'demo')
  const scalar = fc.oneof(text, fc.constantFrom(2, 1, true, null))
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('value'), { maxLength: 3 }), tie('object')),
    object: fc.dictionary(fc.constantFrom('name', 'tags', 'owner', 'categoryId', '__proto__', 'a'), tie('value'), { maxKeys: 3 }),
  }))
  const filters = fc.record(
    {
      body: json.object,
      bodyFields: fc.dictionary(fc.constantFrom('name', 'tags[0]', 'tags[1]', 'owner.name', 'categoryId', 'constructor', 'a'), scalar, {
        maxKeys: 2,
      }),
      headers: fc.dictionary(
        fc.constantFrom('x-correlation-id', 'X-Correlation-Id', 'content-type', 'authorization', 'x-none'),
        fc.oneof(
          text,
          text.map((contains) => ({ contains })),
          fc.boolean().map((present) => ({ present })),
        ),
        { maxKeys: 2 },
      ),
      query: fc.dictionary(fc.constantFrom('limit', 'constructor', '__proto__', 'toString'), fc.constantFrom('5', '2', '3', 'x'), {
        maxKeys: 2,
      }),
      operation: fc.constantFrom('listPets', 'createPet'),
    },
    { requiredKeys: [] },
  )

  it('finds what the documented meaning of the filter finds', () => {
    const { journal } = app.simulator
    const all = journal.entries()
    fc.assert(
      fc.property(filters, (filter) => {
        const found = journal.find(filter as JournalFilter)
        const expected = all.filter(
          (entry) =>
            (filter.operation === undefined || entry.operation === filter.operation) && modelRequestMatches(filter as JournalFilter, entry),
        )
        expect(found.map((entry) => entry.sequence)).toEqual(expected.map((entry) => entry.sequence))
        expect(journal.count(filter as JournalFilter)).toBe(expected.length)
      }),
      { ...runs, numRuns: 300 },
    )
  })

  it('finds a header containing any needle in steps linear in the header and the needle', () => {
    const headers = app.simulator.journal.entries().flatMap((entry) => Object.values(entry.request.headers))
    fc.assert(
      fc.property(filterValue, (needle) => {
        for (const header of [...headers, 'a'.repeat(16 * 1024)]) {
          const meter: GlobMeter = { steps: 0 }
          expect(compileContains(needle, meter)(header)).toBe(header.includes(needle))
          expect(meter.steps).toBeLessThanOrEqual(2 * (header.length + needle.length))
        }
      }),
      runs,
    )
  })
})
