import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp as createApp, startServer, type RunningServer } from '../../src/node.ts'
import { launchChromium } from '../support/chromium.ts'

// The dashboard's scenario selector as a person uses it: Chromium (Debian's, as in dashboard.test.ts) on /__sim/,
// choosing a scenario; the API and GET /__sim/scenario agree. Each wait is bounded.
const wait = { timeout: 10_000 }

let browser: Browser
let server: RunningServer

beforeAll(async () => {
  server = await startServer({ app: createApp({ seed: 7, pets: 9 }), port: 0, host: '127.0.0.1', log: 'silent' })
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close(200)
})

const getPet = async () => (await fetch(`${server.apiUrl}/pets/1`, { headers: { authorization: 'Bearer demo-pro-key' } })).status
const active = async () => ((await (await fetch(`${server.url}/__sim/scenario`)).json()) as { active: string }).active

describe('the dashboard’s scenario selector in Chromium', () => {
  it('lists the scenarios, switches to sunset and empty, and follows a switch made elsewhere', async () => {
    const page: Page = await browser.newPage()
    await page.goto(`${server.url}/__sim/`)
    await page.locator('#conn', { hasText: 'live' }).waitFor(wait)
    const selector = page.getByLabel('Scenario')
    await expect
      .poll(() => selector.locator('option').allTextContents(), wait)
      .toEqual(['default', 'empty', 'all-sold', 'sunset', 'rate-limited', 'degraded'])
    expect(await selector.inputValue()).toBe('default')
    expect(await getPet()).toBe(200)

    await selector.selectOption('sunset')
    await expect.poll(active, wait).toBe('sunset')
    expect(await getPet()).toBe(410)
    await page.locator('#clock-now', { hasText: '2030-12-06' }).waitFor(wait)

    await selector.selectOption('empty')
    await expect.poll(active, wait).toBe('empty')
    await expect.poll(() => page.textContent('#counts'), wait).toContain('0 pets')

    // Switched by another client: the selector follows.
    await fetch(`${server.url}/__sim/scenario`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"all-sold"}',
    })
    await expect.poll(() => selector.inputValue(), wait).toBe('all-sold')
    await page.close()
  })
})
