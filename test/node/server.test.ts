import { connect } from 'node:net'
import { createServer as createHttpServer, request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/app.ts'
import { exposedHeaders } from '../../src/app/cors.ts'
import { createNodeApp, createMiddleware, startServer, type RunningServer, type StartServerOptions } from '../../src/node.ts'
import { checkedFetch } from '../support/checked-fetch.ts'
import { rawExchange } from '../support/raw-http.ts'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(appOptions: AppOptions = {}, serverOptions: StartServerOptions = {}): Promise<RunningServer> {
  const server = await startServer({ port: 0, host: '127.0.0.1', log: 'silent', app: createNodeApp(appOptions), ...serverOptions })
  servers.push(server)
  return server
}

const auth = { authorization: 'Bearer demo-pro-key' }

/** A POST whose body is streamed in chunks without Content-Length. */
function postChunked(url: string, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (response) => {
        let body = ''
        response
          .setEncoding('utf8')
          .on('data', (chunk: string) => (body += chunk))
          .on('end', () => resolve({ status: response.statusCode!, body }))
      },
    )
    request.on('error', reject)
    for (const chunk of chunks) request.write(chunk)
    request.end()
  })
}

describe('request bodies', () => {
  it('answers 413 by Content-Length before reading the body', async () => {
    const server = await start({ bodyLimit: 1000 })
    const response = await checkedFetch(`${server.apiUrl}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: 'x'.repeat(1001),
    })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ code: 'payload_too_large', status: 413 })
  })

  it('counts a streamed body without Content-Length, and accepts one under the limit', async () => {
    const server = await start({ bodyLimit: 1000 })
    const over = await postChunked(`${server.apiUrl}/pets`, Array(12).fill(' '.repeat(100)))
    expect(over.status).toBe(413)
    expect(JSON.parse(over.body).code).toBe('payload_too_large')
    const under = await postChunked(`${server.apiUrl}/pets`, ['{"name":"Chunky",', '"categoryId":2}'])
    expect(under.status).toBe(201)
    expect(JSON.parse(under.body)).toMatchObject({ name: 'Chunky', categoryId: 2 })
  })

  it('defaults the limit to 1 MiB', async () => {
    const server = await start()
    const body = JSON.stringify({ name: 'Rex', categoryId: 1, padding: 'x'.repeat(1024 * 1024) })
    const response = await checkedFetch(`${server.apiUrl}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
    })
    expect(response.status).toBe(413)
    const small = await checkedFetch(`${server.apiUrl}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1, padding: 'x'.repeat(1000 * 1000) }),
    })
    expect(small.status).toBe(201)
  })
})

describe('the body budget', () => {
  it('counts the bytes a body really holds: clients that announce large bodies and send nothing do not hold back a small one', async () => {
    const server = await start({}, { maxBufferedBodyBytes: 64 * 1024 })
    const port = Number(new URL(server.url).port)
    const idle = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const socket = connect(port, '127.0.0.1')
        await new Promise((resolve) => socket.once('connect', resolve))
        socket.on('error', () => {})
        socket.write(
          'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-pro-key\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"nam',
        )
        return socket
      }),
    )
    try {
      await new Promise((resolve) => setTimeout(resolve, 100))
      const created = await checkedFetch(`${server.apiUrl}/pets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"name":"Small","categoryId":1}',
        signal: AbortSignal.timeout(5000),
      })
      expect(created.status).toBe(201)
    } finally {
      for (const socket of idle) socket.destroy()
    }
  })
})

describe('the body budget is shared fairly', () => {
  it('keeps room for small bodies while clients hold large bodies one byte short of their end', async () => {
    const server = await start({}, { maxBufferedBodyBytes: 512 * 1024 })
    const port = Number(new URL(server.url).port)
    const length = 200_000
    // Six hoarders would hold 1.2 MB: more than the whole budget.
    const hoarders = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const socket = connect(port, '127.0.0.1')
        await new Promise((resolve) => socket.once('connect', resolve))
        socket.on('error', () => {})
        socket.write(
          `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-pro-key\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
        )
        socket.write('x'.repeat(length - 1))
        return socket
      }),
    )
    try {
      await new Promise((resolve) => setTimeout(resolve, 300))
      const created = await checkedFetch(`${server.apiUrl}/pets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"name":"Small","categoryId":1}',
        signal: AbortSignal.timeout(3000),
      })
      expect(created.status).toBe(201)
    } finally {
      for (const socket of hoarders) socket.destroy()
    }
  })
})

describe('the minimum data rate of a body', () => {
  it('answers a body that stops arriving with a 408 after bodyIdleTimeoutMs, journaled as 408', async () => {
    const server = await start({}, { bodyIdleTimeoutMs: 300 })
    const port = Number(new URL(server.url).port)
    const started = performance.now()
    const reply = await rawExchange(
      port,
      'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-pro-key\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
      1500,
    )
    expect(reply).toMatch(/^HTTP\/1\.1 408 /)
    expect(reply.toLowerCase()).toContain('connection: close')
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'request_timeout', status: 408 })
    expect(performance.now() - started).toBeLessThan(2000)
    expect(server.simulator.journal.entries().map((entry) => entry.status)).toEqual([408])
  })

  it('refuses a bodyIdleTimeoutMs that is not a whole number of milliseconds', async () => {
    await expect(start({}, { bodyIdleTimeoutMs: -1 })).rejects.toThrow(/bodyIdleTimeoutMs/)
  })
})

describe('malformed requests never crash the server', () => {
  it.each([
    ['garbage', 'HELLO\r\n\r\n'],
    ['a bad header line', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nbad header\r\n\r\n'],
    ['a bad Content-Length', 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    ['an absolute-form target', 'GET http://elsewhere.test/v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an asterisk target', 'GET * HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a hostile Host header', 'GET /v1/pets HTTP/1.1\r\nHost: a/b@c\r\nAuthorization: Bearer demo-pro-key\r\n\r\n'],
  ])('answers %s with a 4xx Error body', async (_case, payload) => {
    const server = await start()
    const port = Number(new URL(server.url).port)
    const reply = await rawExchange(port, payload)
    expect(reply).toMatch(/^HTTP\/1\.1 (4\d\d|200)/)
    const status = Number(reply.slice(9, 12))
    if (status !== 200) {
      const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))
      expect(body).toMatchObject({ status })
      expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status'])
    }
    expect((await checkedFetch(`${server.url}/__sim/health`)).status).toBe(200)
  })

  it('reads a hostile Host header as localhost, so it cannot change the path', async () => {
    const server = await start()
    const reply = await rawExchange(
      Number(new URL(server.url).port),
      'GET /v1/pets?limit=1 HTTP/1.1\r\nHost: evil/x\r\nAuthorization: Bearer demo-pro-key\r\nConnection: close\r\n\r\n',
    )
    expect(reply).toMatch(/^HTTP\/1\.1 200/)
  })
})

// The app's origin is allowed, as a user serving a page on another origin allows it (--cors-origin).
describe('CORS for browser apps on another origin', () => {
  it('answers a preflight with 204 without a key, and does not count it', async () => {
    const server = await start({ corsOrigins: ['http://app.test:5173'] })
    for (let index = 0; index < 3; index++) {
      const preflight = await checkedFetch(`${server.apiUrl}/pets`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://app.test:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.test:5173')
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST')
      expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type')
    }
    const response = await checkedFetch(`${server.apiUrl}/pets`, { headers: { ...auth, origin: 'http://app.test:5173' } })
    expect(response.headers.get('x-ratelimit-remaining')).toBe('299')
  })

  it.each([
    ['a 200', '/pets', auth],
    ['a 401', '/pets', {}],
    ['a getPet', '/pets/1', auth],
    ['a 404 outside the API', '/../nowhere', auth],
  ])('lets the calling origin read %s and its headers', async (_case, path, headers) => {
    const server = await start({ corsOrigins: ['http://app.test:5173'] })
    const response = await checkedFetch(`${server.apiUrl}${path}`, { headers: { ...headers, origin: 'http://app.test:5173' } })
    expect(response.headers.get('access-control-allow-origin')).toBe('http://app.test:5173')
    const exposed = response.headers.get('access-control-expose-headers')!.split(', ')
    for (const name of [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'Deprecation',
      'Sunset',
      'Link',
    ]) {
      expect(exposed).toContain(name)
    }
    expect(response.headers.get('access-control-expose-headers')).toBe(exposedHeaders)
    expect(response.headers.get('vary')).toContain('Origin')
  })

  it('sends no CORS headers to a request without Origin', async () => {
    const server = await start()
    const response = await checkedFetch(`${server.apiUrl}/pets`, { headers: auth })
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('control endpoints', () => {
  it('reports health without a key', async () => {
    const server = await start({ pets: 7 })
    const response = await checkedFetch(`${server.url}/__sim/health`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'ok', pets: 7 })
  })

  it('resets the catalogue, limits and bans', async () => {
    const server = await start({ keys: { tiny: 'enterprise:1/10' }, ban: { after: 0, durationMs: 60_000 } })
    await checkedFetch(`${server.apiUrl}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer tiny', 'content-type': 'application/json' },
      body: '{"name":"New","categoryId":1}',
    })
    expect((await (await checkedFetch(`${server.apiUrl}/pets`, { headers: { authorization: 'Bearer tiny' } })).json()).code).toBe(
      'api_key_banned',
    )
    const reset = await checkedFetch(`${server.url}/__sim/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } })
    expect(await reset.json()).toMatchObject({ status: 'reset', pets: 50 })
    const after = await checkedFetch(`${server.apiUrl}/pets?limit=100`, { headers: { authorization: 'Bearer tiny' } })
    expect(after.status).toBe(200)
    expect(await after.json()).toHaveLength(50)
  })

  it.each([
    [{ advance: 90_000 }, 90_000],
    [{ advance: '90s' }, 90_000],
    [{ advance: '2h' }, 7_200_000],
  ])('advances the clock with %j', async (body, milliseconds) => {
    const server = await start()
    const before = (await (await checkedFetch(`${server.url}/__sim/clock`)).json()).epochMs
    const response = await checkedFetch(`${server.url}/__sim/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const after = (await response.json()).epochMs
    expect(after - before).toBeGreaterThanOrEqual(milliseconds)
    expect(after - before).toBeLessThan(milliseconds + 1000)
  })

  it('sets the clock, which moves the API (getPet after its removal)', async () => {
    const server = await start()
    const response = await checkedFetch(`${server.url}/__sim/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ set: '2031-01-01T00:00:00Z' }),
    })
    expect((await response.json()).now).toMatch(/^2031-01-01T00:00:0/)
    expect((await checkedFetch(`${server.apiUrl}/pets/1`, { headers: auth })).status).toBe(410)
  })

  it.each([
    ['not JSON', 'tomorrow'],
    ['an array', '[1]'],
    ['nothing to do', '{}'],
    ['a bad duration', '{"advance":"soon"}'],
    ['a bad instant', '{"set":"someday"}'],
  ])('refuses a clock body that is %s with 400', async (_case, body) => {
    const server = await start()
    const response = await checkedFetch(`${server.url}/__sim/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    expect(response.status).toBe(400)
    expect((await response.json()).code).toBe('invalid_body')
  })

  it.each([
    ['an advance past the last instant', { advance: 1e300 }],
    ['a set past the last instant', { set: 8640000000000001 }],
    ['a set before 1970', { set: -1e20 }],
    ['a duration past the range', { advance: '100000000d' }],
    ['a set that an advance then takes past the range', { set: '9999-12-31T23:00:00Z', advance: '2h' }],
  ])('refuses %s with 400, and moves nothing', async (_case, body) => {
    const server = await start()
    const before = await (
      await checkedFetch(`${server.url}/__sim/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"set":"2030-01-01T00:00:00Z","freeze":true}',
      })
    ).json()
    const response = await checkedFetch(`${server.url}/__sim/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(400)
    expect((await response.json()).code).toBe('invalid_body')
    expect(await (await checkedFetch(`${server.url}/__sim/clock`)).json()).toEqual(before)
    expect((await checkedFetch(`${server.url}/__sim/health`)).status).toBe(200)
    expect((await checkedFetch(`${server.apiUrl}/pets?limit=1`, { headers: auth })).status).toBe(200)
  })

  it('lists the request journal without keys', async () => {
    const server = await start()
    await checkedFetch(`${server.apiUrl}/pets?limit=1`, { headers: auth })
    await checkedFetch(`${server.apiUrl}/pets/2`, { headers: auth })
    const { requests } = await (await checkedFetch(`${server.url}/__sim/requests`)).json()
    expect(requests.map((entry: { path: string; status: number; plan: string }) => [entry.path, entry.status, entry.plan])).toEqual([
      ['/v1/pets?limit=1', 200, 'pro'],
      ['/v1/pets/2', 200, 'pro'],
    ])
    // The documented demo key shows by its name (keyName, Authorization) and nowhere else.
    for (const { keyName, request, ...rest } of requests) {
      expect([keyName, request.headers.authorization]).toEqual(['demo-pro-key', 'Bearer demo-pro-key'])
      const { authorization: _, ...headers } = request.headers
      expect(JSON.stringify({ ...rest, request: { ...request, headers } })).not.toContain('demo-pro-key')
    }
  })

  it('is never under the API prefix, and unknown control paths are 404', async () => {
    const server = await start()
    expect((await (await checkedFetch(`${server.apiUrl}/__sim/health`, { headers: auth })).json()).code).toBe('route_not_found')
    expect((await (await checkedFetch(`${server.url}/__sim/nope`)).json()).code).toBe('route_not_found')
  })

  it('can be turned off', async () => {
    const server = await start({ control: false })
    const response = await checkedFetch(`${server.url}/__sim/health`)
    expect(response.status).toBe(404)
    expect((await response.json()).code).toBe('route_not_found')
  })

  it('still works with the API at the root', async () => {
    const server = await start({ baseUrl: '/' })
    expect((await checkedFetch(`${server.url}/__sim/health`)).status).toBe(200)
    expect((await checkedFetch(`${server.url}/pets?limit=1`, { headers: auth })).status).toBe(200)
  })
})

describe('anything the handlers do not answer', () => {
  it.each(['/', '/favicon.ico', '/v2/pets'])('gets a 404 Error body at %s', async (path) => {
    const server = await start()
    const response = await checkedFetch(`${server.url}${path}`)
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toMatchObject({ code: 'route_not_found', status: 404 })
  })
})

describe('createMiddleware', () => {
  it('answers the API and control paths and passes the rest on with its body unread', async () => {
    const middleware = createMiddleware({ log: 'silent' })
    const host = createHttpServer((incoming, outgoing) => {
      middleware(incoming, outgoing, () => {
        let body = ''
        incoming
          .setEncoding('utf8')
          .on('data', (chunk: string) => (body += chunk))
          .on('end', () => {
            outgoing.writeHead(200, { 'content-type': 'text/plain' }).end(`app got ${incoming.method} ${incoming.url} ${body}`)
          })
      })
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(host.address() as { port: number }).port}`
    try {
      expect(await checkedFetch(`${origin}/v1/pets?limit=2`, { headers: auth }).then((response) => response.json())).toHaveLength(2)
      expect((await checkedFetch(`${origin}/__sim/health`)).status).toBe(200)
      const passed = await checkedFetch(`${origin}/app/form`, { method: 'POST', body: 'hello' })
      expect(await passed.text()).toBe('app got POST /app/form hello')
      expect(middleware.app.simulator.journal.entries()).toHaveLength(1)
    } finally {
      host.closeAllConnections()
      await new Promise((resolve) => host.close(resolve))
    }
  })
})

describe('the OpenAPI document', () => {
  it('is served at /openapi.json and /openapi.yaml without a key, outside the API prefix', async () => {
    const { readFileSync } = await import('node:fs')
    const { parse } = await import('yaml')
    const yamlText = readFileSync(new URL('../../fixtures/openapi.yaml', import.meta.url), 'utf8')
    const server = await start()
    const asJson = await fetch(`${server.url}/openapi.json`)
    expect(asJson.status).toBe(200)
    expect(asJson.headers.get('content-type')).toBe('application/json')
    // As written, but for its first server: this server (test/contract/openapi-document.test.ts).
    const written = parse(yamlText) as { servers: Array<{ url: string }> }
    const served = (await asJson.json()) as typeof written
    expect(served.servers[0]!.url).toBe(server.apiUrl)
    expect({ ...served, servers: served.servers.slice(1) }).toEqual({ ...written, servers: written.servers.slice(1) })
    const asYaml = await fetch(`${server.url}/openapi.yaml`)
    expect(asYaml.headers.get('content-type')).toBe('application/yaml; charset=utf-8')
    expect(parse(await asYaml.text())).toEqual(served)
    expect((await fetch(`${server.apiUrl}/openapi.json`, { headers: auth })).status).toBe(404)
  })

  it('is exported for in-process users', async () => {
    const { readOpenApiDocument } = await import('../../src/node.ts')
    const { openApiDocumentPath } = await import('../../src/node/openapi-document.ts')
    expect(openApiDocumentPath()).toMatch(/fixtures\/openapi\.yaml$/)
    expect(((await readOpenApiDocument()).document as { info: { title: string } }).info.title).toBe('Animal Store Service')
  })
})

describe('freezing the clock', () => {
  it('stands still until moved, and runs again when unfrozen', async () => {
    const server = await start()
    const post = async (body: unknown) =>
      (
        await fetch(`${server.url}/__sim/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()
    const frozen = await post({ set: '2030-01-01T00:00:00Z', freeze: true })
    expect(frozen).toEqual({ now: '2030-01-01T00:00:00.000Z', epochMs: Date.parse('2030-01-01T00:00:00Z'), frozen: true })
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect((await (await fetch(`${server.url}/__sim/clock`)).json()).now).toBe('2030-01-01T00:00:00.000Z')
    expect((await post({ advance: '1m' })).now).toBe('2030-01-01T00:01:00.000Z')
    const running = await post({ freeze: false })
    expect(running.frozen).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect((await (await fetch(`${server.url}/__sim/clock`)).json()).epochMs).toBeGreaterThan(Date.parse('2030-01-01T00:01:00Z'))
    expect(
      (
        await (
          await fetch(`${server.url}/__sim/clock`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"freeze":"yes"}',
          })
        ).json()
      ).code,
    ).toBe('invalid_body')
  })
})

describe('random raw requests (bounded fuzz)', () => {
  it('never crash the server or get a 5xx', async () => {
    const fc = (await import('fast-check')).default
    const server = await start({ bodyLimit: 2048 })
    const port = Number(new URL(server.url).port)
    const token = fc.string({ unit: 'binary-ascii', maxLength: 40 })
    const request = fc
      .record({
        method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'OPTIONS', 'HEAD', 'DELETE'), token),
        path: fc.oneof(
          fc.constantFrom('/v1/pets', '/v1/pets/1', '/__sim/health', '/'),
          token.map((text) => `/v1/${text}`),
          token,
        ),
        headers: fc.array(fc.tuple(token, token), { maxLength: 5 }),
        body: fc.option(fc.string({ unit: 'binary', maxLength: 300 }), { nil: undefined }),
      })
      .map(({ method, path, headers, body }) => {
        const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Authorization: Bearer demo-pro-key', 'Connection: close']
        for (const [name, value] of headers) lines.push(`${name}: ${value}`)
        if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
        return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`
      })
    await fc.assert(
      fc.asyncProperty(request, async (payload) => {
        const reply = await rawExchange(port, payload, 500)
        const status = Number(reply.slice(9, 12))
        if (reply !== '') expect(status < 500, reply.slice(0, 300)).toBe(true)
      }),
      { numRuns: 60, seed: 424242 },
    )
    expect((await fetch(`${server.url}/__sim/health`)).status).toBe(200)
  }, 60_000)
})
