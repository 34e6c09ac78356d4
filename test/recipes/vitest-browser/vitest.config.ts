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
