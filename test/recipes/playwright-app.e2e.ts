// README recipe: a Playwright test resetting the simulator between tests (type-checked).
import { expect, test } from '@playwright/test'

test.beforeEach(async ({ request }) => {
  await request.post('http://127.0.0.1:4010/__sim/reset')
})

test('shows the catalogue', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('listitem')).toHaveCount(20)
})
