import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { launchChromium } from '../support/chromium.ts'

// The client report on the dashboard (docs/grading-clients.md), in Chromium: each caller's verdict, its findings,
// and links to the first offending requests in the journal. Each wait is bounded.
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

it("shows each caller's verdict and findings, linked to the offending requests", async () => {
  const key = { authorization: 'Bearer demo-pro-key' }
  expect((await fetch(`${server.url}/v1/pets?limit=2`, { headers: key })).status).toBe(200)
  expect((await fetch(`${server.url}/v1/pets?limit=500`, { headers: key })).status).toBe(400)
  const page = await browser.newPage()
  await page.goto(`${server.url}/__sim/`)
  const item = page.locator('#clients li[data-caller]')
  await item.first().waitFor(wait)
  expect(await page.textContent('#clients-summary')).toBe('Fail: 1 callers, 1 violations, 0 advice.')
  const text = await item.first().textContent()
  expect(text).toMatch(/^FAIL demo-pro-key \(pro\) · 2 requests · fits free/)
  expect(text).toContain('invalid-request (1): 1 request: requests refused as malformed (400).')
  const link = item.first().getByRole('link', { name: '#2' })
  expect(await link.getAttribute('href')).toBe('/__sim/requests?since=2&until=2')
  const linked = await (await fetch(`${server.url}/__sim/requests?since=2&until=2`)).json()
  expect(linked.requests.map((entry: { status: number }) => entry.status)).toEqual([400])
  await page.close()
}, 60_000)
