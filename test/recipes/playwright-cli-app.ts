// Not part of the recipe: the stand-in app of playwright-demo-app.ts for the CLI recipe (playwright-cli.cli-e2e.ts),
// served on a free port and set as `baseURL`, without the per-worker simulators of the other recipe.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test as base } from '@playwright/test'
import { demoAppPage } from './playwright-demo-page.ts'

export const test = base.extend<object, { demoAppUrl: string }>({
  demoAppUrl: [
    async ({}, use) => {
      const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(demoAppPage))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
      await new Promise((resolve) => server.close(resolve))
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ demoAppUrl }, use) => use(demoAppUrl),
})

export { expect } from '@playwright/test'
