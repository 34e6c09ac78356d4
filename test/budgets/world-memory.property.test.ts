import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src/app/app.ts'
import type { SimulatorCore } from '../../src/core/simulator/simulator-core.ts'

// Issue 45, the class "everything kept is bounded in bytes, wherever it is kept": random traffic (routes, query
// names, bodies, headers, callers' addresses, sandboxes, resets, pact and journal clears) into one app, and after each
// request every world's every store within its budget, the world's sum their sum, and `GET /__sim/health` telling
// the same figures. The budgets are small here so that traffic reaches them; the estimates are checked against a
// heap measurement in pact-budget.test.ts and journal-retention.test.ts.

const origin = 'http://127.0.0.1:4010'
const worlds = ['', '/sandboxes/a', '/sandboxes/b', '/sandboxes/c'] as const
const text = (max: number) => fc.string({ unit: 'grapheme-ascii', maxLength: max })
const big = (max: number) => fc.nat({ max }).map((length) => 'x'.repeat(length))

const request = fc.record({
  world: fc.constantFrom(...worlds),
  address: fc.ipV4(),
  auth: fc.constantFrom('Bearer demo-enterprise-key', 'Bearer demo-free-key', 'Bearer not-a-key', undefined),
  header: big(20_000),
  kind: fc.oneof(
    fc.record({ op: fc.constant('list' as const), names: fc.array(fc.oneof(text(12), big(9000)), { maxLength: 3 }), value: text(8) }),
    fc.record({
      op: fc.constant('create' as const),
      body: fc.oneof(
        fc.record({ name: text(30), categoryId: fc.integer({ min: -1, max: 9 }), notes: big(100_000) }).map((pet) => JSON.stringify(pet)),
        fc.json({ maxDepth: 3 }),
        text(200),
      ),
    }),
    fc.record({ op: fc.constant('get' as const), id: fc.oneof(fc.integer({ min: -1, max: 200 }).map(String), text(10)) }),
    fc.record({ op: fc.constant('control' as const), action: fc.constantFrom('reset', 'clear-pact', 'clear-journal', 'unknown-route') }),
  ),
})
type Sent = typeof request extends fc.Arbitrary<infer T> ? T : never

async function send(app: App, sent: Sent): Promise<void> {
  const headers: Record<string, string> = { 'x-padding': sent.header }
  if (sent.auth !== undefined) headers.authorization = sent.auth
  const { kind, world } = sent
  let path = `${world}/v1/pets`
  let init: RequestInit = { headers }
  if (kind.op === 'list') {
    const query = kind.names.map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(kind.value)}`).join('&')
    path += query === '' ? '' : `?${query}`
  } else if (kind.op === 'create') {
    init = { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: kind.body }
  } else if (kind.op === 'get') {
    path += `/${encodeURIComponent(kind.id)}`
  } else {
    const control = {
      reset: ['POST', '/__sim/reset'],
      'clear-pact': ['DELETE', '/__sim/requests.pact'],
      'clear-journal': ['DELETE', '/__sim/requests'],
      'unknown-route': ['GET', '/v1/orders/x?y=1'],
    }[kind.action]
    path = `${world}${control[1]!}`
    init = { method: control[0]!, headers }
  }
  const response = await app.fetch(new Request(`${origin}${path}`, init), { clientAddress: sent.address })
  await response.arrayBuffer()
}

function heldWorlds(app: App): Array<{ path: string; simulator: SimulatorCore }> {
  const sandboxes = app.sandboxes?.list() ?? []
  return [
    { path: '', simulator: app.simulator },
    ...sandboxes.map((entry) => ({ path: `/sandboxes/${entry.name}`, simulator: entry.world.simulator })),
  ]
}

describe('every world within its memory budgets, under random traffic', () => {
  it('keeps each store within its budget and tells the same figures over HTTP', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 60 }), async (traffic) => {
        const app = createApp({
          seed: 1,
          pets: 5,
          journalMaxBytes: 256 * 1024,
          journalBodyCapBytes: 8 * 1024,
          maxAnonymousBuckets: 5,
          pactMaxBytes: 256 * 1024,
          sandboxes: { max: 3 },
        })
        for (const sent of traffic) {
          await send(app, sent)
          for (const { simulator } of heldWorlds(app)) {
            const memory = simulator.memory()
            const stores = [memory.journal, memory.pact, memory.coverage, memory.callers]
            for (const store of stores) {
              expect(store.bytes).toBeGreaterThanOrEqual(0)
              expect(store.bytes).toBeLessThanOrEqual(store.maxBytes)
            }
            expect(memory.bytes).toBe(stores.reduce((sum, store) => sum + store.bytes, 0))
            expect(memory.maxBytes).toBe(stores.reduce((sum, store) => sum + store.maxBytes, 0))
            expect(memory.journal).toEqual({ bytes: simulator.journal.usage().bytes, maxBytes: 256 * 1024 })
            expect(memory.pact.bytes).toBe(simulator.pact.usage().bytes)
          }
        }
        // What health tells, world by world, is the world's own figures.
        for (const { path, simulator } of heldWorlds(app)) {
          const health = await app.fetch(new Request(`${origin}${path}/__sim/health`), { clientAddress: '127.0.0.1' })
          expect(((await health.json()) as { memory: unknown }).memory).toEqual(simulator.memory())
        }
      }),
      { numRuns: 25, seed: 45 },
    )
  }, 120_000)
})
