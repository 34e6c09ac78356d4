import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { entryOverheadBytes } from '../../../src/core/journal/exchange-columns.ts'
import { createExchangeRing, type ExchangeRing, type RecordFacts } from '../../../src/core/journal/exchange-ring.ts'
import { captureExchange, type ExchangeParts } from '../../../src/core/journal/journal-exchange.ts'

/** The journal's store; a table, so that another store (say, one for a runtime of its own) is held to the same contract. */
const stores = [['the byte ring', createExchangeRing]] as const

/** Records as the journal does: the entry with its exchange captured by reference, and the parts to copy. */
function hold(ring: ExchangeRing, facts: RecordFacts, parts: ExchangeParts, bodyCap: number): void {
  ring.hold({ ...facts, exchange: captureExchange(parts, bodyCap) }, parts)
}

const bytesOf = (body: string | Uint8Array | undefined) => (typeof body === 'string' ? encode(body) : (body ?? new Uint8Array(0)))

interface Recorded {
  readonly facts: RecordFacts
  readonly parts: ExchangeParts
}

const headerText = fc.string({ unit: fc.constantFrom(...'abcXYZ-_ /:;=é\u00ff0123456789'), maxLength: 40 })
const exchange = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE', 'OPTIONS'),
  path: fc.string({ unit: fc.constantFrom(...'/v1petsé?&=%2e'), maxLength: 60 }).map((path) => `/${path}`),
  status: fc.constantFrom(0, 200, 201, 404, 429, 503),
  durationMs: fc.double({ min: 0, max: 1e4, noNaN: true }),
  forced: fc.boolean(),
  fault: fc.option(fc.constantFrom('rule-1', 'rule-2'), { nil: undefined }),
  rawHeaders: fc.option(fc.array(fc.tuple(headerText, headerText), { maxLength: 6 }), { nil: undefined }),
  requestBody: fc.option(fc.uint8Array({ maxLength: 3000 }), { nil: undefined }),
  responseHeaders: fc.dictionary(fc.constantFrom('Content-Type', 'X-RateLimit-Limit', 'Location', 'Allow'), headerText),
  responseBody: fc.option(fc.string({ unit: 'binary', maxLength: 1500 }), { nil: undefined }),
  responseBodyHeld: fc.boolean(),
})

const encode = (text: string) => new TextEncoder().encode(text)

/** What a held entry must read back as: the same facts and exchange, bodies cut at the cap. */
function expectHeldAsRecorded(ring: ExchangeRing, index: number, recorded: Recorded, bodyCap: number) {
  const entry = ring.entry(index)
  const { exchange: _exchange, ...facts } = entry
  expect(facts).toEqual(
    Object.fromEntries(Object.entries(recorded.facts).filter(([name, value]) => value !== undefined && (name !== 'forced' || value))),
  )
  const read = entry.exchange!
  const { parts } = recorded
  expect(read.rawHeaders).toEqual(parts.rawHeaders)
  expect(read.responseHeaders).toEqual(parts.responseHeaders)
  const requestSize = parts.requestBody?.byteLength ?? 0
  expect(read.requestBodySize).toBe(requestSize)
  if (requestSize === 0) expect(read.requestBody?.byteLength ?? 0).toBe(0)
  else expect(read.requestBody).toEqual(parts.requestBody!.subarray(0, bodyCap))
  const body = parts.responseBody
  if (body === undefined || body === '') {
    expect(read.responseBody === undefined || read.responseBody.length === 0).toBe(true)
  } else if (parts.responseBodyHeld === true && typeof read.responseBody === 'string') {
    // Held elsewhere: the very string, not a copy.
    expect(read.responseBody).toBe(body)
  } else {
    const bytes = encode(body)
    const kept = bytesOf(read.responseBody)
    expect(bytes.subarray(0, kept.byteLength)).toEqual(kept)
    expect(kept.byteLength).toBeLessThanOrEqual(bodyCap)
    // The size sent: given when the body was cut, else the bytes kept.
    expect(read.responseBodySize >= 0 ? read.responseBodySize : kept.byteLength).toBe(bytes.byteLength)
  }
}

describe.each(stores)('the store of the journal, %s', (_, createStore) => {
  it('holds the newest exchanges, each read back as recorded, within its count and byte budgets', () => {
    fc.assert(
      fc.property(
        fc.array(exchange, { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 2048, max: 64 * 1024 }),
        fc.integer({ min: 16, max: 4096 }),
        (exchanges, capacity, maxBytes, bodyCap) => {
          const ring = createStore(capacity, maxBytes, bodyCap)
          const recorded: Recorded[] = []
          exchanges.forEach((sent, index) => {
            const facts: RecordFacts = {
              sequence: index + 1,
              atMs: 1_900_000_000_000 + index,
              wallMs: 1_800_000_000_000 + index,
              method: sent.method,
              path: sent.path,
              status: sent.status,
              operation: 'listPets',
              caller: 'key#0a1b2c3d',
              plan: 'pro',
              durationMs: sent.durationMs,
              forced: sent.forced ? true : undefined,
              fault: sent.fault,
            }
            const parts: ExchangeParts = {
              rawHeaders: sent.rawHeaders?.flat(),
              requestBody: sent.requestBody,
              responseHeaders: sent.responseHeaders,
              responseBody: sent.responseBody,
              responseBodyHeld: sent.responseBodyHeld,
            }
            recorded.push({ facts, parts })
            hold(ring, facts, parts, bodyCap)
            expect(ring.size).toBeLessThanOrEqual(capacity)
            expect(ring.bytes).toBeLessThanOrEqual(maxBytes)
            // The newest held entries, in order, with no gap: a suffix of what was recorded.
            const held = Array.from({ length: ring.size }, (_, at) => ring.entry(at).sequence)
            expect(held).toEqual(recorded.slice(recorded.length - ring.size).map((entry) => entry.facts.sequence))
            expect(ring.evicted).toBe(recorded.length - ring.size)
          })
          for (let at = 0; at < ring.size; at++) expectHeldAsRecorded(ring, at, recorded[recorded.length - ring.size + at]!, bodyCap)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('keeps the count bound exactly when entries are small, and the last entry whenever it fits', () => {
    const ring = createStore(5, 1024 * 1024, 1024)
    const facts = (sequence: number): RecordFacts => ({
      sequence,
      atMs: 0,
      wallMs: 0,
      method: 'GET',
      path: `/v1/pets?n=${sequence}`,
      status: 200,
      operation: 'listPets',
      caller: 'anonymous',
      plan: 'anonymous',
      durationMs: 0,
    })
    for (let sequence = 1; sequence <= 12; sequence++) {
      hold(
        ring,
        facts(sequence),
        { rawHeaders: ['Host', 'localhost'], requestBody: undefined, responseHeaders: {}, responseBody: '[]' },
        1024,
      )
    }
    expect(Array.from({ length: ring.size }, (_, at) => ring.entry(at).path)).toEqual(
      [8, 9, 10, 11, 12].map((sequence) => `/v1/pets?n=${sequence}`),
    )
    expect(ring.bytes).toBeGreaterThanOrEqual(5 * entryOverheadBytes)
  })

  it('refers to a held body instead of copying it', () => {
    const ring = createStore(5, 1024 * 1024, 1024)
    const page = JSON.stringify([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }])
    const facts: RecordFacts = {
      sequence: 1,
      atMs: 0,
      wallMs: 0,
      method: 'GET',
      path: '/v1/pets',
      status: 200,
      operation: 'listPets',
      caller: 'a',
      plan: 'p',
      durationMs: 0,
    }
    hold(ring, facts, { rawHeaders: [], requestBody: undefined, responseHeaders: {}, responseBody: page, responseBodyHeld: true }, 1024)
    expect(ring.entry(0).exchange!.responseBody).toBe(page)
  })

  it('grows its columns as entries come, in order, up to its capacity', () => {
    const ring = createStore(500, 16 * 1024 * 1024, 1024)
    for (let sequence = 1; sequence <= 700; sequence++) {
      hold(
        ring,
        {
          sequence,
          atMs: sequence,
          wallMs: 0,
          method: 'GET',
          path: `/v1/pets/${sequence}`,
          status: 200,
          operation: 'getPet',
          caller: 'a',
          plan: 'p',
          durationMs: 0,
        },
        {
          rawHeaders: ['Host', 'localhost'],
          requestBody: undefined,
          responseHeaders: { Seq: String(sequence) },
          responseBody: `{"id":${sequence}}`,
        },
        1024,
      )
      expect(ring.size).toBe(Math.min(sequence, 500))
    }
    for (const at of [0, 1, 63, 64, 255, 256, 499]) {
      const entry = ring.entry(at)
      expect(entry).toMatchObject({ sequence: 201 + at, atMs: 201 + at, path: `/v1/pets/${201 + at}` })
      expect(entry.exchange!.responseHeaders).toEqual({ Seq: String(201 + at) })
      expect(new TextDecoder().decode(bytesOf(entry.exchange!.responseBody))).toBe(`{"id":${201 + at}}`)
    }
  })
})

describe('the byte ring', () => {
  it('reads an evicted entry as having no exchange rather than another entry bytes', () => {
    const ring = createExchangeRing(2, 1024 * 1024, 1024)
    const holdBody = (sequence: number, body: string) =>
      hold(
        ring,
        {
          sequence,
          atMs: 0,
          wallMs: 0,
          method: 'POST',
          path: '/v1/pets',
          status: 201,
          operation: 'createPet',
          caller: 'a',
          plan: 'p',
          durationMs: 0,
        },
        { rawHeaders: [], requestBody: encode(body), responseHeaders: {}, responseBody: body },
        1024,
      )
    holdBody(1, 'first')
    const oldest = ring.entry(0)
    holdBody(2, 'second')
    holdBody(3, 'third')
    expect(oldest.exchange).toBeUndefined()
    expect(new TextDecoder().decode(ring.entry(0).exchange!.requestBody)).toBe('second')
  })
})
