// `npm test`'s vitest suite: vitest's defaults, less the copies of the repository that `npm run mutation` (Stryker)
// makes in its sandbox folder while it runs, whose tests would otherwise run twice, on mutated sources, and the
// container step's own tests (test/container), which need the image: .ci/run runs them after `npm test`.
import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, '.stryker-tmp*/**', 'reports/**', 'test/container/**'],
  },
})
