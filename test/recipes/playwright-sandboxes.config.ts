// Recipe in docs/sharing.md: Playwright with one sandbox per parallel worker on one shared simulator, the fixture of
// petstore-sim/playwright. Run by playwright-sandboxes.test.ts with 2 workers against the CLI it starts (instead of a
// webServer); API requests only, so no browser is started.
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'
import type { PetstoreOptions } from 'petstore-sim/playwright'

export default defineConfig<PetstoreOptions>({
  testDir: '.',
  testMatch: '*.sandbox-e2e.ts',
  fullyParallel: true,
  retries: 0,
  outputDir: fileURLToPath(new URL('../../test-output/playwright-sandboxes', import.meta.url)),
  use: { petstoreKeys: { 'team-e2e-key': 'pro' } }, // each sandbox's own key, in place of the demo keys
})
