// Recipe in docs/sharing.md: a Playwright spec whose requests go to its worker's own sandbox.
import { expect, test } from './playwright-sandbox-fixtures.ts'

test.describe.configure({ mode: 'parallel' })

for (const round of [1, 2, 3, 4]) {
  test(`adds a pet to a fresh catalogue (${round})`, async ({ request, petstoreApi }, testInfo) => {
    testInfo.annotations.push({ type: 'petstore-api', description: petstoreApi })
    const headers = { authorization: 'Bearer demo-pro-key' }
    expect(await (await request.get(`${petstoreApi}/pets?limit=100`, { headers })).json()).toHaveLength(50)
    const created = await request.post(`${petstoreApi}/pets`, { headers, data: { name: 'Rex', categoryId: 1 } })
    expect(created.status()).toBe(201)
    expect((await created.json()).id).toBe(51) // the sandbox's own ids: no other worker took 51
    const listed = await request.get(`${petstoreApi}/pets?limit=100`, { headers })
    expect(await listed.json()).toHaveLength(51)
    expect(listed.headers()['x-ratelimit-remaining']).toBe('297') // list, create, list: this test's requests only
  })
}
