// Not in the docs: beside docs/sharing.md's spec, 10 tests that fail on purpose, each after changing its sandbox,
// between 10 healthy ones. Playwright replaces the worker after each failure (a new workerIndex, the same
// parallelIndex): the healthy ones must still pass, each in a fresh sandbox, under a cap of 3 sandboxes.
import { expect } from '@playwright/test'
import { test } from 'petstore-sim/playwright'

const headers = { authorization: 'Bearer team-e2e-key' }

for (let round = 1; round <= 10; round++) {
  test(`fails on purpose after adding a pet (${round})`, async ({ request, petstoreApi }) => {
    const created = await request.post(`${petstoreApi}/pets`, { headers, data: { name: `Broken ${round}`, categoryId: 1 } })
    expect(created.status()).toBe(201)
    expect(round, 'a deliberate failure').toBe(0)
  })

  test(`starts from the scenario after a failure (${round})`, async ({ request, petstoreApi }) => {
    const listed = await request.get(`${petstoreApi}/pets?limit=100`, { headers })
    expect(listed.status()).toBe(200)
    expect(await listed.json()).toHaveLength(50)
    const created = await request.post(`${petstoreApi}/pets`, { headers, data: { name: 'Rex', categoryId: 1 } })
    expect((await created.json()).id).toBe(51)
  })
}
