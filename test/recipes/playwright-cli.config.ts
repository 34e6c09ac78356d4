// Recipe in docs/recipes.md: Playwright against the CLI, one simulator for the run (workers: 1). Run by
// playwright-cli.test.ts, which picks the port; in Debian's Chromium (nothing downloads a browser).
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'

const port = process.env.PETSTORE_SIM_PORT ?? '4010'

export default defineConfig({
  testDir: '.',
  testMatch: '*.cli-e2e.ts',
  workers: 1, // one simulator, reset before each test: tests in parallel would share its journal
  outputDir: fileURLToPath(new URL('../../test-output/playwright-cli', import.meta.url)),
  webServer: {
    // In the docs: `npx petstore-sim --port 4010 --log silent`; here the repository's own bin.
    command: `node bin/petstore-sim.js --port ${port} --log silent`,
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    url: `http://127.0.0.1:${port}/__sim/health`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
})
