// Recipe in docs/recipes.md: Playwright with one simulator per worker (see playwright-fixtures.ts).
// Run by playwright.test.ts with 2 workers, in Debian's Chromium (nothing downloads a browser).
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'

export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  fullyParallel: true,
  outputDir: fileURLToPath(new URL('../../test-output/playwright', import.meta.url)),
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      // In this repository only: Debian's Chromium instead of a browser downloaded by `npx playwright install`.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
})
