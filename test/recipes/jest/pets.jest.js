// The Jest recipe (docs/recipes.md), run by test/recipes/jest.test.ts on msw 3 and on msw 2. Named *.jest.js so that
// Vitest leaves it alone; in a project of your own, pets.test.js.
import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals'
import { setupServer } from 'msw/node'
import { createManualClock, createSimulator } from 'petstore-sim'

const simulator = createSimulator({ seed: 42, clock: createManualClock('2030-01-01T00:00:00Z') })
const server = setupServer(...simulator.handlers)

// msw 3 names this option onUnhandledFrame, msw 2 onUnhandledRequest: each reads its own and ignores the other. In a
// constant (`as const` in TypeScript): written inline, TypeScript refuses the name the other major reads (TS2353).
const unhandled = /** @type {const} */ ({ onUnhandledFrame: 'error', onUnhandledRequest: 'error' })
beforeAll(() => server.listen(unhandled))
afterEach(() => {
  server.resetHandlers()
  simulator.reset()
})
afterAll(() => server.close())

test('lists pets', async () => {
  const response = await fetch('https://api.example.com/v1/pets?limit=5', { headers: { Authorization: 'Bearer demo-pro-key' } })
  expect(response.status).toBe(200)
  expect(response.headers.get('X-RateLimit-Remaining')).toBe('299')
  expect(await response.json()).toHaveLength(5)
})

test('refuses after the limit, and recovers in the next minute', async () => {
  const list = () => fetch('https://api.example.com/v1/pets', { headers: { Authorization: 'Bearer demo-free-key' } })
  for (let request = 0; request < 60; request++) await list()
  expect((await list()).status).toBe(429)
  simulator.clock.advance(60_000)
  expect((await list()).status).toBe(200)
})

// Not in the recipe: proves that the option above takes on this msw. A server on loopback that would answer 200 if
// the request got through; with 'error' it never does.
test('a request no handler answers is an error, not a warning', async () => {
  const { createServer } = await import('node:http')
  const other = createServer((_request, response) => response.end('reached'))
  await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve))
  try {
    await expect(fetch(`http://127.0.0.1:${other.address().port}/elsewhere`)).rejects.toThrow()
  } finally {
    await new Promise((resolve) => other.close(resolve))
  }
})
