import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { launchChromium } from '../support/chromium.ts'

// The sandboxes on the dashboard (docs/sharing.md), in Chromium: the default world's page lists them with a link to
// each one's own page, whose controls act on that sandbox alone. Each wait is bounded.
const wait = { timeout: 10_000 }
let browser: Browser
let server: RunningServer

beforeAll(async () => {
  server = await startServer({ app: createNodeApp({ seed: 7 }), port: 0, host: '127.0.0.1', log: 'silent' })
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close(200)
})

it("lists the sandboxes, links to each one's dashboard, and resets a sandbox alone from its page", async () => {
  const created = await fetch(`${server.url}/sandboxes/team-a/v1/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  })
  expect(created.status).toBe(201)
  const page = await browser.newPage()
  await page.goto(`${server.url}/__sim/`)
  await page.locator('#conn', { hasText: 'live' }).waitFor(wait)
  const item = page.locator('#sandboxes li[data-sandbox="team-a"]')
  await item.waitFor(wait)
  expect(await item.textContent()).toContain('51 pets · 1 requests')
  expect(await page.textContent('#sandboxes-summary')).toContain('1 of at most 50 sandboxes')
  expect(await page.textContent('#counts')).toContain('0 requests')

  await item.getByRole('link', { name: 'team-a' }).click()
  await page.waitForURL(`${server.url}/sandboxes/team-a/__sim/`, wait)
  await page.locator('#conn', { hasText: 'live' }).waitFor(wait)
  await page.locator('#counts', { hasText: '1 requests' }).waitFor(wait)
  expect(await page.textContent('#counts')).toContain('51 pets')
  // A sandbox's page lists no sandboxes: it has no /__sim/sandboxes of its own.
  expect(await page.locator('#sandboxes-panel').isHidden()).toBe(true)
  await page.getByRole('button', { name: 'Reset' }).first().click()
  await page.locator('#counts', { hasText: '50 pets' }).waitFor(wait)
  const sandbox = await (await fetch(`${server.url}/sandboxes/team-a/__sim/state`)).json()
  expect(sandbox.pets).toBe(50)
  expect(server.simulator.store.size).toBe(50)
  expect(server.simulator.journal.count()).toBe(0)
  await page.close()
}, 60_000)
