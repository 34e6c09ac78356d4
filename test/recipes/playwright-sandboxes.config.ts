// Recipe in docs/sharing.md: Playwright with one sandbox per worker on one shared simulator (playwright-sandbox-fixtures.ts).
// Run by playwright-sandboxes.test.ts with 2 workers; API requests only, so no browser is started.
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'

export default defineConfig({
  testDir: '.',
  testMatch: '*.sandbox-e2e.ts',
  fullyParallel: true,
  outputDir: fileURLToPath(new URL('../../test-output/playwright-sandboxes', import.meta.url)),
})
