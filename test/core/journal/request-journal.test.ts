import { describe, expect, it } from 'vitest'
import { createManualClock } from '../../../src/core/time/clock.ts'
import { entryOverheadBytes, type ExchangeParts } from '../../../src/core/journal/journal-exchange.ts'
import { redactHeader, redactQuery } from '../../../src/core/journal/journal-redaction.ts'
import { createRequestJournal, type RecordInput } from '../../../src/core/journal/request-journal.ts'
import { defaults } from '../../../src/core/defaults.ts'
import { createCoverageTally } from '../../../src/core/journal/contract-coverage.ts'
import { apiRoutes } from '../../../src/core/operations/api-routes.ts'

const kib = 1024

function input(parts: Partial<ExchangeParts> = {}, fields: Partial<RecordInput> = {}): RecordInput {
  return {
    atMs: Date.UTC(2030, 0, 1),
    method: 'POST',
    path: '/v1/pets',
    status: 201,
    operation: 'createPet',
    caller: 'anonymous',
    plan: 'anonymous',
    durationMs: 1,
    ...fields,
    exchange: { rawHeaders: ['Host', 'localhost'], requestBody: undefined, responseHeaders: {}, responseBody: undefined, ...parts },
  }
}

describe('the journal is bounded by bytes as well as entries', () => {
  it('evicts the oldest entries past its byte budget, and never holds more than the budget', () => {
    const journal = createRequestJournal({ capacity: 1000, maxBytes: 1024 * kib, bodyCapBytes: 64 * kib })
    const body = new Uint8Array(64 * kib).fill(0x61)
    for (let index = 0; index < 100; index++) {
      journal.record(input({ requestBody: body, responseBody: 'b'.repeat(64 * kib) }))
      expect(journal.usage().bytes).toBeLessThanOrEqual(1024 * kib)
    }
    const { entries, evicted, bytes } = journal.usage()
    // Each entry holds 128 KiB of bodies and its overhead: 7 fit in 1 MiB.
    expect(entries).toBe(7)
    expect(evicted).toBe(93)
    expect(bytes).toBeGreaterThan(7 * 128 * kib)
    expect(journal.entries().map((entry) => entry.sequence)).toEqual([94, 95, 96, 97, 98, 99, 100])
    expect(journal.counts().total).toBe(100)
  })

  it('keeps at most the capacity in entries, whatever their size', () => {
    const journal = createRequestJournal({ capacity: 3 })
    for (let index = 0; index < 10; index++) journal.record(input())
    expect(journal.entries().map((entry) => entry.sequence)).toEqual([8, 9, 10])
    expect(journal.usage().bytes).toBeGreaterThanOrEqual(3 * entryOverheadBytes)
  })

  it('cuts a body over the cap to its first bytes, marked truncated, with the size sent', () => {
    const journal = createRequestJournal({ bodyCapBytes: 10 })
    journal.record(input({ requestBody: new TextEncoder().encode('0123456789abcdef'), responseBody: 'é'.repeat(20) }))
    const [entry] = journal.entries()
    expect(entry!.request.body).toEqual({ size: 16, encoding: 'utf8', text: '0123456789', truncated: true })
    // 40 bytes sent; 10 kept, and the character cut in two left out.
    expect(entry!.response.body).toEqual({ size: 40, encoding: 'utf8', text: 'é'.repeat(5), truncated: true })
  })

  it('shows the headers of the answer as recorded: a change to the object afterwards changes no entry', () => {
    const journal = createRequestJournal()
    const responseHeaders: Record<string, string> = { 'Content-Type': 'application/json', 'Content-Length': '2' }
    const recorded = journal.record(input({ responseHeaders, responseBody: '{}' }))
    const seen = journal.entries()[0]!.response.headers
    Object.assign(responseHeaders, { 'Access-Control-Allow-Origin': 'http://evil.example', 'Content-Length': '999' })
    expect(journal.entries()[0]!.response.headers).toEqual({ 'content-type': 'application/json', 'content-length': '2' })
    expect(journal.entries()[0]!.response.headers).toEqual(seen)
    expect(Object.isFrozen(recorded.exchange!.responseHeaders)).toBe(true)
  })

  it('keeps a frozen header object as it is, without a copy', () => {
    const journal = createRequestJournal()
    const responseHeaders = Object.freeze({ 'Content-Type': 'application/json' })
    expect(journal.record(input({ responseHeaders })).exchange!.responseHeaders).toBe(responseHeaders)
  })

  it('an entry read before its eviction keeps its exchange', () => {
    const journal = createRequestJournal({ capacity: 2 })
    const first = journal.record(input({ responseBody: '{"id":1}' }))
    const entry = journal.entries()[0]!
    for (let index = 0; index < 5; index++) journal.record(input({ responseBody: `{"id":${index + 2}}` }))
    expect(journal.entries().map((held) => held.sequence)).toEqual([5, 6])
    expect(first.exchange?.responseBody).toBe('{"id":1}')
    expect(entry.response.body?.text).toBe('{"id":1}')
  })

  it('counts a response body against the budget even when the same text is answered again (a kept page of pets)', () => {
    const page = `[${Array.from({ length: 100 }, (_, id) => JSON.stringify({ id, name: 'n'.repeat(250), categoryId: 1, status: 'available' })).join(',')}]`
    const journal = createRequestJournal({ capacity: 1000, maxBytes: 1024 * kib })
    for (let index = 0; index < 200; index++) journal.record(input({ responseBody: page }, { method: 'GET', status: 200 }))
    // Some 30 KB a page: 1 MiB holds about 30 entries, not 200 (the budget counts every body it keeps, shared or not).
    expect(journal.usage().bytes).toBeLessThanOrEqual(1024 * kib)
    expect(journal.usage().entries).toBeLessThan(40)
    expect(journal.usage().entries * page.length).toBeLessThanOrEqual(1024 * kib)
  })

  it('shows a body that is not UTF-8 in base64, marked so', () => {
    const journal = createRequestJournal()
    journal.record(input({ requestBody: new Uint8Array([0xff, 0xfe, 0x00, 0x41]) }))
    expect(journal.entries()[0]!.request.body).toEqual({ size: 4, encoding: 'base64', text: '//4AQQ==', truncated: false })
  })

  it('stamps the wall time from its wall clock, apart from the simulated time', () => {
    const journal = createRequestJournal({ wallClock: createManualClock('2026-11-23T12:00:00Z') })
    journal.record(input())
    expect(journal.entries()[0]).toMatchObject({ at: '2030-01-01T00:00:00.000Z', wallAt: '2026-11-23T12:00:00.000Z' })
  })

  it('keeps nothing with a capacity of 0, and still counts', () => {
    const journal = createRequestJournal({ capacity: 0 })
    journal.record(input())
    expect(journal.entries()).toEqual([])
    expect(journal.counts().total).toBe(1)
  })

  it('refuses bounds that are not whole numbers', () => {
    expect(() => createRequestJournal({ maxBytes: -1 })).toThrow(/maxBytes/)
    expect(() => createRequestJournal({ bodyCapBytes: 1.5 })).toThrow(/bodyCapBytes/)
  })
})

describe('redaction', () => {
  it.each([
    ['authorization', 'Bearer demo-free-key', 'Bearer demo-free-key'],
    ['authorization', 'Bearer my-own-secret', 'Bearer key#'],
    ['authorization', 'Basic dXNlcjpwYXNz', 'Basic key#'],
    ['cookie', 'sid=abc; theme=dark', 'sid=[redacted]; theme=[redacted]'],
    ['x-api-key', 'abc', '[redacted]'],
    ['proxy-authorization', 'Basic abc', '[redacted]'],
    ['x-csrf-token', 'abc', '[redacted]'],
    ['traceparent', '00-abc-def-01', '00-abc-def-01'],
  ])('shows %s: %s as %s…', (name, value, shown) => {
    const result = redactHeader(name, value)
    expect(result.startsWith(shown)).toBe(true)
    if (shown.endsWith('key#')) expect(result).toMatch(/^\w+ key#[0-9a-f]{8}$/)
  })

  it('redacts credential-named query parameters only', () => {
    expect(redactQuery('limit=5&api_key=s3cret&status=sold&token=t')).toBe('limit=5&api_key=[redacted]&status=sold&token=[redacted]')
    expect(redactQuery('limit=5&keyword=dog')).toBe('limit=5&keyword=dog')
  })
})

describe('the journal a page at a time (issue #20)', () => {
  const utf8Bytes = (text: string) => new TextEncoder().encode(text).byteLength
  /** Every page from `filter` on, by following `next`. */
  const allPages = (journal: ReturnType<typeof createRequestJournal>, filter = {}, maxBytes?: number) => {
    const pages = []
    for (let page = journal.page(filter, { maxBytes }); ; page = journal.page(page.next, { maxBytes })) {
      pages.push(page)
      if (page.next === undefined) return pages
      expect(pages.length).toBeLessThan(1000)
    }
  }

  it('reads a journal larger than a page completely by following next, no page over its bytes', () => {
    const journal = createRequestJournal({ maxBytes: 64 * 1024 * kib })
    for (let index = 0; index < 60; index++) journal.record(input({ responseBody: `"${'é'.repeat(10 * kib)}"` }))
    const pages = allPages(journal, {}, 100 * kib)
    expect(pages.length).toBeGreaterThan(5)
    for (const page of pages) {
      expect(utf8Bytes(page.json)).toBeLessThanOrEqual(100 * kib)
      expect(JSON.parse(page.json)).toEqual(page.entries)
    }
    expect(pages.flatMap((page) => page.entries.map((entry) => entry.sequence))).toEqual(
      Array.from({ length: 60 }, (_, index) => index + 1),
    )
    expect(pages[0]!.next).toEqual({ since: pages[0]!.entries.length + 1, until: 60 })
  })

  it('pins the end when the first page is read: requests recorded meanwhile are not chased', () => {
    const journal = createRequestJournal()
    for (let index = 0; index < 10; index++) journal.record(input({ requestBody: new Uint8Array(2 * kib).fill(0x61) }))
    const first = journal.page({ method: 'post' }, { maxBytes: 8 * kib })
    for (let index = 0; index < 5; index++) journal.record(input())
    const rest = allPages(journal, first.next, 8 * kib)
    const read = [first, ...rest].flatMap((page) => page.entries.map((entry) => entry.sequence))
    expect(read).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(first.next).toMatchObject({ method: 'post', until: 10 })
  })

  it('keeps the window limit chose, and drops limit from next', () => {
    const journal = createRequestJournal()
    for (let index = 0; index < 20; index++)
      journal.record(input({ requestBody: new Uint8Array(2 * kib).fill(0x61) }, { status: index % 2 === 0 ? 201 : 400 }))
    const pages = allPages(journal, { status: 400, limit: 6 }, 8 * kib)
    expect(pages.length).toBeGreaterThan(1)
    expect(pages[0]!.next).not.toHaveProperty('limit')
    expect(pages.flatMap((page) => page.entries.map((entry) => entry.sequence))).toEqual([10, 12, 14, 16, 18, 20])
    expect(journal.find({ status: 400, limit: 6 }).map((entry) => entry.sequence)).toEqual([10, 12, 14, 16, 18, 20])
  })

  it('makes an entry larger than a page a page of its own, and a journal that fits one page has no next', () => {
    const journal = createRequestJournal()
    journal.record(input({ responseBody: 'x'.repeat(20 * kib) }))
    journal.record(input())
    const pages = allPages(journal, {}, kib)
    expect(pages.map((page) => page.entries.length)).toEqual([1, 1])
    expect(journal.page().next).toBeUndefined()
    expect(journal.page().entries).toEqual(journal.entries())
    expect(createRequestJournal().page()).toEqual({ entries: [], json: '[]', next: undefined })
    expect(() => journal.page({}, { maxBytes: -1 })).toThrow(RangeError)
  })

  it('filters by until, as by since', () => {
    const journal = createRequestJournal()
    for (let index = 0; index < 5; index++) journal.record(input())
    expect(journal.find({ since: 2, until: 4 }).map((entry) => entry.sequence)).toEqual([2, 3, 4])
    expect(journal.count({ until: 2 })).toBe(2)
    expect(() => journal.find({ until: 1.5 })).toThrow(/until must be a sequence number/)
  })

  it('gives the latest summaries without reading a body', () => {
    const journal = createRequestJournal()
    for (let index = 0; index < 3; index++) journal.record(input({ requestBody: new Uint8Array([0x61]) }))
    const summaries = journal.latestSummaries(2)
    expect(summaries.map((summary) => summary.sequence)).toEqual([2, 3])
    expect(summaries[0]).not.toHaveProperty('request')
    expect(journal.latestSummaries(0)).toEqual([])
  })
})

describe('filter values are checked (issue #26)', () => {
  it.each([
    [
      { operation: 'createPets' },
      /operation must be one of listPets, createPet, getPet, listOrders, routeNotFound, methodNotAllowed \(got "createPets"\)/,
    ],
    [{ method: 'FETCH' }, /method must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, CONNECT, TRACE \(got "FETCH"\)/],
    [{ path: 'pets' }, /path must be a path under \/v1, such as \/v1\/pets\/\*, or start with \* \(got "pets"\)/],
    [{ path: '/pets/*' }, /path must be a path under \/v1/],
    [{ path: '/v10/pets' }, /path must be a path under \/v1/],
    [{ path: '' }, /path must be a path under \/v1/],
  ])('refuses %j with a RangeError, in find, count, page, toHar and waitFor', async (filter, message) => {
    const journal = createRequestJournal()
    journal.record(input())
    const unchecked = filter as never
    expect(() => journal.find(unchecked)).toThrow(RangeError)
    expect(() => journal.find(unchecked)).toThrow(message)
    expect(() => journal.count(unchecked)).toThrow(message)
    expect(() => journal.page(unchecked)).toThrow(message)
    expect(() => journal.toHar(unchecked)).toThrow(message)
    await expect(journal.waitFor(unchecked, { timeoutMs: 10_000 })).rejects.toThrow(message)
  })

  it('takes the operations of the route table, every method in any case, and paths that may be under the base path', () => {
    const journal = createRequestJournal()
    journal.record(input())
    journal.record(input({}, { method: 'PATCH', path: '/v1/pets/1', status: 405, operation: 'methodNotAllowed' }))
    expect(journal.count({ operation: 'createPet' })).toBe(1)
    expect(journal.count({ operation: 'methodNotAllowed' })).toBe(1)
    expect(journal.count({ operation: 'routeNotFound' })).toBe(0)
    expect(journal.count({ method: 'patch' })).toBe(1)
    expect(journal.count({ method: 'TRACE' })).toBe(0)
    for (const [path, count] of [
      ['*', 2],
      ['/v*', 2],
      ['/v1', 0],
      ['/v1*', 2],
      ['*/1', 1],
      ['/v1/pets?x=*', 0],
    ] as const) {
      expect(journal.count({ path }), path).toBe(count)
    }
  })

  it('checks a path against the base path it is given: at the root, any path', () => {
    const journal = createRequestJournal({ basePath: '' })
    journal.record(input({}, { path: '/pets' }))
    expect(journal.count({ path: '/pets' })).toBe(1)
    expect(() => journal.count({ path: 'pets' })).toThrow(/path must be a path under \/, such as \/pets\/\*/)
    expect(() => journal.count({ path: '' })).toThrow(RangeError)
  })

  it('types operation as the union of operation ids, so that a typo does not compile', () => {
    const journal = createRequestJournal()
    // @ts-expect-error: createPets is not an operation (createPet is).
    expect(() => journal.count({ operation: 'createPets' })).toThrow(RangeError)
  })

  it('finds a 4 KB path with a glob of many stars, and no path with one that cannot match', () => {
    const journal = createRequestJournal()
    const long = `/v1/${'a'.repeat(4092)}`
    journal.record(input({}, { path: long, status: 404, operation: 'routeNotFound' }))
    expect(journal.count({ path: `/v1/${'*a'.repeat(1000)}*!` })).toBe(0)
    expect(journal.count({ path: `/v1/${'*a'.repeat(1000)}*` })).toBe(1)
    expect(journal.find({ path: '*a' }).map((entry) => entry.path)).toEqual([long])
  })
})

describe('names that are object keys (issue #26)', () => {
  const names = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']

  it('journals query parameters and headers named like Object.prototype members as sent', () => {
    const journal = createRequestJournal()
    const query = names.map((name, index) => `${name}=q${index}`).join('&')
    const rawHeaders = ['Host', 'localhost', ...names.flatMap((name, index) => [name, `h${index}`]), 'toString', 'again']
    journal.record(
      input({ rawHeaders }, { method: 'GET', path: `/v1/pets?${query}&constructor=twice`, status: 200, operation: 'listPets' }),
    )
    const [entry] = journal.entries()
    // Compared as JSON text: an object literal with a `__proto__` key would set a prototype, not a property.
    expect(JSON.stringify(entry!.request.query)).toBe(
      '{"constructor":["q0","twice"],"toString":"q1","hasOwnProperty":"q2","__proto__":"q3","valueOf":"q4"}',
    )
    expect(Object.entries(entry!.request.headers)).toEqual([
      ['host', 'localhost'],
      ['constructor', 'h0'],
      ['tostring', 'h1, again'],
      ['hasownproperty', 'h2'],
      ['__proto__', 'h3'],
      ['valueof', 'h4'],
    ])
    const har = journal.toHar().log.entries[0]!.request
    expect(har.queryString).toEqual([
      { name: 'constructor', value: 'q0' },
      { name: 'constructor', value: 'twice' },
      { name: 'toString', value: 'q1' },
      { name: 'hasOwnProperty', value: 'q2' },
      { name: '__proto__', value: 'q3' },
      { name: 'valueOf', value: 'q4' },
    ])
    expect(har.headers.map((header) => header.name)).toEqual(['host', 'constructor', 'tostring', 'hasownproperty', '__proto__', 'valueof'])
    expect(journal.count({ path: '/v1/pets?*__proto__=q3*' })).toBe(1)
    expect(journal.count({ path: '/v1/pets?*constructor=twice' })).toBe(1)
  })
})

describe('waits (issue #26)', () => {
  it('stops a wait when its signal aborts: it rejects with the reason, and a later match finds no one waiting', async () => {
    const journal = createRequestJournal()
    const controller = new AbortController()
    const waiting = journal.waitFor({ operation: 'createPet' }, { timeoutMs: 60_000, signal: controller.signal })
    controller.abort(new Error('the client went away'))
    await expect(waiting).rejects.toThrow('the client went away')
    await expect(journal.waitFor({}, { signal: AbortSignal.abort(new Error('already gone')) })).rejects.toThrow('already gone')
    journal.record(input())
    // A wait already met is answered, whatever the signal says.
    expect((await journal.waitFor({ operation: 'createPet' }, { signal: AbortSignal.abort() })).sequence).toBe(1)
  })

  it(`keeps no cap in-process: ${defaults.maxPendingWaits + 44} waits all end with their match`, async () => {
    const journal = createRequestJournal()
    const waits = Array.from({ length: defaults.maxPendingWaits + 44 }, () => journal.waitFor({ status: 201 }, { timeoutMs: 60_000 }))
    journal.record(input())
    expect((await Promise.all(waits)).every((entry) => entry.sequence === 1)).toBe(true)
  })
})

describe('a fleet entry of before the last clear (issue 45, High 3)', () => {
  it('feeds the coverage and the record hook, and is neither held, counted nor seen by a wait', async () => {
    const coverage = createCoverageTally(apiRoutes, () => undefined)
    const observed: number[] = []
    const journal = createRequestJournal({ coverage, onRecord: (entry) => observed.push(entry.sequence) })
    journal.record(input(), 7)
    const waiting = journal.waitFor({ operation: 'createPet', since: 8 }, { timeoutMs: 50 }).then(
      () => 'seen',
      () => 'not seen',
    )
    const old = journal.record(input(), 3, false)
    expect(old.sequence).toBe(3)
    expect(observed).toEqual([7, 3])
    expect(journal.entries().map((entry) => entry.sequence)).toEqual([7])
    expect(journal.counts().total).toBe(7)
    expect(journal.counts().byStatusClass['2xx']).toBe(1)
    expect(coverage.report().operations.find((operation) => operation.operation === 'createPet')!.calls).toBe(2)
    expect(await waiting).toBe('not seen')
    // The journal's own sequence goes on from the held entries'.
    expect(journal.record(input()).sequence).toBe(8)
  })
})

describe('an exchange whose bodies were cut before (a shared store keeps them as the journal does; issue 45, High 1)', () => {
  it('shows them truncated, with the sizes sent', () => {
    const journal = createRequestJournal({ bodyCapBytes: 10 })
    journal.record(
      input({
        requestBody: new TextEncoder().encode('0123456789'),
        requestBodySize: 4096,
        responseBody: 'éé',
        responseBodySize: 900,
      }),
    )
    const [entry] = journal.entries()
    expect(entry!.request.body).toEqual({ size: 4096, encoding: 'utf8', text: '0123456789', truncated: true })
    expect(entry!.response.body).toEqual({ size: 900, encoding: 'utf8', text: 'éé', truncated: true })
  })
})
