// fixtures.ts: one sandbox per Playwright worker, all on one simulator started once (in CI, or by a teammate).
import { test as base } from '@playwright/test'

const simulator = process.env.PETSTORE_SIM_URL ?? 'http://127.0.0.1:4010'

export const test = base.extend<{ petstoreApi: string }>({
  // Each worker its own sandbox: parallel workers never share pets, ids, counts, bans or clock. Every test starts it
  // over from the configured scenario (the first request makes it), on a frozen clock.
  petstoreApi: async ({}, use, testInfo) => {
    const sandbox = `${simulator}/sandboxes/pw-worker-${testInfo.workerIndex}`
    const post = (path: string, body: unknown) =>
      fetch(`${sandbox}/__sim${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    await post('/reset', {})
    await post('/clock', { freeze: true })
    await use(`${sandbox}/v1`)
  },
})

export { expect } from '@playwright/test'
