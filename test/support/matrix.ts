import { afterAll, beforeAll, describe } from 'vitest'
import type { ApiTarget } from './api-target.ts'
import { startAppTarget } from './app-target.ts'
import { startCliTarget } from './cli-target.ts'
import { startInProcessTarget } from './in-process-target.ts'
import { startSimulatorFetchTarget } from './simulator-fetch-target.ts'

/**
 * Every way the simulator is reached, each answering through its own lane:
 * the MSW handlers in-process, the web-standard `app.fetch`, `simulator.fetch`, and the real CLI
 * on its direct Node lane and with `--engine msw`. (h3's `describeMatrix` is
 * the model.)
 */
export const targets = {
  'msw setupServer': async () => startInProcessTarget(),
  'app.fetch': async () => startAppTarget(),
  'simulator.fetch': async () => startSimulatorFetchTarget(),
  'CLI (direct lane)': () => startCliTarget(),
  'CLI --engine msw': () => startCliTarget(['--engine', 'msw']),
} satisfies Record<string, () => Promise<ApiTarget & { close(): unknown }>>

/**
 * Defines the same tests once per target. `PETSTORE_SIM_TEST_TARGETS`
 * (comma-separated names) narrows the matrix, e.g. to run it on another msw.
 */
export function describeMatrix(title: string, define: (target: () => ApiTarget) => void): void {
  const only = process.env.PETSTORE_SIM_TEST_TARGETS?.split(',').map((name) => name.trim())
  for (const [name, start] of Object.entries(targets)) {
    if (only !== undefined && !only.includes(name)) continue
    describe(`${title} [${name}]`, () => {
      let target: (ApiTarget & { close(): unknown }) | undefined
      beforeAll(async () => {
        target = await start()
      })
      afterAll(async () => {
        await target?.close()
      })
      define(() => target!)
    })
  }
}
