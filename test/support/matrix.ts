import { afterAll, beforeAll, describe } from 'vitest'
import type { ApiTarget } from './api-target.ts'
import { startAppTarget } from './app-target.ts'
import { startCliTarget } from './cli-target.ts'
import { startContainerTarget } from './container-target.ts'
import { startInProcessTarget } from './in-process-target.ts'
import { startSimulatorFetchTarget } from './simulator-fetch-target.ts'
import { startStoreCliTarget } from './store-cli-target.ts'

/** The image the container target runs: set by the container step of CI (test/container/run-container-tests.sh). */
const testImage = process.env.PETSTORE_SIM_TEST_IMAGE

/**
 * Every way the simulator is reached, each answering through its own lane:
 * the MSW handlers in-process, the web-standard `app.fetch`, `simulator.fetch`, the real CLI
 * on its direct Node lane, with `--engine msw`, and through a sandbox's base URL (`/sandboxes/matrix/v1`), the real CLI on
 * a shared store (`--store`: a Redis of its own), in its default world and in a sandbox, and, in the container step,
 * the image through a published port.
 * (h3's `describeMatrix` is the model.)
 */
export const targets: Record<string, () => Promise<ApiTarget & { close(): unknown }>> = {
  'msw setupServer': async () => startInProcessTarget(),
  'app.fetch': async () => startAppTarget(),
  'simulator.fetch': async () => startSimulatorFetchTarget(),
  'CLI (direct lane)': () => startCliTarget(),
  'CLI --engine msw': () => startCliTarget(['--engine', 'msw']),
  'CLI sandbox': () => startCliTarget([], 'matrix'),
  'CLI --store': () => startStoreCliTarget(),
  'CLI --store sandbox': () => startStoreCliTarget('matrix'),
  ...(testImage === undefined ? {} : { container: () => startContainerTarget(testImage) }),
}

/**
 * Defines the same tests once per target. `PETSTORE_SIM_TEST_TARGETS`
 * (comma-separated names) narrows the matrix, e.g. to run it on another msw.
 */
export function describeMatrix(title: string, define: (target: () => ApiTarget) => void): void {
  const only = process.env.PETSTORE_SIM_TEST_TARGETS?.split(',').map((name) => name.trim())
  // A target asked for that does not exist (`container` without an image) fails the run, rather than run nothing.
  const unknown = only?.filter((name) => !(name in targets))
  if (unknown !== undefined && unknown.length > 0) {
    throw new Error(`PETSTORE_SIM_TEST_TARGETS names ${unknown.join(', ')}: no such target here (${Object.keys(targets).join(', ')})`)
  }
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
