// The fast layer (`npm run test:unit`, and what `npm run mutation` runs each mutant against): the pure core's tests,
// in seconds. Everything else (the lanes, the CLI, browsers) is in the default config's `npm test`.
import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/core/**/*.test.ts'],
    exclude: [...configDefaults.exclude, '.stryker-tmp*/**'],
    testTimeout: 20_000,
  },
})
