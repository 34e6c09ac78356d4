import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../../src/app/app.ts'
import { pactExample } from '../../../src/core/contract/pact-example.ts'
import { toInteraction } from '../../../src/core/contract/pact-interaction.ts'

// What the pact recorder keeps of a request (issue 45, Medium 6) is the journal's view cut down to what a pact reads:
// the interaction made from it must be the one made from the whole view, for every kind of request, and it must not
// hold what the pact leaves out (a body's other fields, other headers, the rest of a page).

const origin = 'http://127.0.0.1:4010'
const keys = ['Bearer demo-pro-key', 'Bearer demo-free-key', 'Bearer not-a-key', undefined] as const

const request = fc.record({
  auth: fc.constantFrom(...keys),
  kind: fc.oneof(
    fc.record({
      op: fc.constant('list' as const),
      query: fc.array(
        fc.tuple(fc.constantFrom('limit', 'status', 'page', 'x'), fc.constantFrom('1', '20', '100', '500', 'sold', 'lost', '')),
        {
          maxLength: 3,
        },
      ),
    }),
    fc.record({
      op: fc.constant('create' as const),
      body: fc.oneof(
        fc
          .record(
            {
              name: fc.string({ maxLength: 20 }),
              categoryId: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.string({ maxLength: 3 })),
              status: fc.constantFrom('available', 'sold', 'lost'),
              secret: fc.string(),
            },
            { requiredKeys: ['name'] },
          )
          .map((body) => JSON.stringify(body)),
        fc.json({ maxDepth: 2 }),
        fc.string({ maxLength: 20 }),
      ),
      contentType: fc.constantFrom('application/json', 'text/plain'),
    }),
    fc.record({ op: fc.constant('get' as const), id: fc.constantFrom('1', '3', '999', 'abc', '-1') }),
  ),
})

describe('the pact example of a request', () => {
  it('makes the interaction the whole view makes, and keeps none of what the pact leaves out', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 12 }), fc.boolean(), async (traffic, sunset) => {
        const app = createApp({ seed: 3, pets: 4, ...(sunset ? { clock: { now: () => Date.parse('2031-01-01T00:00:00Z') } } : {}) })
        for (const { auth, kind } of traffic) {
          const headers: Record<string, string> = { 'x-trace': 'trace-value' }
          if (auth !== undefined) headers.authorization = auth
          let path = '/v1/pets'
          let init: RequestInit = { headers }
          if (kind.op === 'list') path += kind.query.length === 0 ? '' : `?${new URLSearchParams(kind.query)}`
          else if (kind.op === 'get') path += `/${kind.id}`
          else init = { method: 'POST', headers: { ...headers, 'content-type': kind.contentType }, body: kind.body }
          await (await app.fetch(new Request(`${origin}${path}`, init))).arrayBuffer()
        }
        for (const entry of app.simulator.journal.entries()) {
          const example = pactExample(entry)
          expect(toInteraction(example.entry)).toEqual(toInteraction(entry))
          expect(JSON.stringify(example.entry)).not.toContain('trace-value')
          expect(example.bytes).toBeGreaterThanOrEqual(2 * JSON.stringify(example.entry).length)
          if (entry.request.body?.text.includes('"secret"')) expect(example.entry.request.body!.text).not.toContain('"secret"')
        }
      }),
      { numRuns: 60, seed: 456 },
    )
  })
})
