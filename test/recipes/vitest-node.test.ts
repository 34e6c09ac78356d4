// Recipe in docs/in-process.md (and docs/recipes.md): Vitest in Node. Imports the package by its name, as a user would.
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createManualClock, createSimulator } from 'petstore-sim'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

// Time stands still unless a test moves it: see docs/in-process.md.
const simulator = createSimulator({ seed: 42, clock: createManualClock('2030-01-01T00:00:00Z') })
const server = setupServer(...simulator.handlers)
// msw 3 names this option onUnhandledFrame, msw 2 onUnhandledRequest: each reads its own and ignores the other.
const unhandled = { onUnhandledFrame: 'error', onUnhandledRequest: 'error' } as const

beforeAll(() => server.listen(unhandled))
afterEach(() => {
  server.resetHandlers() // drop per-test overrides
  simulator.reset() // fresh catalogue, limits, bans, journal and clock offset
})
afterAll(() => server.close())

it('lists pets', async () => {
  const response = await fetch('https://api.example.com/v1/pets?limit=5', {
    headers: { Authorization: 'Bearer demo-pro-key' },
  })
  expect(response.status).toBe(200)
  expect(response.headers.get('X-RateLimit-Remaining')).toBe('299')
  expect(response.headers.get('X-RateLimit-Reset')).toBe('1893456060') // 2030-01-01T00:01:00Z, in every run
  expect(await response.json()).toHaveLength(5)
})

it('shows an empty catalogue', async () => {
  // Override one handler for one test; the rest of the simulator keeps working.
  server.use(http.get('*/v1/pets', () => HttpResponse.json([])))
  const response = await fetch('https://api.example.com/v1/pets', { headers: { Authorization: 'Bearer demo-pro-key' } })
  expect(await response.json()).toEqual([])
})

it('refuses after the limit, and recovers in the next minute', async () => {
  const list = () => fetch('https://api.example.com/v1/pets', { headers: { Authorization: 'Bearer demo-free-key' } })
  for (let request = 0; request < 60; request++) await list()
  expect((await list()).status).toBe(429)
  simulator.clock.advance(60_000) // time is the simulator's: nothing sleeps
  expect((await list()).status).toBe(200)
})

// docs/recipes.md, "Asserting on what the app sent": a body field and a header, as WireMock's verify asks them.
it('creates Rex, pending, with its correlation header', async () => {
  // Your app's code, here a fetch:
  await fetch('https://api.example.com/v1/pets', {
    method: 'POST',
    headers: { Authorization: 'Bearer demo-pro-key', 'Content-Type': 'application/json', 'X-Correlation-Id': 'abc-123' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1, status: 'pending' }),
  })
  const created = await simulator.journal.waitFor(
    { operation: 'createPet', bodyFields: { name: 'Rex' }, headers: { 'x-correlation-id': 'abc-123' } },
    { timeoutMs: 2000 },
  )
  expect(created.status).toBe(201)
  expect(simulator.journal.count({ body: { name: 'Rex', status: 'pending' }, headers: { authorization: { present: true } } })).toBe(1)
  expect(simulator.journal.count({ body: { name: 'Rex', status: 'sold' } })).toBe(0)
})
