// Recipe in docs/recipes.md: Playwright against the CLI (`npx petstore-sim` as the webServer), asserting on what the
// app sent: a body field and a header, through the journal's query string. (In the docs it imports `test` from
// '@playwright/test'; here the stand-in app adds itself to it.) Run by playwright-cli.test.ts.
import { expect, test } from './playwright-cli-app.ts'

const simulator = process.env.PETSTORE_SIM_URL ?? 'http://127.0.0.1:4010' // the CLI's URL

test.beforeEach(async ({ request }) => {
  // One simulator for the run: each test starts from the initial catalogue and an empty journal.
  expect((await request.post(`${simulator}/__sim/reset`, { headers: { 'content-type': 'application/json' } })).ok()).toBe(true)
})

test('the app creates Rex and sends its correlation header', async ({ page, request }) => {
  await page.goto(`/?api=${encodeURIComponent(`${simulator}/v1`)}`)
  await expect(page.getByRole('listitem')).toHaveCount(50)
  await page.getByRole('button', { name: 'Add Rex' }).click()

  // WireMock's verify(postRequestedFor(…).withRequestBody(matchingJsonPath("$.name", equalTo("Rex"))).withHeader(…)):
  const seen = await request.get(`${simulator}/__sim/requests/wait`, {
    params: { operation: 'createPet', 'body.name': 'Rex', 'header.x-correlation-id': 'add-rex', timeoutMs: 5000 },
  })
  expect(seen.status(), await seen.text()).toBe(200) // a 404's message names what was sent instead
  const count = await request.get(`${simulator}/__sim/requests/count`, {
    params: { body: JSON.stringify({ name: 'Rex', categoryId: 1 }), 'header.authorization:present': 'true' },
  })
  expect(await count.json()).toEqual({ count: 1 })
})
