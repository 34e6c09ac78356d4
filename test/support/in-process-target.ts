import { setupServer } from 'msw/node'
import { createManualClock } from '../../src/core/time/clock.ts'
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator.ts'
import { inProcessControls } from './in-process-controls.ts'
import { inProcessJournalClient } from './journal-client.ts'
import { scenarioSimulatorOptions, scenarioStart, type ApiTarget } from './api-target.ts'

/** The origin in-process requests are sent to; nothing listens there. */
export const inProcessOrigin = 'http://petstore.test'

/**
 * Starts msw's `setupServer` with a simulator's handlers, as a user's test
 * suite would, and returns the target with the simulator behind it.
 */
export function startInProcessTarget(options: SimulatorOptions = {}): ApiTarget & { simulator: Simulator; close(): void } {
  const manualClock = createManualClock(scenarioStart)
  // A full base URL: unknown paths on that origin are the simulator's 404s, as on a server (with a path-only
  // base they would be left to msw's onUnhandledRequest, as other APIs' requests are).
  const simulator = createSimulator({ ...scenarioSimulatorOptions(manualClock), baseUrl: `${inProcessOrigin}/v1`, ...options })
  const server = setupServer(...simulator.handlers)
  server.listen({ onUnhandledFrame: 'error' })
  return {
    simulator,
    apiUrl: `${inProcessOrigin}${simulator.basePath}`,
    fetch: (input, init) => fetch(input, init),
    ...inProcessControls(simulator, manualClock),
    journalClient: inProcessJournalClient(simulator),
    close: () => server.close(),
  }
}
