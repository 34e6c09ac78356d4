// Recipe in docs/recipes.md: one simulator per Playwright worker (fixtures.ts).
import { test as base } from '@playwright/test'
import { startServer, type RunningServer } from 'petstore-sim/node'

export const test = base.extend<{ petstore: RunningServer }, { petstoreServer: RunningServer }>({
  // Started once per worker, on a free port: tests in parallel workers never share pets, counts, bans or clock.
  petstoreServer: [
    async ({}, use) => {
      const running = await startServer({ port: 0, log: 'silent' })
      await use(running)
      await running.close()
    },
    { scope: 'worker' },
  ],
  // Every test starts from the initial catalogue, with no requests counted, on a frozen clock: a test that
  // counts requests must not see the UTC minute turn (and its quota come back) half-way through.
  petstore: async ({ petstoreServer }, use) => {
    petstoreServer.simulator.reset()
    petstoreServer.simulator.clock.freeze()
    await use(petstoreServer)
  },
})

export { expect } from '@playwright/test'
