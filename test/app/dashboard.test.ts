import { mkdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { fingerprint } from '../../src/core/access/fingerprint.ts'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { launchChromium } from '../support/chromium.ts'

// The dashboard as a person uses it (issue #12, item 5): Chromium (Debian's, at /usr/bin/chromium, driven by
// playwright-core as in browser.test.ts) shows /__sim/ while a second browser context sends API requests. Each
// wait is bounded; the screenshots of the known states go to test-output/screenshots/dashboard-*.png.
const screenshotDir = fileURLToPath(new URL('../test-output/screenshots/', import.meta.url))
const proKey = fingerprint('demo-pro-key')
const wait = { timeout: 10_000 }

let browser: Browser
let server: RunningServer
let dashboard: Page
let apiContext: BrowserContext
let api: APIRequestContext

beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true })
  server = await startServer({ app: createNodeApp({ seed: 7 }), port: 0, host: '127.0.0.1', log: 'silent' })
  browser = await launchChromium()
  // The app under development: another context, with nothing in common with the dashboard's tab.
  apiContext = await browser.newContext()
  api = apiContext.request
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close(200)
})

async function openDashboard(url: string, viewport = { width: 1280, height: 860 }): Promise<Page> {
  const page = await browser.newPage({ viewport, reducedMotion: 'reduce' })
  onTestFailed(async () => {
    await page.screenshot({ path: `${screenshotDir}dashboard-failed.png`, fullPage: true })
  })
  await page.goto(url)
  await page.locator('#conn', { hasText: 'live' }).waitFor(wait)
  return page
}

const callApi = async (path: string, key = 'demo-pro-key') =>
  (await api.get(`${server.apiUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })).status()
const meter = (page: Page, window: 'minute' | 'day') => page.locator(`[data-key="${proKey}"] [data-window="${window}"]`)
const meterValue = async (page: Page, window: 'minute' | 'day') => Number(await meter(page, window).getAttribute('aria-valuenow'))

describe('the dashboard in Chromium', () => {
  it('shows requests as they arrive, the usage moving, the clock moving it back, a fault, and a reset', async () => {
    dashboard = await openDashboard(`${server.url}/__sim/`)
    const page = dashboard
    await expect.poll(() => page.locator('#keys .key').count(), wait).toBe(4)
    await expect.poll(() => page.textContent('#keys')).toContain('demo-pro-key')

    // Freeze, then set a known instant, as a person would: the button, then the form.
    await page.getByRole('button', { name: 'Freeze' }).click()
    await page.locator('#clock-mode', { hasText: 'frozen' }).waitFor(wait)
    await page.getByLabel('Set to (UTC)').fill('2030-06-15T10:00:30Z')
    await page.getByRole('button', { name: 'Set', exact: true }).click()
    await page.locator('#clock-now', { hasText: '2030-06-15 10:00:30 UTC' }).waitFor(wait)

    // API requests from the other context: the rows appear, the bars move.
    expect([await callApi('/pets?limit=5'), await callApi('/pets/1'), await callApi('/pets?limit=1', 'no-such-key')]).toEqual([
      200, 200, 401,
    ])
    await expect.poll(() => page.locator('#rows tr').count(), wait).toBe(3)
    await expect.poll(() => meterValue(page, 'minute'), wait).toBe(2)
    expect(await meterValue(page, 'day')).toBe(2)
    const newest = page.locator('#rows tr').first()
    expect(await newest.locator('td').nth(3).textContent()).toBe('401')
    expect(await page.locator('#rows tr').nth(2).textContent()).toContain('/v1/pets?limit=5')
    expect(await page.textContent('#counts')).toContain('3 requests: 2 2xx, 1 4xx')

    // Filters: by status class, then by operation.
    await page.getByLabel('Filter by status').selectOption('4')
    expect(await page.locator('#rows tr').count()).toBe(1)
    await page.getByLabel('Filter by status').selectOption('')
    await page.getByLabel('Filter by operation').selectOption('getPet')
    expect(await page.locator('#rows tr').count()).toBe(1)
    await page.getByLabel('Filter by operation').selectOption('')

    // A minute later, from the keyboard: the minute window is fresh, the day's count stays.
    await page.locator('[data-advance="60000"]').focus()
    await page.keyboard.press('Enter')
    await page.locator('#clock-now', { hasText: '2030-06-15 10:01:30 UTC' }).waitFor(wait)
    await expect.poll(() => meterValue(page, 'minute'), wait).toBe(0)
    expect(await meterValue(page, 'day')).toBe(2)

    // A 503 fault from the form: the next API request fails, and its row is marked.
    await page.getByText('Add a fault rule').click()
    await page.locator('select[name="operation"]').selectOption('listPets')
    await page.locator('input[name="status"]').fill('503')
    await page.getByRole('button', { name: 'Add rule' }).click()
    await page.locator('#faults tr[data-rule="f1"]').waitFor(wait)
    expect(await callApi('/pets?limit=2')).toBe(503)
    await expect.poll(() => page.locator('#rows tr').first().getAttribute('data-marker'), wait).toBe('fault f1')
    expect(await page.locator('#rows tr').first().locator('td').nth(3).textContent()).toBe('503')
    await page.screenshot({ path: `${screenshotDir}dashboard-fault.png` })

    // The row's detail.
    await page.locator('#rows tr').first().getByRole('button').click()
    await page.locator('#detail').waitFor({ state: 'visible', ...wait })
    expect(await page.textContent('#detail')).toContain('f1')
    await page.keyboard.press('Escape')
    await page.locator('#detail').waitFor({ state: 'hidden', ...wait })

    // Remove the rule; then force the next request to 429 with one click.
    await page.getByRole('button', { name: 'Remove fault rule f1' }).click()
    await page.locator('#no-faults').waitFor({ state: 'visible', ...wait })
    expect(await callApi('/pets?limit=2')).toBe(200)
    await page.getByRole('button', { name: '429', exact: true }).click()
    await page.locator('#faults tr').first().waitFor(wait)
    expect(await callApi('/pets?limit=2')).toBe(429)
    await expect.poll(() => page.locator('#rows tr').first().getAttribute('data-status'), wait).toBe('429')

    // Reset: no rows, no usage, the clock running again.
    await page.getByRole('button', { name: 'Reset simulator' }).click()
    await page.locator('#no-rows').waitFor({ state: 'visible', ...wait })
    expect(await page.locator('#rows tr').count()).toBe(0)
    await expect.poll(() => meterValue(page, 'day'), wait).toBe(0)
    await page.locator('#clock-mode', { hasText: 'running' }).waitFor(wait)
  })

  it('is a known picture: the screenshot of docs/dashboard.md', async () => {
    const page = dashboard
    await page.getByRole('button', { name: 'Freeze' }).click()
    await page.locator('#clock-mode', { hasText: 'frozen' }).waitFor(wait)
    await page.getByLabel('Set to (UTC)').fill('2030-06-15T10:00:42Z')
    await page.getByRole('button', { name: 'Set', exact: true }).click()
    await page.locator('#clock-now', { hasText: '10:00:42' }).waitFor(wait)
    for (const path of ['/pets?limit=20', '/pets/3', '/pets?status=sold', '/pets?limit=0']) await callApi(path)
    await callApi('/pets', 'demo-free-key')
    await page.getByRole('button', { name: '503', exact: true }).click()
    await page.locator('#faults tr').first().waitFor(wait)
    await callApi('/pets/7')
    await api.post(`${server.apiUrl}/pets`, {
      headers: { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json' },
      data: { name: 'Dashboard Dot', categoryId: 2 },
    })
    await page.locator('input[name="status"]').fill('500')
    await page.locator('input[name="probability"]').fill('0.1')
    await page.locator('select[name="operation"]').selectOption('createPet')
    await page.getByRole('button', { name: 'Add rule' }).click()
    await page.locator('#faults tr[data-rule="f2"]').waitFor(wait)
    await expect.poll(() => page.locator('#rows tr').count(), wait).toBe(7)
    await page.evaluate(() => {
      ;(document.activeElement as HTMLElement | null)?.blur()
      window.scrollTo(0, 0)
    })
    await page.screenshot({ path: `${screenshotDir}dashboard.png` })
    // A phone: one column, nothing wider than the screen.
    const phone = await openDashboard(`${server.url}/__sim/`, { width: 375, height: 740 })
    await expect.poll(() => phone.locator('#rows tr').count(), wait).toBe(7)
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await phone.screenshot({ path: `${screenshotDir}dashboard-phone.png` })
    await phone.close()
  })

  it('reconnects on its own after the simulator restarts', async () => {
    const page = dashboard
    const port = Number(new URL(server.url).port)
    await server.close(200)
    await page.locator('#conn', { hasText: 'reconnecting' }).waitFor(wait)
    server = await startServer({ app: createNodeApp({ seed: 7 }), port, host: '127.0.0.1', log: 'silent' })
    await page.locator('#conn', { hasText: 'live' }).waitFor(wait)
    // The new simulator's picture: an empty journal, a running clock.
    await expect.poll(() => page.locator('#rows tr').count(), wait).toBe(0)
    expect(await callApi('/pets?limit=1')).toBe(200)
    await expect.poll(() => page.locator('#rows tr').count(), wait).toBe(1)
    await page.close()
  })

  it("opens a request's whole exchange, copies it as curl, filters by key, shows coverage and downloads the HAR (issue #16)", async () => {
    const own = await startServer({ app: createNodeApp({ seed: 7 }), port: 0, host: '127.0.0.1', log: 'silent' })
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
      await page.goto(`${own.url}/__sim/`)
      await page.locator('#conn', { hasText: 'live' }).waitFor(wait)
      const created = await api.post(`${own.apiUrl}/pets`, {
        headers: { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json', traceparent: '00-abc-def-01' },
        data: { name: 'Curl Rex', categoryId: 2 },
      })
      expect(created.status()).toBe(201)
      expect((await api.get(`${own.apiUrl}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free-key' } })).status()).toBe(200)
      expect(
        (await api.get(`${own.apiUrl}/pets?limit=1`, { headers: { prefer: 'code=429', authorization: 'Bearer demo-free-key' } })).status(),
      ).toBe(429)
      await expect.poll(() => page.locator('#rows tr').count(), wait).toBe(3)

      // The key's name next to its fingerprint, and the filter by key.
      expect(await page.locator('#rows tr').last().textContent()).toContain(`demo-pro-key (${proKey})`)
      await page.getByLabel('Filter by key').selectOption(fingerprint('demo-free-key'))
      expect(await page.locator('#rows tr').count()).toBe(2)
      await page.getByLabel('Filter by key').selectOption('')

      // The 429's detail: its error code and Retry-After.
      await page.locator('#rows tr').first().getByRole('button').click()
      await page.locator('#detail-exchange', { hasText: 'Response headers' }).waitFor(wait)
      const limited = await page.textContent('#detail')
      expect(limited).toContain('rate_limit_exceeded')
      expect(limited).toMatch(/Retry-After\s*\d+ s/)
      await page.keyboard.press('Escape')

      // The POST's detail: headers and both bodies; copy as curl gives a command that sends the same request.
      await page.locator('#rows tr').last().getByRole('button').click()
      await page.locator('#detail-exchange', { hasText: 'Request body' }).waitFor(wait)
      const detail = await page.textContent('#detail-exchange')
      expect(detail).toContain('traceparent')
      expect(detail).toContain('00-abc-def-01')
      expect(detail).toContain('"name": "Curl Rex"')
      expect(detail).toContain('location')
      await page.getByRole('button', { name: 'Copy as curl' }).click()
      const curl = await page.locator('#curl-text').textContent()
      expect(curl).toContain(`curl -X POST '${own.apiUrl}/pets'`)
      expect(curl).toContain("-H 'authorization: Bearer demo-pro-key'")
      expect(curl).toContain(`--data-raw '{"name":"Curl Rex","categoryId":2}'`)
      await page.keyboard.press('Escape')

      // Coverage: createPet's 201 met, listPets' 429 forced, getPet never answered.
      await page.getByRole('button', { name: 'Refresh coverage' }).click()
      await expect
        .poll(() => page.locator('#coverage-rows tr[data-operation="createPet"][data-status="201"] td').nth(2).textContent(), wait)
        .toBe('1')
      expect(await page.locator('#coverage-rows tr[data-operation="listPets"][data-status="429"] td').nth(4).textContent()).toBe('1')
      expect(await page.locator('#coverage-rows tr[data-operation="getPet"][data-status="200"] td').nth(2).textContent()).toBe('never')
      expect(await page.textContent('#coverage-summary')).toMatch(/^3 of the spec's 13 answers met, and 0 of the simulator's own 7/)

      // The HAR download: the journal's three exchanges.
      const [download] = await Promise.all([
        page.waitForEvent('download', wait),
        page.getByRole('button', { name: 'Download HAR' }).click(),
      ])
      expect(download.suggestedFilename()).toBe('petstore-sim.har')
      const har = JSON.parse(readFileSync((await download.path())!, 'utf8'))
      expect(har.log.entries.map((entry: { request: { method: string } }) => entry.request.method)).toEqual(['POST', 'GET', 'GET'])
      await page.close()
    } finally {
      await own.close(200)
    }
  })

  it('filters the requests by what they carried: a body field, a header, a query parameter (issue 41)', async () => {
    const own = await startServer({ app: createNodeApp({ seed: 7 }), port: 0, host: '127.0.0.1', log: 'silent' })
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
      await page.goto(`${own.url}/__sim/`)
      await page.locator('#conn', { hasText: 'live' }).waitFor(wait)
      for (const [name, correlation] of [
        ['Rex', 'corr-1'],
        ['Rexx', 'corr-2'],
      ]) {
        const headers = { authorization: 'Bearer demo-pro-key', 'x-correlation-id': correlation! }
        expect((await api.post(`${own.apiUrl}/pets`, { headers, data: { name, categoryId: 2 } })).status()).toBe(201)
      }
      expect((await api.get(`${own.apiUrl}/pets?limit=3`, { headers: { authorization: 'Bearer demo-pro-key' } })).status()).toBe(200)
      await expect.poll(() => page.locator('#rows tr').count(), wait).toBe(3)

      const box = page.getByLabel('Filter by request')
      await box.fill('body.name=Rex')
      await expect.poll(() => page.locator('#rows tr').count(), wait).toBe(1)
      expect(await page.locator('#rows tr').first().getAttribute('data-sequence')).toBe('1')
      await box.fill('header.x-correlation-id=corr-2')
      await expect.poll(() => page.locator('#rows tr').first().getAttribute('data-sequence'), wait).toBe('2')
      expect(await page.locator('#rows tr').count()).toBe(1)
      await box.fill('body={"categoryId":2}&header.x-correlation-id:contains=corr')
      await expect.poll(() => page.locator('#rows tr').count(), wait).toBe(2)
      await box.fill('query.limit=3')
      await expect.poll(() => page.locator('#rows tr').first().getAttribute('data-sequence'), wait).toBe('3')
      expect(await page.locator('#rows tr').count()).toBe(1)

      // A request that comes while the box holds a filter is shown once the journal says it matches.
      expect((await api.get(`${own.apiUrl}/pets?limit=3`, { headers: { authorization: 'Bearer demo-pro-key' } })).status()).toBe(200)
      await expect.poll(() => page.locator('#rows tr').count(), wait).toBe(2)

      // A filter the journal refuses says why, and hides nothing.
      await box.fill('body.tags[x]=1')
      await expect.poll(() => page.textContent('#filter-request-error'), wait).toContain('index is [n]')
      await expect.poll(() => page.locator('#rows tr').count(), wait).toBe(4)
      await box.fill('')
      await expect.poll(() => page.textContent('#filter-request-error'), wait).toBe('')
      expect(await page.locator('#rows tr').count()).toBe(4)
      await page.close()
    } finally {
      await own.close(200)
    }
  })

  it('asks once for the admin token, and keeps it for the tab only', async () => {
    const guarded = await startServer({
      app: createNodeApp({ control: { adminToken: 'sesame' } }),
      port: 0,
      host: '127.0.0.1',
      log: 'silent',
    })
    try {
      const page = await browser.newPage()
      await page.goto(`${guarded.url}/__sim/`)
      const dialog = page.getByRole('dialog', { name: 'Admin token' })
      await dialog.waitFor(wait)
      await page.getByRole('textbox', { name: 'Token' }).fill('wrong')
      await page.getByRole('button', { name: 'Use token' }).click()
      await page.locator('#token-error', { hasText: 'refused' }).waitFor(wait)
      await page.getByRole('textbox', { name: 'Token' }).fill('sesame')
      await page.getByRole('button', { name: 'Use token' }).click()
      await page.locator('#conn', { hasText: 'live' }).waitFor(wait)
      expect(await page.evaluate(() => sessionStorage.getItem('petstore-sim-admin-token'))).toBe('sesame')
      expect(await page.evaluate(() => localStorage.length)).toBe(0)
      // Actions carry it too.
      await page.locator('[data-advance="3600000"]').click()
      await expect.poll(() => guarded.simulator.clock.now() - Date.now(), wait).toBeGreaterThan(3_500_000)
      await page.close()
    } finally {
      await guarded.close(200)
    }
  })
})
