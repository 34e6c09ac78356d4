// Recipe in docs/recipes.md: a test running in the browser against the simulator.
import { setupWorker } from 'msw/browser'
import { createSimulator } from 'petstore-sim'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const simulator = createSimulator({ seed: 3 })
const worker = setupWorker(...simulator.handlers)
// msw 3 reads onUnhandledFrame, msw 2 onUnhandledRequest.
const options = { quiet: true, onUnhandledFrame: 'bypass', onUnhandledRequest: 'bypass' } as const

beforeAll(() => worker.start(options))
afterEach(() => simulator.reset())
afterAll(() => worker.stop())

it('lists pets in the browser', async () => {
  const response = await fetch('/v1/pets?limit=4', { headers: { Authorization: 'Bearer demo-pro-key' } })
  expect(response.status).toBe(200)
  expect(response.headers.get('X-RateLimit-Limit')).toBe('300')
  expect(await response.json()).toHaveLength(4)
  expect(navigator.serviceWorker.controller).not.toBeNull()
})
