// Not part of the recipe: a stand-in for the user's app, so that the recipe
// runs here. One tiny page per worker, on a free port, set as `baseURL`; it
// lists the pets of the API named by its `?api=` parameter and adds one on
// a click. Each test is also annotated with its worker's API URL, so the
// runner's report shows which simulator served it.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test as recipeTest } from './playwright-fixtures.ts'

const page = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Pets</title></head>
  <body>
    <p id="quota"></p>
    <ul id="pets"></ul>
    <button id="add">Add Rex</button>
    <script type="module">
      const api = new URLSearchParams(location.search).get('api')
      const headers = { Authorization: 'Bearer demo-pro-key', 'Content-Type': 'application/json' }
      async function render() {
        const response = await fetch(api + '/pets?limit=100', { headers })
        const pets = await response.json()
        document.querySelector('#pets').replaceChildren(...pets.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.id + ' ' + pet.name })))
        document.querySelector('#quota').textContent = response.headers.get('X-RateLimit-Remaining') + ' requests left'
      }
      document.querySelector('#add').addEventListener('click', async () => {
        await fetch(api + '/pets', { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) })
        await render()
      })
      await render()
    </script>
  </body>
</html>`

export const test = recipeTest.extend<object, { demoAppUrl: string }>({
  demoAppUrl: [
    async ({}, use) => {
      const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page))
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
