// Recipe in docs/recipes.md: a Playwright spec whose app talks to its worker's own simulator.
// (In the docs it imports `test` from './fixtures.ts'; here the stand-in app adds itself to it.)
import { expect, test } from './playwright-demo-app.ts'

// Several tests change the catalogue at once, in parallel workers: each sees only its own simulator.
test.describe.configure({ mode: 'parallel' })

for (const round of [1, 2, 3, 4]) {
  test(`adds a pet to a fresh catalogue (${round})`, async ({ page, petstore }) => {
    await page.goto(`/?api=${encodeURIComponent(petstore.apiUrl)}`) // tell your app where this worker's API is
    await expect(page.getByRole('listitem')).toHaveCount(50)
    await page.getByRole('button', { name: 'Add Rex' }).click()
    await expect(page.getByRole('listitem')).toHaveCount(51)
    await expect(page.getByRole('listitem').last()).toHaveText('51 Rex')
    await expect(page.locator('#quota')).toHaveText('297 requests left') // list, create, list: this test's requests only
  })
}
