// README recipe: Playwright end-to-end tests against the standalone simulator (type-checked).
import { defineConfig } from '@playwright/test'

export default defineConfig({
  webServer: {
    command: 'npx petstore-sim --port 4010 --log silent',
    url: 'http://127.0.0.1:4010/__sim/health', // ready when this answers 200
    reuseExistingServer: !process.env.CI,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5000 },
  },
  use: { baseURL: 'http://127.0.0.1:5173' }, // your app, configured to call http://127.0.0.1:4010/v1
})
