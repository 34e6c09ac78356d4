import type { HttpHandler } from 'msw'
import { createSimulatorCore, type SimulatorCore, type SimulatorOptions } from './core/simulator/simulator-core.ts'
import { createApiHandlers } from './handlers/api-handlers.ts'
import { createSimulatorFetch, type SimulatorFetch } from './simulator-fetch.ts'

export { demoKeySpec, type SimulatorOptions } from './core/simulator/simulator-core.ts'
export type { SimulatorFetch } from './simulator-fetch.ts'

/**
 * One simulated Animal Store with its MSW handlers: its own store, keys,
 * clock, limiter and journal.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSimulator } from 'petstore-sim'
 *
 * const simulator = createSimulator({ seed: 42 })
 * const server = setupServer(...simulator.handlers)
 * server.listen()
 * afterEach(() => simulator.reset())
 */
export interface Simulator extends SimulatorCore {
  /** The MSW request handlers: give them to `setupServer` or `setupWorker`. */
  readonly handlers: HttpHandler[]
  /**
   * A standard `fetch` answered by this simulator in-process, without msw or a network: hand it to clients that take
   * a fetch (`createClient({ baseUrl, fetch: simulator.fetch })`). Relative URLs resolve against the base URL.
   */
  readonly fetch: SimulatorFetch
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const core = createSimulatorCore(options)
  return Object.assign(core, { handlers: createApiHandlers(core), fetch: createSimulatorFetch(core) })
}
