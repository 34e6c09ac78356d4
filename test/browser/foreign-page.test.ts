import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { launchChromium } from '../support/chromium.ts'

// A page of another site in a real Chromium (issue 26): its <img> tags are no-cors requests without Origin, marked
// Sec-Fetch-Site: cross-site. The page is served from 127.0.0.2 (another site than 127.0.0.1, and still loopback:
// Chromium's Local Network Access blocks a public page's requests to loopback, so a page from a public name cannot
// stand in for the attack on this closed network); its images go to the simulator on 127.0.0.1. Every wait is bounded.

let browser: Browser
let server: RunningServer
let pages: Server
let pageOrigin = ''
beforeAll(async () => {
  browser = await launchChromium()
  server = await startServer({ port: 0, host: '127.0.0.1', log: 'silent', app: createNodeApp({ allowedHosts: [] }) })
  const images = Array.from({ length: 80 }, (_, index) => `<img src="${server.apiUrl}/pets?img=${index}">`).join('')
  pages = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>${images}`))
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.2', resolve))
  pageOrigin = `http://127.0.0.2:${(pages.address() as AddressInfo).port}`
})
afterAll(async () => {
  await browser?.close()
  await server?.close(100)
  await new Promise((resolve) => pages?.close(resolve))
})

describe('a foreign page in Chromium', () => {
  it('cannot get the anonymous bucket banned with 80 <img> tags: refused, journaled, and the own no-key request still gets 401', {
    timeout: 20_000,
  }, async () => {
    const page = await browser.newPage()
    try {
      await page.goto(`${pageOrigin}/`)
      const deadline = Date.now() + 10_000
      let count = 0
      while (count < 80 && Date.now() < deadline) {
        count = ((await (await fetch(`${server.url}/__sim/requests/count`)).json()) as { count: number }).count
        if (count < 80) await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(count).toBe(80)
      // What the developer sees next: their own no-key request gets its 401, not 429 api_key_banned.
      const own = await fetch(`${server.apiUrl}/pets`)
      expect(own.status).toBe(401)
      expect(((await own.json()) as { code: string }).code).toBe('missing_api_key')
      const { requests } = (await (await fetch(`${server.url}/__sim/requests`)).json()) as {
        requests: { status: number; response: { body: { text: string } } }[]
      }
      // The 80 images, refused, then the developer's own request.
      expect(requests.map((entry) => entry.status)).toEqual([...Array.from({ length: 80 }, () => 403), 401])
      expect(JSON.parse(requests[0]!.response.body.text)).toMatchObject({ code: 'origin_not_allowed', status: 403 })
    } finally {
      await page.close()
    }
  })
})
