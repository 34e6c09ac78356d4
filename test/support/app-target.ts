import { createApp } from '../../src/app/app.ts'
import { createManualClock } from '../../src/core/time/clock.ts'
import { inProcessControls } from './in-process-controls.ts'
import { httpJournalClient } from './journal-client.ts'
import { pageOrigin, scenarioSimulatorOptions, scenarioStart, type ApiTarget } from './api-target.ts'

/** The web-standard app, called through its own `fetch`: no msw, no network. */
export function startAppTarget(): ApiTarget & { close(): void } {
  const manualClock = createManualClock(scenarioStart)
  const app = createApp({ ...scenarioSimulatorOptions(manualClock), corsOrigins: [pageOrigin] })
  // As fetch() does with a network error (a fault rule's reset or hang): reject.
  const send = async (input: string, init?: RequestInit) => {
    const response = await app.fetch(new Request(input, init), { clientAddress: '127.0.0.1' })
    if (response.type === 'error') throw new TypeError('fetch failed: network error')
    return response
  }
  return {
    apiUrl: `http://localhost:4010${app.simulator.basePath}`,
    fetch: send,
    // Over HTTP through app.fetch: the control endpoints, where in-process targets use the simulator's own.
    journalClient: httpJournalClient(send, 'http://localhost:4010'),
    ...inProcessControls(app.simulator, manualClock),
    close() {},
  }
}
