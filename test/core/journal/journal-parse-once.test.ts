import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ExchangeParts } from '../../../src/core/journal/journal-exchange.ts'
import { createRequestJournal, type RecordInput } from '../../../src/core/journal/request-journal.ts'
import { defaults } from '../../../src/core/defaults.ts'
import { createApp } from '../../../src/app/app.ts'

// Issue 45, Medium 5: a body filter parsed every held body per query and per wait (220-364 ms a count on a full
// journal; 256 pending body waits took createPet from 526/s to 10/s; 256 one-second waits stalled the API 63.5 s).
// Counted here, not timed: a body is parsed at most once while its entry is held, and a wait reads new entries only.

const encoder = new TextEncoder()

function input(body: unknown): RecordInput {
  const exchange: ExchangeParts = {
    rawHeaders: ['Content-Type', 'application/json'],
    requestBody: encoder.encode(JSON.stringify(body)),
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

const pet = (index: number) => ({ name: `pet-${index}`, categoryId: index, tags: ['a', 'b'], owner: { name: `owner-${index}` } })

/** Counts the `JSON.parse` calls that `run` makes (the journal's parser of bodies is the platform's). */
function parsesIn(run: () => void): number {
  const spy = vi.spyOn(JSON, 'parse')
  try {
    run()
    return spy.mock.calls.length
  } finally {
    spy.mockRestore()
  }
}

afterEach(() => vi.restoreAllMocks())

describe('a body is parsed at most once while its entry is held', () => {
  it('K body-filtered queries over a full journal: at most one parse per entry in all', () => {
    const held = 200
    const journal = createRequestJournal({ capacity: held })
    for (let index = 0; index < held; index++) journal.record(input(pet(index)))
    const parses = parsesIn(() => {
      for (let query = 0; query < 20; query++) {
        expect(journal.count({ body: { name: `nobody-${query}` } })).toBe(0)
        expect(journal.count({ bodyFields: { 'owner.name': `owner-${query}` } })).toBe(1)
      }
      expect(journal.find({ body: { tags: ['a', 'b'] } })).toHaveLength(held)
      expect(journal.toHar({ bodyFields: { categoryId: 7 } }).log.entries).toHaveLength(1)
      expect(journal.page({ bodyFields: { name: 'pet-3' } }).entries).toHaveLength(1)
    })
    expect(parses).toBeLessThanOrEqual(held)
  })

  it('256 pending body-filtered waits and N new entries: at most N parses', async () => {
    const journal = createRequestJournal()
    const controller = new AbortController()
    const waits = Array.from({ length: defaults.maxPendingWaits }, (_, index) =>
      journal.waitFor({ bodyFields: { name: `wanted-${index}` } }, { timeoutMs: 60_000, signal: controller.signal }).catch(() => undefined),
    )
    const created = 64
    const parses = parsesIn(() => {
      for (let index = 0; index < created; index++) journal.record(input(pet(index)))
    })
    expect(parses).toBeLessThanOrEqual(created)
    // And they still see what comes: the one each waits for ends it.
    journal.record(input({ name: 'wanted-5' }))
    controller.abort(new Error('done'))
    const ended = await Promise.all(waits)
    expect(ended.filter((entry) => entry !== undefined).map((entry) => entry!.sequence)).toEqual([created + 1])
  })

  it('256 body-filtered waits that time out over a full journal: at most one parse per entry in all', async () => {
    const held = 200
    const journal = createRequestJournal({ capacity: held })
    for (let index = 0; index < held; index++) journal.record(input(pet(index)))
    const spy = vi.spyOn(JSON, 'parse')
    const errors = await Promise.all(
      Array.from({ length: defaults.maxPendingWaits }, (_, index) =>
        journal.waitFor({ body: { name: `nobody-${index}` } }, { timeoutMs: 0 }).catch((error: Error) => error),
      ),
    )
    const parses = spy.mock.calls.length
    spy.mockRestore()
    expect(errors.every((error) => error instanceof Error && error.message.includes('differs in body: sent {"name":"pet-199"'))).toBe(true)
    expect(parses).toBeLessThanOrEqual(held)
  })

  it('counts the parsed bodies in the byte budget, and never holds more than it', () => {
    const journal = createRequestJournal({ maxBytes: 256 * 1024 })
    for (let index = 0; index < 50; index++) journal.record(input({ ...pet(index), list: Array.from({ length: 200 }, (_, item) => item) }))
    const before = journal.usage()
    expect(before.evicted).toBe(0)
    journal.count({ bodyFields: { name: 'x' } })
    const after = journal.usage()
    expect(after.bytes).toBeGreaterThan(before.bytes)
    expect(after.bytes).toBeLessThanOrEqual(after.maxBytes)
    // Parsed once: a second query charges nothing more.
    journal.count({ bodyFields: { name: 'y' } })
    expect(journal.usage().bytes).toBe(after.bytes)
    // Emptied, it holds nothing, parsed or not.
    journal.clear()
    expect(journal.usage().bytes).toBe(0)
  })

  it('over HTTP: K counts and waits with body filters over a full journal parse each held body at most once', async () => {
    const app = createApp()
    const send = (path: string, init: RequestInit = {}) =>
      app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress: '127.0.0.1' })
    const held = defaults.journalSize
    for (let index = 0; index < held; index++) {
      const body = JSON.stringify({ name: `pet-${index}`, categoryId: 1 })
      await send('/v1/pets', {
        method: 'POST',
        headers: { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json' },
        body,
      })
    }
    expect(app.simulator.journal.usage().entries).toBe(held)
    const spy = vi.spyOn(JSON, 'parse')
    for (let query = 0; query < 10; query++) {
      const counted = (await (await send(`/__sim/requests/count?body.name=pet-${query}`)).json()) as { count: number }
      expect(counted.count).toBe(1)
      expect((await send(`/__sim/requests/wait?body.name=nobody-${query}&timeoutMs=0`)).status).toBe(404)
    }
    // Twenty control requests, each reading the whole journal: one parse per held body in all.
    const parses = spy.mock.calls.length
    spy.mockRestore()
    expect(parses).toBeLessThanOrEqual(held)
  })
})
