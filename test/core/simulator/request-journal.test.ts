import { describe, expect, it } from 'vitest'
import { createManualClock } from '../../../src/core/time/clock.ts'
import { entryOverheadBytes, type ExchangeParts } from '../../../src/core/simulator/journal-exchange.ts'
import { redactHeader, redactQuery } from '../../../src/core/simulator/journal-redaction.ts'
import { createRequestJournal, type RecordInput } from '../../../src/core/simulator/request-journal.ts'

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
