import { createManualClock } from '../../src/core/time/clock.ts'
import { createSimulator } from '../../src/simulator.ts'
import { inProcessControls } from './in-process-controls.ts'
import { inProcessJournalClient } from './journal-client.ts'
import { pageOrigin, scenarioSimulatorOptions, scenarioStart, type ApiTarget } from './api-target.ts'

/** `simulator.fetch`: the simulator in-process behind a standard fetch, as openapi-fetch or ky would call it. */
export function startSimulatorFetchTarget(): ApiTarget & { close(): void } {
  const manualClock = createManualClock(scenarioStart)
  const simulator = createSimulator({ ...scenarioSimulatorOptions(manualClock), corsOrigins: [pageOrigin] })
  return {
    apiUrl: `http://localhost:4010${simulator.basePath}`,
    fetch: simulator.fetch,
    // No control endpoints behind simulator.fetch: the journal is read from the simulator, as in-process tests do.
    journalClient: inProcessJournalClient(simulator),
    ...inProcessControls(simulator, manualClock),
    close() {},
  }
}
