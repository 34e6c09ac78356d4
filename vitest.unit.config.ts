// The fast layer (`npm run test:unit`, and what `npm run mutation` runs each mutant against), in one process, no
// build: the core's own tests (test/core), the import-graph test (test/architecture), and the scenario matrix
// (test/matrix) on its in-process targets (test/support/matrix.ts), the ones that start no CLI: msw's setupServer,
// app.fetch and simulator.fetch. Everything else (the CLI, the Node lane, browsers) is in the default config's `npm test`.
import { configDefaults, defineConfig } from 'vitest/config'

const inProcessTargets = ['msw setupServer', 'app.fetch', 'simulator.fetch']

export default defineConfig({
  test: {
    include: ['test/core/**/*.test.ts', 'test/architecture/**/*.test.ts', 'test/matrix/**/*.test.ts'],
    exclude: [...configDefaults.exclude, '.stryker-tmp*/**'],
    env: { PETSTORE_SIM_TEST_TARGETS: inProcessTargets.join(',') },
    testTimeout: 20_000,
  },
})
