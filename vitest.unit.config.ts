// The fast layer (`npm run test:unit`, and what `npm run mutation` runs each mutant against), in one process, no
// build: the core's own tests (test/core), the import-graph test (test/architecture), the scenario matrix
// (test/matrix) on its in-process targets (test/support/matrix.ts), the ones that start no CLI: msw's setupServer,
// app.fetch and simulator.fetch, and `verify`'s checks (test/verify) run in-process, against app.fetch with a manual
// clock or a loopback fake target in the test's own process, and the Pact export and provider states through the
// control plane in-process (test/pact/pact-endpoints.test.ts, beside test/core/contract). Not here:
// verify-cli* (spawn the CLI) and verify-prism (starts Prism). Everything else (the CLI, the Node lane, browsers) is in the default config's `npm test`.
import { configDefaults, defineConfig } from 'vitest/config'

const inProcessTargets = ['msw setupServer', 'app.fetch', 'simulator.fetch']

export default defineConfig({
  test: {
    include: [
      'test/core/**/*.test.ts',
      'test/architecture/**/*.test.ts',
      'test/matrix/**/*.test.ts',
      'test/verify/**/*.test.ts',
      'test/pact/pact-endpoints.test.ts',
    ],
    exclude: [...configDefaults.exclude, '.stryker-tmp*/**', 'test/verify/verify-cli*.test.ts', 'test/verify/verify-prism.test.ts'],
    env: { PETSTORE_SIM_TEST_TARGETS: inProcessTargets.join(',') },
    testTimeout: 20_000,
  },
})
