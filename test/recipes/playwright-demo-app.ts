// Not part of the recipe: a stand-in for the user's app, so that the recipe
// runs here. One tiny page per worker, on a free port, set as `baseURL`; it
// lists the pets of the API named by its `?api=` parameter and adds one on
// a click. Each test is also annotated with its worker's API URL, so the
// runner's report shows which simulator served it.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test as recipeTest } from './playwright-fixtures.ts'
import { demoAppPage } from './playwright-demo-page.ts'

export const test = recipeTest.extend<object, { demoAppUrl: string }>({
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
  petstore: async ({ petstore }, use, testInfo) => {
    testInfo.annotations.push({ type: 'petstore-api', description: petstore.apiUrl })
    await use(petstore)
  },
})

export { expect } from './playwright-fixtures.ts'
