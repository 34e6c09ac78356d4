import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp as createPortableApp } from '../../src/app/app.ts'
import { createMiddleware, createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { createServer as createHttpServer } from 'node:http'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(control?: { adminToken?: string; allowedHosts?: string[] }): Promise<RunningServer> {
  const server = await startServer({ app: createNodeApp({ control }), port: 0, host: '127.0.0.1', log: 'silent' })
  servers.push(server)
  return server
}

/** A request with headers fetch would not let us set (Host), over node:http. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (incoming) => {
      let text = ''
      incoming
        .setEncoding('utf8')
        .on('data', (chunk: string) => (text += chunk))
        .on('end', () => {
          let body: unknown = text
          try {
            body = JSON.parse(text)
          } catch {
            // Kept as text.
          }
          resolve({ status: incoming.statusCode!, headers: incoming.headers, body })
        })
    })
    outgoing.on('error', reject)
    outgoing.end(options.body)
  })
}

const json = { 'content-type': 'application/json' }

describe('the control plane refuses web pages', () => {
  it('refuses a page on another origin, even a text/plain POST, and nothing moves', async () => {
    const server = await start()
    const before = (await send(`${server.url}/__sim/clock`, {})).body
    const moved = await send(`${server.url}/__sim/clock`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      body: '{"advance":"1d"}',
    })
    expect(moved.status).toBe(403)
    expect(moved.body).toMatchObject({ code: 'foreign_origin', status: 403 })
    expect(moved.headers['access-control-allow-origin']).toBeUndefined()
    const reset = await send(`${server.url}/__sim/reset`, { method: 'POST', headers: { origin: 'https://evil.example', ...json } })
    expect(reset.status).toBe(403)
    expect((await send(`${server.url}/__sim/clock`, {})).body.epochMs - before.epochMs).toBeLessThan(60_000)
  })

  it('grants no CORS to a foreign preflight on /__sim', async () => {
    const server = await start()
    const preflight = await send(`${server.url}/__sim/reset`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(403)
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
  })

  it("serves the simulator's own origin", async () => {
    const server = await start()
    const response = await send(`${server.url}/__sim/health`, { headers: { origin: server.url } })
    expect(response.status).toBe(200)
  })

  it('needs application/json on requests that change state (no CORS-simple request can)', async () => {
    const server = await start()
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }] as Record<
      string,
      string
    >[]) {
      const response = await send(`${server.url}/__sim/reset`, { method: 'POST', headers })
      expect(response.status).toBe(415)
      expect(response.body.code).toBe('unsupported_media_type')
    }
    expect((await send(`${server.url}/__sim/reset`, { method: 'POST', headers: json })).status).toBe(200)
  })

  it('refuses a foreign Host name without an admin token (DNS rebinding), and accepts loopback names and allowed ones', async () => {
    const server = await start({ allowedHosts: ['sim.internal'] })
    const port = new URL(server.url).port
    const rebound = await send(`${server.url}/__sim/reset`, { method: 'POST', headers: { host: `attacker.example:${port}`, ...json } })
    expect(rebound.status).toBe(403)
    expect(rebound.body.code).toBe('control_forbidden')
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`, `sim.internal:${port}`]) {
      expect((await send(`${server.url}/__sim/health`, { headers: { host } })).status, host).toBe(200)
    }
  })

  it('leaves the API open to pages on other origins the user allowed', async () => {
    const server = await startServer({
      app: createNodeApp({ corsOrigins: ['https://app.example'] }),
      port: 0,
      host: '127.0.0.1',
      log: 'silent',
    })
    servers.push(server)
    const response = await send(`${server.apiUrl}/pets?limit=1`, {
      headers: { origin: 'https://app.example', authorization: 'Bearer demo-pro-key' },
    })
    expect(response.status).toBe(200)
    expect(response.headers['access-control-allow-origin']).toBe('https://app.example')
  })
})

describe('control paths and methods', () => {
  it('answers HEAD where it answers GET (readiness probes such as wait-on ask with HEAD)', async () => {
    const server = await start()
    for (const path of ['/__sim/health', '/__sim/clock', '/openapi.json']) {
      const response = await send(`${server.url}${path}`, { method: 'HEAD' })
      expect(response.status, path).toBe(200)
      expect(response.body, path).toBe('')
    }
    expect((await send(`${server.url}/__sim/reset`, { method: 'GET' })).headers.allow).toBe('POST')
    expect((await send(`${server.url}/__sim/clock`, { method: 'DELETE' })).headers.allow).toBe('GET, HEAD, POST')
  })

  it('answers a malformed escape in a rule id with 404, not 500', async () => {
    const server = await start()
    const response = await send(`${server.url}/__sim/faults/%E0%A4%A`, { method: 'DELETE' })
    expect(response.status).toBe(404)
    expect(response.body.code).toBe('fault_not_found')
  })
})

describe('the control plane is guarded per request, however the app is served', () => {
  const app = createPortableApp()
  const control = (clientAddress: string | undefined, headers: Record<string, string> = {}) =>
    app.fetch(new Request('http://localhost:4010/__sim/reset', { method: 'POST', headers: { ...json, ...headers } }), { clientAddress })

  it('serves loopback clients and refuses every other address without a token', async () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect((await control(address)).status, address).toBe(200)
    for (const address of ['10.0.0.7', '192.168.1.20', '203.0.113.9', '::ffff:10.0.0.1', 'fe80::1', undefined]) {
      const response = await control(address)
      expect(response.status, String(address)).toBe(403)
      expect((await response.json()).code).toBe('control_forbidden')
    }
  })

  // Issue 49: a 403 from a container's published port said "unless an admin token is configured", naming no way to
  // configure one; the message names the variable, the flag and the option, and how the token is then sent.
  it('names PETSTORE_SIM_ADMIN_TOKEN, --admin-token and the adminToken option in the 403, for an address or a Host refused', async () => {
    const byAddress = await (await control('10.88.0.1')).json()
    const byHost = await (
      await app.fetch(new Request('http://attacker.example:4010/__sim/reset', { method: 'POST', headers: json }), {
        clientAddress: '127.0.0.1',
      })
    ).json()
    for (const body of [byAddress, byHost]) {
      expect(body.code).toBe('control_forbidden')
      expect(body.message).toContain('PETSTORE_SIM_ADMIN_TOKEN')
      expect(body.message).toContain('--admin-token')
      expect(body.message).toContain('adminToken')
      expect(body.message).toContain('Authorization: Bearer <token>')
    }
  })

  it('answers the health probe from any address and Host, token or not (orchestrators probe from outside)', async () => {
    const guarded = createPortableApp({ control: { adminToken: 's3cret' } })
    for (const served of [app, guarded]) {
      for (const clientAddress of ['10.88.0.1', '203.0.113.9', 'fe80::1', undefined]) {
        for (const method of ['GET', 'HEAD']) {
          const probe = await served.fetch(new Request('http://10.88.0.5:4010/__sim/health', { method }), { clientAddress })
          expect(probe.status, `${method} from ${clientAddress}`).toBe(200)
        }
        const state = await served.fetch(new Request('http://10.88.0.5:4010/__sim/state'), { clientAddress })
        expect(state.status, `state from ${clientAddress}`).toBe(served === app ? 403 : 401)
      }
    }
    const health = await app.fetch(new Request('http://10.88.0.5:4010/__sim/health'), { clientAddress: '10.88.0.1' })
    expect(await health.json()).toMatchObject({ status: 'ok' })
    // A page on another origin is still refused: the probe exception is for orchestrators, not web pages.
    const fromPage = await app.fetch(new Request('http://10.88.0.5:4010/__sim/health', { headers: { 'sec-fetch-site': 'cross-site' } }), {
      clientAddress: '10.88.0.1',
    })
    expect(fromPage.status).toBe(403)
  })

  it('serves any address that has the admin token, and no address without it', async () => {
    const guarded = createPortableApp({ control: { adminToken: 's3cret' } })
    const reset = (clientAddress: string, authorization?: string) =>
      guarded.fetch(
        new Request('http://sim.example/__sim/reset', {
          method: 'POST',
          headers: { ...json, ...(authorization === undefined ? {} : { authorization }) },
        }),
        { clientAddress },
      )
    expect((await reset('203.0.113.9', 'Bearer s3cret')).status).toBe(200)
    expect((await reset('203.0.113.9')).status).toBe(401)
    expect((await reset('127.0.0.1', 'Bearer wrong')).status).toBe(401)
  })

  it('refuses, at creation, an admin token that protects nothing', async () => {
    for (const adminToken of ['', ' ', '\t\n', ' padded ']) {
      expect(() => createPortableApp({ control: { adminToken } }), JSON.stringify(adminToken)).toThrow(TypeError)
      expect(() => createNodeApp({ control: { adminToken } }), JSON.stringify(adminToken)).toThrow(/control\.adminToken must not/)
    }
  })

  it('applies in createMiddleware as in startServer', async () => {
    const middleware = createMiddleware()
    const host = createHttpServer((incoming, outgoing) => middleware(incoming, outgoing, () => outgoing.writeHead(404).end()))
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    try {
      const port = (host.address() as { port: number }).port
      const response = await send(`http://127.0.0.1:${port}/__sim/reset`, {
        method: 'POST',
        headers: { host: `evil.example:${port}`, ...json },
      })
      expect(response.status).toBe(403)
    } finally {
      host.closeAllConnections()
      await new Promise((resolve) => host.close(resolve))
    }
  })
})
