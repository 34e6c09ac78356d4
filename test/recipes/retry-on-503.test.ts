// Recipe in docs/error-states.md ("In your tests"): a client's retry on 503, tested with a fault rule.
import { setupServer } from 'msw/node'
import { createManualClock, createSimulator } from 'petstore-sim'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

/** The user's code under test: fetches the pets, retrying once a 503 after its Retry-After (in seconds). */
async function fetchPetsWithRetry(apiUrl: string, key: string, wait = (_ms: number) => Promise.resolve()): Promise<unknown[]> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${apiUrl}/pets`, { headers: { Authorization: `Bearer ${key}` } })
    if (response.status === 503 && attempt < 3) {
      await wait(Number(response.headers.get('Retry-After') ?? 1) * 1000)
      continue
    }
    if (!response.ok) throw new Error(`listPets answered ${response.status}`)
    return (await response.json()) as unknown[]
  }
}

const simulator = createSimulator({ clock: createManualClock('2030-01-01T00:00:30Z'), baseUrl: 'https://api.example.com/v1' })
const server = setupServer(...simulator.handlers)
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => simulator.reset())
afterAll(() => server.close())

it('retries a 503 and then shows the pets', async () => {
  const rule = simulator.faults.add({ operation: 'listPets', status: 503, times: 1 })
  const waits: number[] = []
  const pets = await fetchPetsWithRetry('https://api.example.com/v1', 'demo-pro-key', async (ms) => {
    waits.push(ms)
  })
  expect(pets).toHaveLength(20)
  expect(waits).toEqual([5000]) // the 503's Retry-After, read by the client
  expect(simulator.journal.entries().map((entry) => [entry.status, entry.fault])).toEqual([
    [503, rule],
    [200, undefined],
  ])
})
