// The setupWorker page of test/browser (test/browser/main.ts), in Debian's
// Chromium, on the msw 2 under test (vitest.msw2.config.ts): that msw's
// `msw init` writes the worker script, and the page's `msw` and
// `msw/browser` imports resolve to it.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { createServer as createViteServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { generatePets } from '../../src/core/catalogue/seed-pets.ts'
import { launchChromium } from '../support/chromium.ts'

const mswPackage = process.env.PETSTORE_SIM_MSW_PACKAGE!
const root = fileURLToPath(new URL('../../', import.meta.url))
const workDir = fileURLToPath(new URL(`../../test-output/msw2/${mswPackage}/`, import.meta.url))
const publicDir = `${workDir}public`
const mswVersion: string = createRequire(import.meta.url)(`${mswPackage}/package.json`).version
const seed = 7

let vite: ViteDevServer
let pageOrigin: string
let browser: Browser
let page: Page

beforeAll(async () => {
  rmSync(workDir, { recursive: true, force: true })
  mkdirSync(publicDir, { recursive: true })
  // msw 2's own worker script, from its own `msw init` (--no-save: leave package.json alone).
  const init = spawnSync(process.execPath, [`node_modules/${mswPackage}/cli/index.js`, 'init', publicDir, '--no-save'], {
    cwd: root,
    encoding: 'utf8',
  })
  if (init.status !== 0) throw new Error(`msw init failed: ${init.stderr}`)
  vite = await createViteServer({
    root: fileURLToPath(new URL('../browser/', import.meta.url)),
    publicDir,
    cacheDir: `${workDir}vite-cache`, // not the shared node_modules/.vite: both msw 2 runs start a server at once
    configFile: false,
    logLevel: 'error',
    resolve: {
      alias: [
        { find: /^msw$/, replacement: mswPackage },
        { find: /^msw\/browser$/, replacement: fileURLToPath(new URL('./setup-worker.ts', import.meta.url)) },
        { find: /^msw-2-under-test\/browser$/, replacement: `${mswPackage}/browser` },
      ],
    },
    server: { host: '127.0.0.1', port: 0 },
  })
  await vite.listen()
  pageOrigin = vite.resolvedUrls!.local[0]!.replace(/\/$/, '')
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await vite?.close()
})

beforeEach(async () => {
  page = await browser.newPage()
  await page.goto(`${pageOrigin}/?mode=worker&seed=${seed}`)
  await page.waitForFunction(() => window.petstore?.ready === true, undefined, { timeout: 20_000 })
})

const call = (path: string, init: { method?: string; body?: string; key?: string | null; headers?: Record<string, string> } = {}) =>
  page.evaluate(([path, init]) => window.petstore.call(path, init), [path, init] as const)

it('is controlled by the worker script of the msw 2 under test', async () => {
  const scriptUrl = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)
  expect(scriptUrl).toBe(`${pageOrigin}/mockServiceWorker.js`)
  expect(mswVersion).toMatch(/^2\./)
  expect(readFileSync(`${publicDir}/mockServiceWorker.js`, 'utf8')).toContain(`const PACKAGE_VERSION = '${mswVersion}'`)
  // And the page's `msw` and `msw/browser` were bundled by Vite from that package.
  const { optimized } = JSON.parse(readFileSync(`${workDir}vite-cache/deps/_metadata.json`, 'utf8')) as {
    optimized: Record<string, { src: string }>
  }
  expect(optimized.msw?.src).toContain(`node_modules/${mswPackage}/`)
  expect(optimized['msw-2-under-test/browser']?.src).toContain(`node_modules/${mswPackage}/`)
})

it('renders the seeded list, answered in the page', async () => {
  const rendered = await page.$$eval('#pets li', (items) => items.map((item) => item.textContent))
  expect(rendered).toEqual(generatePets({ seed, count: 10 }).map((pet) => `${pet.name} (${pet.status})`))
  expect(await page.textContent('#rate-limit')).toBe('299 of 300 requests left')
})

it('creates a pet, then reads it, with the deprecation headers', async () => {
  const created = await call('/pets', {
    method: 'POST',
    body: '{"name":"Browser Bella","categoryId":2}',
    headers: { 'content-type': 'application/json' },
  })
  expect(created.status).toBe(201)
  expect(created.body).toEqual({ id: 51, name: 'Browser Bella', categoryId: 2, status: 'available' })
  const read = await call('/pets/51')
  expect(read.body).toEqual(created.body)
  expect(read.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
})

it('answers 401 without a key and 429 with Retry-After past a limit, with the rate-limit headers', async () => {
  const unauthorized = await call('/pets', { key: null })
  expect(unauthorized.status).toBe(401)
  expect(unauthorized.body).toMatchObject({ code: 'missing_api_key', status: 401 })
  expect(unauthorized.headers['x-ratelimit-limit']).toBe('60')
  const answers = []
  for (let index = 0; index < 3; index++) answers.push(await call('/pets?limit=1', { key: 'browser-tiny-key' }))
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429])
  expect(Number(answers[2]!.headers['retry-after'])).toBeGreaterThanOrEqual(1)
  expect(answers[2]!.headers['x-ratelimit-remaining']).toBe('0')
})
