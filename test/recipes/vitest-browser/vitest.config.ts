// Recipe in docs/recipes.md: Vitest browser mode with the simulator under setupWorker.
// Run by test/recipes/vitest-browser.test.ts with Debian's Chromium.
import { fileURLToPath } from 'node:url'
import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  publicDir: fileURLToPath(new URL('../../browser/public', import.meta.url)), // where `npx msw init` put mockServiceWorker.js
  // In this repository only: the package resolves to its own sources.
  resolve: { alias: { 'petstore-sim': fileURLToPath(new URL('../../../src/index.ts', import.meta.url)) } },
  test: {
    // The browser server (Vitest 5's `test.api`) on 127.0.0.1 and a free port of its own. By default the browser server takes "localhost" and the first free
    // port from 23315, which other Vitest browser runs on the machine take too: one bound on 127.0.0.1, another on
    // [::1], both "free", and the page Chromium opened at localhost:<port> was the other run's, whose server does
    // not have this test file: "Failed to fetch dynamically imported module" (issue 49; reproduced by a server on
    // [::1]:23315). Not a timing matter, so no timeout or retry fixes it.
    api: { host: '127.0.0.1', port: 0, strictPort: true },
    include: ['test/recipes/vitest-browser/*.browser-test.ts'],
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
})
