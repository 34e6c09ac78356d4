import { createApp } from '../../src/app/app.ts'
import { createManualClock } from '../../src/core/clock.ts'
import { scenarioPetCount, scenarioSeed, scenarioStart, testKeySpec, type ApiTarget } from './api-target.ts'

/** The web-standard app, called through its own `fetch`: no msw, no network. */
export function startAppTarget(): ApiTarget & { close(): void } {
  const manualClock = createManualClock(scenarioStart)
  const app = createApp({ seed: scenarioSeed, pets: scenarioPetCount, keys: testKeySpec, clock: manualClock })
  return {
    apiUrl: `http://localhost:4010${app.simulator.basePath}`,
    fetch: (input, init) => app.fetch(new Request(input, init), { clientAddress: '127.0.0.1' }),
    async reset() {
      app.simulator.reset()
      manualClock.set(scenarioStart)
    },
    async advanceClock(milliseconds) {
      app.simulator.clock.advance(milliseconds)
    },
    async setClock(iso) {
      app.simulator.clock.set(iso)
    },
    close() {},
  }
}
