// The container step of CI (test/container/run-container-tests.sh, after `npm test`): the scenario matrix and
// verify's checks against the image through a published port (the `container` target only), and the image's own
// tests. One file at a time: each starts its containers, and the machine has two cores.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/matrix/**/*.test.ts', 'test/verify/verify-matrix.test.ts', 'test/container/*.test.ts'],
    env: { PETSTORE_SIM_TEST_TARGETS: 'container' },
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
