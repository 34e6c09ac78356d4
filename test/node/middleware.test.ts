// createMiddleware() mounted where users mount it: in express 5 and in a
// plain connect-style stack, after the body parsers they already have. A
// parser that runs first reads the request stream to its end, so the
// middleware must take the body from `req.body` instead of waiting for an
// `end` that has already been emitted (issue #11: it hung on every POST).
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http'
import express from 'express'
import { describe, expect, it } from 'vitest'
import { createNodeApp, createMiddleware, type ListenerOptions } from '../../src/node.ts'
import { app as recipeApp } from '../recipes/express-middleware.ts'
import { checkedFetch } from '../support/checked-fetch.ts'
import { useTestHosts } from '../support/test-hosts.ts'

const auth = { authorization: 'Bearer demo-pro-key' }
const json = { ...auth, 'content-type': 'application/json' }

type Next = (error?: unknown) => void
type Step = (incoming: IncomingMessage, outgoing: ServerResponse, next: Next) => void

const listen = useTestHosts()

/** What the app behind the middleware answers: proof that a request was passed on, with the body it saw. */
function appAnswer(incoming: IncomingMessage & { body?: unknown }, outgoing: ServerResponse): void {
  const reply = (body: string) =>
    outgoing.writeHead(200, { 'content-type': 'text/plain' }).end(`app got ${incoming.method} ${incoming.url} ${body}`)
  if (incoming.readableEnded) {
    reply(
      typeof incoming.body === 'string'
        ? incoming.body
        : Buffer.isBuffer(incoming.body)
          ? incoming.body.toString('utf8')
          : JSON.stringify(incoming.body),
    )
    return
  }
  let body = ''
  incoming
    .setEncoding('utf8')
    .on('data', (chunk: string) => (body += chunk))
    .on('end', () => reply(body))
}

/** express 5, with an optional parser before the simulator and an app after it. */
function expressHost(
  parser: Step | undefined,
  options: ListenerOptions = {},
): { listener: RequestListener; middleware: ReturnType<typeof createMiddleware> } {
  const middleware = createMiddleware({ log: 'silent', ...options })
  const app = express()
  if (parser !== undefined) app.use(parser)
  app.use(middleware)
  app.use(appAnswer)
  return { listener: app, middleware }
}

/**
 * The connect protocol with nothing else: each step gets `(req, res, next)`
 * and calls `next()` to pass on or `next(error)` to fail (connect, Vite's
 * dev server and polka all run middleware this way).
 */
function connectStyleHost(
  parser: Step | undefined,
  options: ListenerOptions = {},
): { listener: RequestListener; middleware: ReturnType<typeof createMiddleware> } {
  const middleware = createMiddleware({ log: 'silent', ...options })
  const steps: Step[] = [...(parser === undefined ? [] : [parser]), middleware, appAnswer]
  const listener: RequestListener = (incoming, outgoing) => {
    let index = 0
    const next: Next = (error) => {
      if (error !== undefined) {
        outgoing.writeHead(500, { 'content-type': 'text/plain' }).end(`stack error: ${String(error)}`)
        return
      }
      steps[index++]!(incoming, outgoing, next)
    }
    next()
  }
  return { listener, middleware }
}

/** A home-made parser, as in many connect stacks: reads the stream and keeps the bytes in `req.body`. */
const bufferParser: Step = (incoming, _outgoing, next) => {
  const chunks: Buffer[] = []
  incoming
    .on('data', (chunk: Buffer) => chunks.push(chunk))
    .on('end', () => {
      ;(incoming as IncomingMessage & { body?: Buffer }).body = Buffer.concat(chunks)
      next()
    })
}

/** A step that reads the stream to its end and keeps nothing (a logger, a checksum). */
const drainingStep: Step = (incoming, _outgoing, next) => {
  incoming.resume().on('end', () => next())
}

const parsers: Array<[string, Step | undefined]> = [
  ['no parser', undefined],
  ['express.json()', express.json()],
  ['express.text()', express.text()],
  ["express.text({ type: '*/*' })", express.text({ type: '*/*' })],
  ["express.raw({ type: '*/*' })", express.raw({ type: '*/*' })],
  ['express.urlencoded()', express.urlencoded()],
  ['a home-made parser keeping a Buffer', bufferParser],
]

const stacks = [
  ['express 5', expressHost],
  ['a connect-style stack', connectStyleHost],
] as const

describe.each(stacks)('createMiddleware() in %s', (_stack, host) => {
  describe.each(parsers)('behind %s', (_parser, parser) => {
    it('answers the API: 200 with rate-limit headers, 201 with the pet, 400 for an invalid pet, 401 without a key', async () => {
      const { listener } = host(parser)
      const origin = await listen(listener)

      const list = await checkedFetch(`${origin}/v1/pets?limit=2`, { headers: auth })
      expect(list.status).toBe(200)
      expect(list.headers.get('x-ratelimit-limit')).toBe('300')
      expect(list.headers.get('x-ratelimit-remaining')).toBe('299')
      expect(list.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/)
      expect(await list.json()).toHaveLength(2)

      const created = await checkedFetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: json,
        body: '{"name":"Rex","categoryId":2}',
        signal: AbortSignal.timeout(5000),
      })
      expect(created.status).toBe(201)
      expect(await created.json()).toMatchObject({ name: 'Rex', categoryId: 2 })

      const invalid = await checkedFetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: json,
        body: '{"name":"","categoryId":"two"}',
        signal: AbortSignal.timeout(5000),
      })
      expect(invalid.status).toBe(400)
      expect(await invalid.json()).toMatchObject({ code: 'invalid_body', status: 400 })

      const anonymous = await checkedFetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Rex","categoryId":2}',
        signal: AbortSignal.timeout(5000),
      })
      expect(anonymous.status).toBe(401)
      expect(await anonymous.json()).toMatchObject({ status: 401 })
    })

    it('serves the OpenAPI document and passes every other path on', async () => {
      const { listener, middleware } = host(parser)
      const origin = await listen(listener)

      const document = await fetch(`${origin}/openapi.json`)
      expect(document.status).toBe(200)
      expect(((await document.json()) as { info: { title: string } }).info.title).toBe('Animal Store Service')
      const yaml = await fetch(`${origin}/openapi.yaml`)
      expect(yaml.status).toBe(200)
      expect(yaml.headers.get('content-type')).toBe('application/yaml; charset=utf-8')
      expect(await yaml.text()).toMatch(/^openapi: /m)

      expect(await (await fetch(`${origin}/elsewhere?x=1`)).text()).toMatch(/^app got GET \/elsewhere\?x=1 /)
      const posted = await fetch(`${origin}/app/form`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"hello":"app"}',
        signal: AbortSignal.timeout(5000),
      })
      expect(await posted.text()).toBe('app got POST /app/form {"hello":"app"}')
      expect(middleware.app.simulator.journal.entries()).toHaveLength(0)
    })
  })
})

/** A POST whose body is sent in chunks, without Content-Length, so only the bytes themselves can be counted. */
function postChunked(url: string, chunks: readonly string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { ...json, 'transfer-encoding': 'chunked' }, signal: AbortSignal.timeout(5000) },
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

describe.each(stacks)('a body read before createMiddleware() in %s', (_stack, host) => {
  it('is never waited for: a stream read to its end with nothing kept is an empty body', async () => {
    const { listener } = host(drainingStep)
    const origin = await listen(listener)
    const response = await checkedFetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":"Rex","categoryId":2}',
      signal: AbortSignal.timeout(5000),
    })
    expect(response.status).toBe(400)
    expect((await response.json()).message).toMatch(/A JSON request body is required/)
  })

  it('is held to the body limit by the size of what the parser kept', async () => {
    const { listener } = host(express.json(), { app: createNodeApp({ bodyLimit: 100 }) })
    const origin = await listen(listener)
    const over = await postChunked(`${origin}/v1/pets`, ['{"name":"Rex",', `"categoryId":2,"padding":"${'x'.repeat(100)}"}`])
    expect(over.status).toBe(413)
    expect(JSON.parse(over.body)).toMatchObject({ code: 'payload_too_large' })
    const under = await postChunked(`${origin}/v1/pets`, ['{"name":"Rex",', '"categoryId":2}'])
    expect(under.status).toBe(201)
  })

  it('reaches the msw lanes too (engine: msw, your own handlers)', async () => {
    const { http, HttpResponse } = await import('msw')
    for (const options of [
      { engine: 'msw' },
      { handlers: [http.get('*/v1/extra', () => HttpResponse.json({ extra: true }))] },
    ] satisfies ListenerOptions[]) {
      const { listener } = host(express.json(), options)
      const origin = await listen(listener)
      const created = await checkedFetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: json,
        body: '{"name":"Rex","categoryId":2}',
        signal: AbortSignal.timeout(5000),
      })
      expect(created.status).toBe(201)
      expect(await created.json()).toMatchObject({ name: 'Rex', categoryId: 2 })
    }
  })

  it('that express.json() refused as malformed is answered by express, before the simulator sees it', async () => {
    const { listener, middleware } = host(express.json())
    const origin = await listen(listener)
    const response = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":',
      signal: AbortSignal.timeout(5000),
    })
    // express's error handler (or the stack's): not the simulator's Error body.
    expect(response.status).toBe(host === expressHost ? 400 : 500)
    expect(response.headers.get('content-type')).not.toBe('application/json')
    expect(middleware.app.simulator.journal.entries()).toHaveLength(0)
  })
})

describe('body-parser 1.x (express 4), as @mswjs/http-middleware installs it', () => {
  // body-parser 1.x sets `req.body = {}` on every request whose type it does not parse, and leaves the stream
  // unread (lib/types/json.js: `req.body = req.body || {}`); 2.x leaves `req.body` undefined. So `req.body`
  // alone does not say the stream was read: `{}` here must not replace the bytes still in the stream.
  const bodyParserOf1x = async () => {
    const { createRequire } = await import('node:module')
    const require = createRequire(createRequire(import.meta.url).resolve('@mswjs/http-middleware'))
    expect(require('body-parser/package.json').version).toMatch(/^1\./)
    return require('body-parser') as { json(): Step }
  }

  it.each(stacks)('in %s: parsed bodies are taken from req.body, unparsed ones still read from the stream', async (_stack, host) => {
    const { listener } = host((await bodyParserOf1x()).json())
    const origin = await listen(listener)
    const parsed = await checkedFetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":"Rex","categoryId":2}',
      signal: AbortSignal.timeout(5000),
    })
    expect(parsed.status).toBe(201)
    // A +json type the simulator accepts and body-parser's json() (type application/json) does not parse.
    const unparsed = await checkedFetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/vnd.pet+json' },
      body: '{"name":"Fido","categoryId":3}',
      signal: AbortSignal.timeout(5000),
    })
    expect(unparsed.status).toBe(201)
    expect(await unparsed.json()).toMatchObject({ name: 'Fido', categoryId: 3 })
  })
})

describe('the recipe: express, after your body parsers', () => {
  it.each(['express-middleware.ts', 'http-middleware-msw2.ts'])(
    'is in docs/recipes.md word for word (%s, but its first line)',
    async (file) => {
      const { readFileSync } = await import('node:fs')
      const code = readFileSync(new URL(`../recipes/${file}`, import.meta.url), 'utf8')
        .split('\n')
        .slice(1)
        .join('\n')
      expect(readFileSync(new URL('../../docs/recipes.md', import.meta.url), 'utf8')).toContain(`\`\`\`ts\n${code}\`\`\`\n`)
    },
  )

  it('answers the API and the OpenAPI document, and leaves the rest to the app', async () => {
    const origin = await listen(recipeApp)
    expect((await checkedFetch(`${origin}/v1/pets?limit=3`, { headers: auth })).status).toBe(200)
    const created = await checkedFetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":"Rex","categoryId":2}',
      signal: AbortSignal.timeout(5000),
    })
    expect(created.status).toBe(201)
    expect((await fetch(`${origin}/openapi.json`)).status).toBe(200)
    expect(await (await fetch(`${origin}/health`)).text()).toBe('ok')
  })
})

describe('@mswjs/http-middleware on msw 3', () => {
  // Why the docs send msw 3 users to createMiddleware(): the package calls msw 2's handleRequest, which msw 3
  // does not export. express 5 turns the rejection into a 500; under express 4 (the package's own createServer) or
  // connect it is an unhandled rejection that ends the process. Its msw 2 recipe is tested in test/msw2/.
  it('fails every request with a TypeError', async () => {
    const { createMiddleware: createHttpMiddleware } = await import('@mswjs/http-middleware')
    const { createSimulator } = await import('../../src/simulator.ts')
    const app = express()
    app.use(createHttpMiddleware(...createSimulator().handlers))
    const origin = await listen(app)
    const response = await fetch(`${origin}/v1/pets`, { headers: auth, signal: AbortSignal.timeout(5000) })
    expect(response.status).toBe(500)
    expect(await response.text()).toContain('handleRequest) is not a function')
  })
})

describe("the host's server.close() with a dashboard open", () => {
  for (const options of [{}, { engine: 'msw' }] satisfies ListenerOptions[]) {
    it(`resolves once the server stops listening (engine ${options.engine ?? 'direct'})`, async () => {
      const middleware = createMiddleware(options)
      const server = createHttpServer((incoming, outgoing) => middleware(incoming, outgoing, () => outgoing.writeHead(404).end()))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const { port } = server.address() as { port: number }
      const events = await fetch(`http://127.0.0.1:${port}/__sim/events`, { signal: AbortSignal.timeout(5000) })
      expect(events.status).toBe(200)
      const reader = events.body!.getReader()
      await reader.read()
      const started = performance.now()
      const closed = await Promise.race([
        new Promise<string>((resolve) => server.close(() => resolve('closed'))),
        new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 3000)),
      ])
      server.closeAllConnections()
      expect(closed).toBe('closed')
      expect(performance.now() - started).toBeLessThan(2000)
    })
  }
})
