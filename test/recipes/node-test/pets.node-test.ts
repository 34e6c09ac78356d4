// The node:test recipe (docs/recipes.md), run by test/recipes/node-test.test.ts with `node --test`, on msw 3 and on msw 2.
// Named *.node-test.ts so that Vitest leaves it alone; in a project of your own, pets.test.ts.
import assert from 'node:assert/strict'
import { after, afterEach, before, test } from 'node:test'
import { setupServer } from 'msw/node'
import { createManualClock, createSimulator } from 'petstore-sim'

const simulator = createSimulator({ seed: 42, clock: createManualClock('2030-01-01T00:00:00Z') })
const server = setupServer(...simulator.handlers)
// msw 3 names this option onUnhandledFrame, msw 2 onUnhandledRequest: each reads its own and ignores the other.
const unhandled = { onUnhandledFrame: 'error', onUnhandledRequest: 'error' } as const

before(() => server.listen(unhandled))
afterEach(() => simulator.reset())
after(() => server.close())

test('lists pets', async () => {
  const response = await fetch('https://api.example.com/v1/pets?limit=5', { headers: { Authorization: 'Bearer demo-pro-key' } })
  assert.equal(response.status, 200)
  assert.equal(response.headers.get('X-RateLimit-Remaining'), '299')
  assert.equal((await response.json()).length, 5)
})

test('refuses after the limit, and recovers in the next minute', async () => {
  const list = () => fetch('https://api.example.com/v1/pets', { headers: { Authorization: 'Bearer demo-free-key' } })
  for (let request = 0; request < 60; request++) await list()
  assert.equal((await list()).status, 429)
  simulator.clock.advance(60_000)
  assert.equal((await list()).status, 200)
})
