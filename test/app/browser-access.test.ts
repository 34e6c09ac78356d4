import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { createNodeApp } from '../../src/node/node-app.ts'
import { startServer } from '../../src/node/server.ts'
import { startCli } from '../support/cli-process.ts'
import { foreignHosts, loopbackHosts } from '../support/host-spellings.ts'

const loopback = { clientAddress: '127.0.0.1' }
const pro = { Authorization: 'Bearer demo-pro-key' }

/** A request as the app sees it from a loopback client; `host` is the URL's authority (what a Fetch request has for Host). */
const send = (app: ReturnType<typeof createApp>, path: string, headers: Record<string, string> = {}, host = 'localhost:4010') =>
  app.fetch(new Request(`http://${host}${path}`, { headers }), loopback)

describe('Host on every request of a simulator bound to loopback (allowedHosts given)', () => {
  it('refuses a foreign Host on the API and the OpenAPI document with 403 host_not_allowed naming the flag, journaled, not counted', async () => {
    const app = createNodeApp({ allowedHosts: [] })
    const api = await send(app, '/v1/pets?limit=1', pro, 'rebound.example:4010')
    expect(api.status).toBe(403)
    expect(api.headers.get('x-ratelimit-remaining')).toBeNull()
    const body = await api.json()
    expect(body).toMatchObject({ code: 'host_not_allowed', status: 403 })
    expect(body.message).toContain('--allowed-host rebound.example')
    const document = await send(app, '/openapi.json', {}, 'rebound.example:4010')
    expect(document.status).toBe(403)
    expect((await document.json()).code).toBe('host_not_allowed')
    // The API's refusal is journaled (the document is not the API's), and nothing is counted.
    expect(app.simulator.journal.entries().map(({ path, status, plan }) => ({ path, status, plan }))).toEqual([
      { path: '/v1/pets?limit=1', status: 403, plan: 'pro' },
    ])
    expect(app.simulator.state().keys.find((key) => key.plan === 'pro')?.minute).toMatchObject({ used: 0 })
  })

  it('accepts loopback names, the names given (exact, or .domain with its subdomains), and any with *', async () => {
    const app = createApp({ allowedHosts: ['sim.test', '.preview.example'] })
    for (const host of [
      'localhost:4010',
      '127.0.0.1:4010',
      '[::1]:4010',
      'app.localhost',
      'SIM.test:80',
      'preview.example',
      'a.b.preview.example',
    ]) {
      expect((await send(app, '/v1/pets?limit=1', pro, host)).status, host).toBe(200)
    }
    for (const host of ['sim.test.evil', 'localhost.evil.example', 'notpreview.example', '127.0.0.1.evil.example']) {
      expect((await send(app, '/v1/pets?limit=1', pro, host)).status, host).toBe(403)
    }
    const any = createApp({ allowedHosts: ['*'] })
    expect((await send(any, '/v1/pets?limit=1', pro, 'rebound.example')).status).toBe(200)
  })

  it('checks no Host when allowedHosts is not given (the library default: the app cannot know where it is served)', async () => {
    expect((await send(createApp(), '/v1/pets?limit=1', pro, 'rebound.example')).status).toBe(200)
  })
})

describe('cross-site browser requests without Origin (no-cors <img>, <script>)', () => {
  const image = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }

  it('are refused before the limiter: 80 <img> requests cannot get the anonymous bucket banned', async () => {
    const app = createApp({})
    for (let index = 0; index < 80; index++) {
      const refused = await send(app, `/v1/pets?img=${index}`, image)
      expect(refused.status).toBe(403)
      expect(refused.headers.get('access-control-allow-origin')).toBeNull()
      expect(await refused.json()).toMatchObject({ code: 'origin_not_allowed', status: 403 })
    }
    // The developer's own request without a key still gets its 401, not 429 api_key_banned.
    const own = await send(app, '/v1/pets')
    expect(own.status).toBe(401)
    expect((await own.json()).code).toBe('missing_api_key')
    const journaled = app.simulator.journal.entries()
    expect(journaled).toHaveLength(81)
    expect(journaled.slice(0, 80).every((entry) => entry.status === 403 && entry.caller === 'anonymous')).toBe(true)
  })

  it.each([['direct'], ['msw']] as const)('are refused on the Node server too [engine %s], counted against nothing', async (engine) => {
    const server = await startServer({ app: createNodeApp({}), port: 0, host: '127.0.0.1', log: 'silent', engine })
    try {
      const host = new URL(server.url).host
      for (let index = 0; index < 70; index++) {
        expect((await getWithHost(`${server.apiUrl}/pets?img=${index}`, host, image)).status).toBe(403)
      }
      expect(server.simulator.state().anonymous).toMatchObject({ buckets: 0, banned: 0 })
      expect((await getWithHost(`${server.apiUrl}/pets`, host)).status).toBe(401)
    } finally {
      await server.close(200)
    }
  })

  it('with a key too, and keys of the page are not counted', async () => {
    const app = createApp({ keys: { 'tiny-key': 'enterprise:1/1000' } })
    for (let index = 0; index < 5; index++) {
      expect((await send(app, '/v1/pets', { ...image, Authorization: 'Bearer tiny-key' })).status).toBe(403)
    }
    expect((await send(app, '/v1/pets', { Authorization: 'Bearer tiny-key' })).status).toBe(200)
  })

  it('lets through same-origin, same-site, none (a typed URL), a followed link, clients without the header, and any page with corsOrigins *', async () => {
    const app = createApp({})
    const through: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      {},
    ]
    for (const headers of through) {
      expect((await send(app, '/v1/pets?limit=1', { ...pro, ...headers })).status, JSON.stringify(headers)).toBe(200)
    }
    // A cross-site request with an allowed Origin is the CORS policy's to judge: this machine's pages are allowed.
    expect((await send(app, '/v1/pets?limit=1', { ...pro, ...image, origin: 'http://localhost:5173' })).status).toBe(200)
    expect((await send(createApp({ corsOrigins: ['*'] }), '/v1/pets?limit=1', { ...pro, ...image })).status).toBe(200)
    // In-process there is no page but the app's own.
    const local = await createApp({}).fetch(new Request('http://localhost/v1/pets?limit=1', { headers: { ...pro, ...image } }), {
      local: true,
    })
    expect(local.status).toBe(200)
  })
})

describe('cross-site top-level navigations (a foreign page that keeps re-navigating a popup)', () => {
  // What Chrome sends for `popup.location = 'http://127.0.0.1:4010/v1/pets?n'` from a page on another site, without a
  // user's click (no Sec-Fetch-User). Issue 38: these were served and counted, so a foreign page could get the
  // anonymous caller of 127.0.0.1 banned, as 80 <img> tags could before.
  const navigation = {
    'sec-fetch-site': 'cross-site',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-dest': 'document',
    'upgrade-insecure-requests': '1',
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  }

  it('are answered as the API answers them (401, no key), journaled, and counted against no bucket', async () => {
    const app = createApp({})
    for (let index = 0; index < 80; index++) {
      const navigated = await send(app, `/v1/pets?n=${index}`, navigation)
      expect(navigated.status).toBe(401)
      expect((await navigated.json()).code).toBe('missing_api_key')
    }
    // The developer's own request without a key still gets its 401, not 429 api_key_banned, with a whole minute left.
    const own = await send(app, '/v1/pets')
    expect(own.status).toBe(401)
    expect((await own.json()).code).toBe('missing_api_key')
    expect(own.headers.get('x-ratelimit-remaining')).toBe('59')
    expect(app.simulator.state().anonymous).toMatchObject({ banned: 0 })
    const journaled = app.simulator.journal.entries()
    expect(journaled).toHaveLength(81)
    expect(journaled.every((entry) => entry.status === 401 && entry.caller === 'anonymous')).toBe(true)
  })

  it.each([['direct'], ['msw']] as const)('are counted against nothing on the Node server [engine %s]', async (engine) => {
    const server = await startServer({ app: createNodeApp({}), port: 0, host: '127.0.0.1', log: 'silent', engine })
    try {
      const host = new URL(server.url).host
      for (let index = 0; index < 70; index++) {
        expect((await getWithHost(`${server.apiUrl}/pets?n=${index}`, host, navigation)).status).toBe(401)
      }
      expect(server.simulator.state().anonymous).toMatchObject({ buckets: 0, banned: 0 })
      expect((await getWithHost(`${server.apiUrl}/pets`, host)).status).toBe(401)
    } finally {
      await server.close(200)
    }
  })

  it('show the bucket as it stands without moving it: a banned caller still sees its 429', async () => {
    const app = createApp({})
    for (let index = 0; index < 70; index++) await send(app, '/v1/pets')
    expect((await send(app, '/v1/pets')).status).toBe(429)
    const before = app.simulator.state().anonymous
    const navigated = await send(app, '/v1/pets', navigation)
    expect(navigated.status).toBe(429)
    expect(app.simulator.state().anonymous).toEqual(before)
  })

  it('count a key as usual (a browser never sends one in a navigation: a client that forges the headers is counted)', async () => {
    const app = createApp({ keys: { 'tiny-key': 'enterprise:2/1000' } })
    const key = { Authorization: 'Bearer tiny-key' }
    expect((await send(app, '/v1/pets', { ...navigation, ...key })).status).toBe(200)
    expect((await send(app, '/v1/pets', { ...navigation, ...key })).status).toBe(200)
    expect((await send(app, '/v1/pets', { ...navigation, ...key })).status).toBe(429)
  })

  it("are counted from this machine: same-site and typed navigations are the developer's own", async () => {
    const app = createApp({})
    await send(app, '/v1/pets', { ...navigation, 'sec-fetch-site': 'same-site' })
    await send(app, '/v1/pets', { ...navigation, 'sec-fetch-site': 'none' })
    expect((await send(app, '/v1/pets')).headers.get('x-ratelimit-remaining')).toBe('57')
  })
})

/** A GET with any Host (fetch cannot send another Host: node:http can). */
function getWithHost(url: string, host: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(url, { headers: { host, ...headers }, timeout: 3000 }, (response) => {
      let body = ''
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    request.on('error', reject).on('timeout', () => request.destroy(new Error('timed out')))
    request.end()
  })
}

describe('Host as sent on the wire (node:http can send any), on the API and the control endpoints', () => {
  // Issue 38: `localhost.`, `127.1` and `[::ffff:127.0.0.1]` were refused while `a..localhost` was accepted. A Fetch
  // Request cannot carry these (its URL makes them canonical), so the Node server gets them as curl sends them.
  it('accepts every loopback spelling and refuses the rest, names with an empty label among them', async () => {
    const server = await startServer({ app: createNodeApp({ allowedHosts: [] }), port: 0, host: '127.0.0.1', log: 'silent' })
    try {
      const port = new URL(server.url).port
      const withPort = (host: string) => (/:\d+$/.test(host) ? host : `${host}:${port}`)
      for (const host of loopbackHosts) {
        expect((await getWithHost(`${server.apiUrl}/pets?limit=1`, withPort(host), pro)).status, host).toBe(200)
        expect((await getWithHost(`${server.url}/__sim/state`, withPort(host))).status, host).toBe(200)
      }
      for (const host of foreignHosts) {
        const api = await getWithHost(`${server.apiUrl}/pets?limit=1`, host, pro)
        expect(api.status, host).toBe(403)
        expect((await getWithHost(`${server.url}/__sim/state`, host)).status, host).toBe(403)
      }
    } finally {
      await server.close(200)
    }
  })
})

describe('the CLI bound to loopback: Host checked on every lane, and --allowed-host opens it', () => {
  it.each([['direct'], ['msw']])('refuses DNS rebinding on the API and the OpenAPI document [--engine %s]', async (engine) => {
    const cli = await startCli(['--port', '0', '--log', 'silent', '--engine', engine, '--allowed-host', 'sim.test'])
    try {
      const port = new URL(cli.origin).port
      const rebound = await getWithHost(`${cli.apiUrl}/pets`, `rebound.example:${port}`, pro)
      expect(rebound.status).toBe(403)
      expect(JSON.parse(rebound.body)).toMatchObject({ code: 'host_not_allowed', status: 403 })
      expect((await getWithHost(`${cli.origin}/openapi.json`, `rebound.example:${port}`)).status).toBe(403)
      expect((await getWithHost(`${cli.apiUrl}/pets`, `sim.test:${port}`, pro)).status).toBe(200)
      expect((await getWithHost(`${cli.apiUrl}/pets`, `localhost:${port}`, pro)).status).toBe(200)
      const { requests } = await (await fetch(`${cli.origin}/__sim/requests`)).json()
      expect(requests.map((entry: { status: number }) => entry.status)).toEqual([403, 200, 200])
    } finally {
      await cli.stop()
    }
  })

  it("--allowed-host '*' accepts any Host, with a warning naming the flag", async () => {
    const cli = await startCli(['--port', '0', '--log', 'silent', '--allowed-host', '*'])
    try {
      const port = new URL(cli.origin).port
      expect((await getWithHost(`${cli.apiUrl}/pets`, `rebound.example:${port}`, pro)).status).toBe(200)
      expect(cli.stderr()).toMatch(/^petstore-sim: warning: --allowed-host '\*' accepts every Host name/)
    } finally {
      await cli.stop()
    }
  })
})

// Issue 39 with issue 38's rules: the first request to a sandbox makes it, and a sandbox counts against a cap (50 by
// default) shared by every job on the simulator. A rebound Host, an <img> of a foreign page, or a popup it keeps
// re-navigating made one before its own app refused or served it: 50 of them filled the cap for 30 minutes.
describe('a sandbox is not made by a request the simulator refuses, nor by a foreign page', () => {
  const image = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }
  const navigation = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }
  const names = (app: ReturnType<typeof createApp>) => app.sandboxes!.list().map((entry) => entry.name)

  it.each([
    ['a rebound Host', {}, 'rebound.example:4010', 403, 'host_not_allowed'],
    ['an <img> of a foreign page', image, 'localhost:4010', 403, 'origin_not_allowed'],
    ['a popup a foreign page navigates', navigation, 'localhost:4010', 403, 'origin_not_allowed'],
  ])('%s', async (_name, headers, host, status, code) => {
    const app = createNodeApp({ allowedHosts: [] })
    const refused = await send(app, '/sandboxes/junk/v1/pets', { ...pro, ...headers }, host)
    expect(refused.status).toBe(status)
    expect((await refused.json()).code).toBe(code)
    for (const path of ['/sandboxes/junk/__sim/state', '/sandboxes/junk/', '/sandboxes/junk/openapi.json']) {
      expect((await send(app, path, { ...pro, ...headers }, host)).status, path).toBe(403)
    }
    expect(names(app)).toEqual([])
  })

  it('still serves a foreign navigation to a sandbox that exists, uncounted, and the own page that makes one', async () => {
    const app = createNodeApp({ allowedHosts: [] })
    expect((await send(app, '/sandboxes/mine/v1/pets?limit=1', pro)).status).toBe(200)
    expect((await send(app, '/sandboxes/mine/v1/pets', navigation)).status).toBe(401)
    expect((await send(app, '/sandboxes/other/v1/pets?limit=1', { ...pro, 'sec-fetch-site': 'same-origin' })).status).toBe(200)
    expect(names(app)).toEqual(['mine', 'other'])
  })
})
