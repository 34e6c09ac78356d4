// app.spec.ts: every test in its worker's own sandbox of one simulator, fresh (reset) when the test starts.
import { expect } from '@playwright/test'
import { test } from 'petstore-sim/playwright'

test('adds a pet to a fresh catalogue', async ({ request, petstoreApi }) => {
  const headers = { authorization: 'Bearer team-e2e-key' } // the sandbox's own key (playwright.config.ts)
  expect(await (await request.get(`${petstoreApi}/pets?limit=100`, { headers })).json()).toHaveLength(50)
  const created = await request.post(`${petstoreApi}/pets`, { headers, data: { name: 'Rex', categoryId: 1 } })
  expect(created.status()).toBe(201)
  expect((await created.json()).id).toBe(51) // the sandbox's own ids: no other worker took 51
  const listed = await request.get(`${petstoreApi}/pets?limit=100`, { headers })
  expect(await listed.json()).toHaveLength(51)
  expect(listed.headers()['x-ratelimit-remaining']).toBe('297') // list, create, list: this test's requests only
})
