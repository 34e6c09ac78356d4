import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { entryOverheadBytes } from '../../../src/core/journal/exchange-columns.ts'
import { createExchangeRing, type RecordFacts } from '../../../src/core/journal/exchange-ring.ts'
import type { ExchangeParts } from '../../../src/core/journal/journal-exchange.ts'

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
function expectHeldAsRecorded(ring: ReturnType<typeof createExchangeRing>, index: number, recorded: Recorded, bodyCap: number) {
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
  if (requestSize === 0) expect(read.requestBody).toBeUndefined()
  else expect(read.requestBody).toEqual(parts.requestBody!.subarray(0, bodyCap))
  const body = parts.responseBody
  if (body === undefined || body === '') {
    expect(read.responseBody === undefined || read.responseBody.length === 0).toBe(true)
  } else if (parts.responseBodyHeld === true) {
    // Held elsewhere: the very string, not a copy.
    expect(read.responseBody).toBe(body)
  } else {
    const bytes = encode(body)
    const kept = read.responseBody as Uint8Array
    expect(bytes.subarray(0, kept.byteLength)).toEqual(kept)
    expect(kept.byteLength).toBeLessThanOrEqual(bodyCap)
    expect(read.responseBodySize).toBe(bytes.byteLength > bodyCap ? bytes.byteLength : -1)
  }
}

describe('the exchange ring (the journal held as bytes)', () => {
  it('holds the newest exchanges, each read back as recorded, within its count and byte budgets', () => {
    fc.assert(
      fc.property(
        fc.array(exchange, { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 2048, max: 64 * 1024 }),
        fc.integer({ min: 16, max: 4096 }),
        (exchanges, capacity, maxBytes, bodyCap) => {
          const ring = createExchangeRing(capacity, maxBytes, bodyCap)
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
            ring.hold(facts, parts)
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
    const ring = createExchangeRing(5, 1024 * 1024, 1024)
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
      ring.hold(facts(sequence), { rawHeaders: ['Host', 'localhost'], requestBody: undefined, responseHeaders: {}, responseBody: '[]' })
    }
    expect(Array.from({ length: ring.size }, (_, at) => ring.entry(at).path)).toEqual(
      [8, 9, 10, 11, 12].map((sequence) => `/v1/pets?n=${sequence}`),
    )
    expect(ring.bytes).toBeGreaterThanOrEqual(5 * entryOverheadBytes)
  })

  it('grows its columns as entries come, in order, up to its capacity', () => {
    const ring = createExchangeRing(500, 16 * 1024 * 1024, 1024)
    for (let sequence = 1; sequence <= 700; sequence++) {
      ring.hold(
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
      )
      expect(ring.size).toBe(Math.min(sequence, 500))
    }
    for (const at of [0, 1, 63, 64, 255, 256, 499]) {
      const entry = ring.entry(at)
      expect(entry).toMatchObject({ sequence: 201 + at, atMs: 201 + at, path: `/v1/pets/${201 + at}` })
      expect(entry.exchange!.responseHeaders).toEqual({ Seq: String(201 + at) })
      expect(new TextDecoder().decode(entry.exchange!.responseBody as Uint8Array)).toBe(`{"id":${201 + at}}`)
    }
  })

  it('reads an evicted entry as having no exchange rather than another entry bytes', () => {
    const ring = createExchangeRing(2, 1024 * 1024, 1024)
    const hold = (sequence: number, body: string) =>
      ring.hold(
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
      )
    hold(1, 'first')
    const oldest = ring.entry(0)
    hold(2, 'second')
    hold(3, 'third')
    expect(oldest.exchange).toBeUndefined()
    expect(new TextDecoder().decode(ring.entry(0).exchange!.requestBody)).toBe('second')
  })
})
