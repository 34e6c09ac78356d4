/**
 * petstore-sim's Playwright fixture: each parallel worker its own sandbox on one running simulator (`npx petstore-sim`,
 * in CI or by a teammate), made with its scenario and keys when the worker starts, reset before each test and deleted
 * when the worker ends. Needs `@playwright/test` (an optional peer dependency: no other entry loads it).
 *
 * The sandbox is named after `parallelIndex`, not `workerIndex`: Playwright replaces a worker after a failing test
 * with one of a new `workerIndex` and the same `parallelIndex`, so a suite holds as many sandboxes as it runs workers
 * at once, however many tests fail (docs/sharing.md).
 *
 * @example
 * import { expect } from '@playwright/test'
 * import { test } from 'petstore-sim/playwright'
 * test.use({ petstoreScenario: 'empty' })
 * test('lists no pets', async ({ request, petstoreApi }) => {
 *   const pets = await request.get(`${petstoreApi}/pets`, { headers: { authorization: 'Bearer demo-pro-key' } })
 *   expect(await pets.json()).toEqual([])
 * })
 */
import { test as base } from '@playwright/test'
import { closeSandbox, openSandbox, resetSandbox, type PetstoreSandbox } from './playwright/sandbox-client.ts'

/** The fixture's options, set with `test.use({ … })` or a project's `use` in playwright.config.ts: one per worker. */
export interface PetstoreOptions {
  /** The simulator's origin. Default: `PETSTORE_SIM_URL`, else `http://127.0.0.1:4010`. */
  readonly petstoreUrl: string
  /** The scenario each sandbox starts in and each test starts from; the simulator's configured one when undefined. */
  readonly petstoreScenario: string | undefined
  /** The sandbox's API keys, token → plan, in place of the simulator's; its own when undefined. */
  readonly petstoreKeys: Readonly<Record<string, string>> | undefined
  /** The simulator's admin token, for its control plane. Default: `PETSTORE_SIM_ADMIN_TOKEN`. */
  readonly petstoreAdminToken: string | undefined
  /** The sandbox names' prefix: `<prefix>-<parallelIndex>`. Default `pw-worker`; one per suite sharing a simulator. */
  readonly petstoreSandboxPrefix: string
}

/** The worker's fixtures: the options, and its sandbox. */
export interface PetstoreWorkerFixtures extends PetstoreOptions {
  /** This worker's sandbox, made when the worker starts and deleted when it ends. */
  readonly petstoreSandbox: PetstoreSandbox
}

/** Each test's fixture. */
export interface PetstoreTestFixtures {
  /** The worker's sandbox's API base URL (`…/sandboxes/pw-worker-0/v1`), reset before the test gets it. */
  readonly petstoreApi: string
}

/** Playwright's `test` with the fixtures: use it in place of `@playwright/test`'s (`expect` is Playwright's own). */
export const test = base.extend<PetstoreTestFixtures, PetstoreWorkerFixtures>({
  petstoreUrl: [process.env.PETSTORE_SIM_URL ?? 'http://127.0.0.1:4010', { scope: 'worker', option: true }],
  petstoreScenario: [undefined, { scope: 'worker', option: true }],
  petstoreKeys: [undefined, { scope: 'worker', option: true }],
  petstoreAdminToken: [process.env.PETSTORE_SIM_ADMIN_TOKEN, { scope: 'worker', option: true }],
  petstoreSandboxPrefix: ['pw-worker', { scope: 'worker', option: true }],
  petstoreSandbox: [
    async ({ petstoreUrl, petstoreScenario, petstoreKeys, petstoreAdminToken, petstoreSandboxPrefix }, use, workerInfo) => {
      const sandbox = await openSandbox({
        url: petstoreUrl,
        name: `${petstoreSandboxPrefix}-${workerInfo.parallelIndex}`,
        scenario: petstoreScenario,
        keys: petstoreKeys,
        adminToken: petstoreAdminToken,
      })
      await use(sandbox)
      await closeSandbox(sandbox)
    },
    { scope: 'worker' },
  ],
  petstoreApi: async ({ petstoreSandbox }, use, testInfo) => {
    await resetSandbox(petstoreSandbox)
    // In the report (`petstore-api`), which sandbox served the test: where to read its journal after a failure.
    testInfo.annotations.push({ type: 'petstore-api', description: petstoreSandbox.apiUrl })
    await use(petstoreSandbox.apiUrl)
  },
})

export type { PetstoreSandbox } from './playwright/sandbox-client.ts'
