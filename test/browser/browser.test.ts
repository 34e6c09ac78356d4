import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { createServer as createViteServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest'
import { generatePets } from '../../src/core/catalogue/seed-pets.ts'
import { createSimulator } from '../../src/simulator.ts'
import { startCli } from '../support/cli-process.ts'
import { launchChromium } from '../support/chromium.ts'

// Real Chromium (Debian's, at /usr/bin/chromium; `npm test` installs it when
// missing) drives a page served by Vite, in both ways a frontend uses
// petstore-sim: the handlers under setupWorker in the page, and the
// standalone CLI on another origin.
const browserDir = fileURLToPath(new URL('./', import.meta.url))
const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url))
const screenshotDir = fileURLToPath(new URL('../test-output/screenshots/', import.meta.url))
const seed = 7
const seededPets = generatePets({ seed, count: 50 })

let vite: ViteDevServer
let pageOrigin: string
let browser: Browser
let cli: Awaited<ReturnType<typeof startCli>>
let page: Page

beforeAll(async () => {
  // The recipe (docs/recipes.md): put msw's worker script in the app's public directory.
  const init = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('../../node_modules/msw/cli/index.js', import.meta.url)), 'init', 'test/browser/public'],
    { cwd: repositoryRoot, encoding: 'utf8' },
  )
  if (init.status !== 0) throw new Error(`msw init failed: ${init.stderr}`)
  vite = await createViteServer({ root: browserDir, configFile: false, logLevel: 'error', server: { host: '127.0.0.1', port: 0 } })
  await vite.listen()
  pageOrigin = vite.resolvedUrls!.local[0]!.replace(/\/$/, '')
  browser = await launchChromium()
  cli = await startCli([
    '--port',
    '0',
    '--log',
    'silent',
    '--seed',
    String(seed),
    '--key',
    'browser-key=pro',
    '--key',
    'browser-tiny-key=enterprise:2/100',
  ])
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await vite?.close()
  await cli?.stop()
})

beforeEach(async (context) => {
  // Pages stay open until the browser closes, so a failed test's page can still be photographed.
  page = await browser.newPage()
  const thisPage = page
  onTestFailed(async () => {
    mkdirSync(screenshotDir, { recursive: true })
    await thisPage.screenshot({ path: `${screenshotDir}${context.task.name.replace(/\W+/g, '-')}.png`, fullPage: true })
  })
})

async function open(query: string): Promise<void> {
  await page.goto(`${pageOrigin}/?${query}`)
  await page.waitForFunction(() => window.petstore?.ready === true, undefined, { timeout: 20_000 })
}

type PageInit = { method?: string; body?: string; key?: string | null; headers?: Record<string, string>; credentials?: RequestCredentials }
const call = (path: string, init: PageInit = {}) => page.evaluate(([path, init]) => window.petstore.call(path, init), [path, init] as const)
const attempt = (path: string, init: PageInit = {}) =>
  page.evaluate(([path, init]) => window.petstore.attempt(path, init), [path, init] as const)

const renderedPets = () =>
  page.$$eval('#pets li', (items) => items.map((item) => ({ id: Number((item as HTMLElement).dataset.id), text: item.textContent })))

const expectedFirstTen = seededPets.slice(0, 10).map((pet) => ({ id: pet.id, text: `${pet.name} (${pet.status})` }))

describe('in-browser mocking with setupWorker', () => {
  it('renders the seeded list, answered by the service worker', async () => {
    await open(`mode=worker&seed=${seed}`)
    expect(await renderedPets()).toEqual(expectedFirstTen)
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
    expect(await page.textContent('#rate-limit')).toBe('299 of 300 requests left')
  })

  it('creates a pet, then reads it, with the deprecation headers', async () => {
    await open(`mode=worker&seed=${seed}`)
    const created = await call('/pets', {
      method: 'POST',
      body: '{"name":"Browser Bella","categoryId":2}',
      headers: { 'content-type': 'application/json' },
    })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ id: 51, name: 'Browser Bella', categoryId: 2, status: 'available' })
    expect(created.headers.location).toBe('/v1/pets/51')
    const read = await call('/pets/51')
    expect(read.body).toEqual(created.body)
    expect(read.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  })

  it('answers 401 without a key', async () => {
    await open(`mode=worker&seed=${seed}`)
    const answer = await call('/pets', { key: null })
    expect(answer.status).toBe(401)
    expect(answer.body).toMatchObject({ code: 'missing_api_key', status: 401 })
    expect(answer.headers['x-ratelimit-limit']).toBe('60')
  })

  it('answers 429 with Retry-After to a low-limit key, and the page reads the headers', async () => {
    await open(`mode=worker&seed=${seed}`)
    const answers = []
    for (let index = 0; index < 3; index++) answers.push(await call('/pets?limit=1', { key: 'browser-tiny-key' }))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429])
    const refused = answers[2]!
    expect(refused.body).toMatchObject({ code: 'rate_limit_exceeded', status: 429 })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(refused.headers['x-ratelimit-remaining']).toBe('0')
    expect(refused.headers['x-ratelimit-limit']).toBe('2')
  })
})

describe('error states on demand, in the page', () => {
  beforeEach(async () => {
    // A fresh CLI simulator: no counts, and no fault rules (reset clears those added at run time).
    await fetch(`${cli.origin}/__sim/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } })
  })

  it('under setupWorker: a fault rule added through simulator.faults fails the next fetch with a network error, and a 503 is readable', async () => {
    await open(`mode=worker&seed=${seed}`)
    await page.evaluate(() => window.petstore.addFault({ operation: 'listPets', fault: 'reset', times: 1 }))
    expect(await attempt('/pets?limit=1')).toEqual({ error: 'TypeError' })
    const id = await page.evaluate(() => window.petstore.addFault({ operation: 'getPet', status: 503, times: 1 }))
    const unavailable = await call('/pets/1')
    expect(unavailable.status).toBe(503)
    expect(unavailable.headers['petstore-sim-fault']).toBe(id)
    expect(Number(unavailable.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect((await call('/pets/1')).status).toBe(200)
  })

  it('from another origin: tracing headers, credentials and Prefer: code=429 give a forced 429 the page can read', async () => {
    await open(`mode=remote&api=${encodeURIComponent(cli.apiUrl)}`)
    const forced = await call('/pets?limit=1', {
      credentials: 'include',
      headers: {
        Prefer: 'code=429',
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        'X-Request-Id': 'req-42',
        'sentry-trace': '4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1',
        baggage: 'sentry-environment=test',
      },
    })
    expect(forced.status).toBe(429)
    expect(forced.body).toMatchObject({ code: 'rate_limit_exceeded', status: 429 })
    expect(Number(forced.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(forced.headers['x-ratelimit-remaining']).toBe('0')
    expect(forced.headers['preference-applied']).toBe('code=429')
  })

  it("from another origin: a fault rule set over /__sim/faults fails the page's next fetch with a network error", async () => {
    await open(`mode=remote&api=${encodeURIComponent(cli.apiUrl)}`)
    // No `times`: Chromium retries a GET once when a kept-alive connection is reset before any answer, so a
    // rule that fires only once is hidden from the page by that retry.
    const added = await fetch(`${cli.origin}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'listPets', fault: 'reset' }),
    })
    expect(added.status).toBe(201)
    const { ids } = (await added.json()) as { ids: string[] }
    expect(await attempt('/pets?limit=1')).toEqual({ error: 'TypeError' })
    expect((await fetch(`${cli.origin}/__sim/faults/${ids[0]}`, { method: 'DELETE' })).status).toBe(200)
    expect((await call('/pets?limit=1')).status).toBe(200)
  })

  it('from another origin: a 413 for a body over the limit is readable, not a CORS failure', async () => {
    await open(`mode=remote&api=${encodeURIComponent(cli.apiUrl)}`)
    const tooLarge = await call('/pets', {
      method: 'POST',
      body: JSON.stringify({ name: 'Big', categoryId: 1, padding: 'x'.repeat(1_100_000) }),
      headers: { 'content-type': 'application/json' },
    })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.body).toMatchObject({ code: 'payload_too_large', status: 413 })
  })
})

describe('cross-origin use of the standalone CLI', () => {
  beforeEach(async () => {
    await fetch(`${cli.origin}/__sim/faults`, { method: 'DELETE' })
    await fetch(`${cli.origin}/__sim/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } })
  })

  it('renders the list from another origin, reading the rate-limit headers', async () => {
    expect(new URL(cli.apiUrl).origin).not.toBe(pageOrigin)
    await open(`mode=remote&api=${encodeURIComponent(cli.apiUrl)}`)
    expect(await renderedPets()).toEqual(expectedFirstTen)
    expect(await page.textContent('#rate-limit')).toBe('299 of 300 requests left')
  })

  it('creates and reads with a key, every exposed header readable, preflights not counted', async () => {
    await open(`mode=remote&api=${encodeURIComponent(cli.apiUrl)}`)
    const created = await call('/pets', {
      method: 'POST',
      body: '{"name":"Remote Rex","categoryId":1,"status":"pending"}',
      headers: { 'content-type': 'application/json' },
    })
    expect(created.status).toBe(201)
    expect(created.headers.location).toBe('/v1/pets/51')
    const read = await call('/pets/51')
    expect(read.body).toEqual({ id: 51, name: 'Remote Rex', categoryId: 1, status: 'pending' })
    expect(read.headers).toMatchObject({
      'content-type': 'application/json',
      'x-ratelimit-limit': '300',
      deprecation: '@1764892800',
      sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      link: '</v1/pets>; rel="successor-version"',
    })
    // Three API requests so far (the page's list, the create, the read): the preflights the
    // Authorization header caused were answered without a key and not counted.
    expect(read.headers['x-ratelimit-remaining']).toBe('297')
    const { requests } = await (await fetch(`${cli.origin}/__sim/requests`)).json()
    expect(requests.map((entry: { method: string }) => entry.method)).toEqual(['GET', 'POST', 'GET'])
  })

  it('lets the page read a 401 and a 429 with Retry-After', async () => {
    await open(`mode=remote&api=${encodeURIComponent(cli.apiUrl)}`)
    const unauthorized = await call('/pets', { key: null })
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.body).toMatchObject({ code: 'missing_api_key' })
    const answers = []
    for (let index = 0; index < 3; index++) answers.push(await call('/pets?limit=1', { key: 'browser-tiny-key' }))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429])
    expect(Number(answers[2]!.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(answers[2]!.headers['x-ratelimit-remaining']).toBe('0')
  })

  it('is really subject to CORS: a server without CORS headers is unreadable from the page', async () => {
    const bare: Server = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '1' }).end('[]')
    })
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve))
    try {
      const bareApi = `http://127.0.0.1:${(bare.address() as { port: number }).port}/v1`
      await open(`mode=remote&api=${encodeURIComponent(cli.apiUrl)}`)
      const outcome = await page.evaluate(async (url) => {
        try {
          await fetch(`${url}/pets`, { headers: { Authorization: 'Bearer x' } })
          return 'readable'
        } catch (error) {
          return `blocked: ${(error as Error).name}`
        }
      }, bareApi)
      expect(outcome).toBe('blocked: TypeError')
    } finally {
      bare.close()
    }
  })
})

describe('snapshots between runtimes', () => {
  it('a snapshot taken in Node restores in the page under setupWorker, and the page’s restores in Node', async () => {
    const node = createSimulator({ seed, keys: { 'browser-key': 'pro', 'browser-tiny-key': 'enterprise:2/100' } })
    node.store.create({ name: 'Made in Node', categoryId: 5, status: 'pending' })
    node.clock.advance(86_400_000)
    node.faults.add({ operation: 'getPet', status: 503, times: 3 })
    await open(`mode=worker&seed=${seed}`)
    await page.evaluate((data) => window.petstore.restore(data), JSON.parse(JSON.stringify(node.snapshot())))
    expect((await call('/pets/51')).status).toBe(503)
    await page.evaluate(() => window.petstore.addFault({ operation: 'createPet', status: 500, times: 1 }))
    const created = await call('/pets', { method: 'POST', body: JSON.stringify({ name: 'Made in Chromium', categoryId: 1 }) })
    expect(created.status).toBe(500)
    const fromPage = await page.evaluate(() => window.petstore.snapshot())
    const back = createSimulator({ seed: 1, pets: 0 })
    back.restore(fromPage)
    expect(back.store.get(51)).toEqual({ id: 51, name: 'Made in Node', categoryId: 5, status: 'pending' })
    expect(back.faults.list()).toEqual([{ id: 'f1', operation: 'getPet', status: 503, remaining: 2 }])
    expect(Math.abs(back.clock.now() - node.clock.now())).toBeLessThan(60_000)
  })
})
