import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { RequestHandler } from 'msw'
import { ApiError } from '../core/api-error.ts'
import { createApp as createPortableApp, type App, type AppOptions } from '../app/app.ts'
import { defaults } from '../core/defaults.ts'
import { errorResponse, isPromiseLike, type PlainResponse } from '../core/plain-http.ts'
import type { SimulatorCore } from '../core/simulator-core.ts'
import type { FetchLane } from '../handlers/msw-lane.ts'
import type { Engine } from './engine.ts'
import { toFetchRequest, sendFetchResponse } from './fetch-bridge.ts'
import { fromIncomingMessage, writePlainResponse } from './incoming-request.ts'
import { readOpenApiDocument } from './openapi-document.ts'
import { createRequestLogger, type LogFormat, type RequestLogger } from './request-log.ts'

/*
 * node:http is taken with process.getBuiltinModule, not an ESM import: importing a builtin as ESM copies every
 * export, which runs node:http's lazy getters and loads undici (its WebSocket and fetch classes), 35-43 ms of
 * a start-up the direct lane never needs (measured on Node 24: `await import('node:http')` 35-43 ms,
 * `process.getBuiltinModule('node:http')` 4-5 ms).
 */
const { createServer: createHttpServer } = process.getBuiltinModule('node:http')

/**
 * The app for Node: {@link createPortableApp} with the OpenAPI document read
 * from `fixtures/openapi.yaml` (served at `/openapi.json` and `/openapi.yaml`).
 */
export function createApp(options: AppOptions = {}): App {
  return createPortableApp({ openApiDocument: readOpenApiDocument, ...options })
}

/** How a listener serves: the app, how it logs, and optionally msw in front. */
export interface ListenerOptions {
  /** Default: {@link createApp} with default options. */
  readonly app?: App
  /** `pretty`, `json`, `silent` (default), or a function receiving each request's record. */
  readonly log?: LogFormat | RequestLogger
  /**
   * Your own MSW handlers, tried before the simulator as `server.use` does
   * in-process; what they leave unanswered goes on to the simulator. Loads msw.
   */
  readonly handlers?: readonly RequestHandler[]
  /**
   * `direct` (default): requests go to the simulator as plain data, with no
   * Fetch objects. `msw`: everything is answered through msw's `getResponse`
   * and the simulator's MSW handlers, for comparison and as a fallback. Loads msw.
   */
  readonly engine?: Engine
}

type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => void

/**
 * A `node:http` request listener serving the simulator. It knows nothing of
 * the app but its `respond`: it hands each request over as plain data with
 * the client's address as a transport fact, and writes the plain answer with
 * `writeHead`/`end`. With `handlers` or `engine: 'msw'` it serves through msw
 * instead, which is loaded only then.
 *
 * @example
 * import { createServer } from 'node:http'
 * createServer(createRequestListener({ app: createApp({ seed: 1 }) })).listen(4010)
 */
export function createRequestListener(options: ListenerOptions = {}): NodeListener & { app: App; ready: Promise<void> } {
  const app = options.app ?? createApp()
  const log = loggerFor(options.log ?? defaults.libraryLog)
  const { bodyLimit } = app.simulator
  const useMsw = (options.handlers !== undefined && options.handlers.length > 0) || options.engine === 'msw'
  // msw is imported only for these lanes, and the import starts now: `ready` says when it is done.
  const lane = useMsw ? loadMswLane(app, options) : undefined

  const finish = (incoming: IncomingMessage, outgoing: ServerResponse, response: PlainResponse, started: number) => {
    try {
      writePlainResponse(outgoing, response, incoming.method)
    } catch {
      outgoing.destroy()
    }
    if (log !== undefined) logPlain(log, incoming, response, started)
  }

  const listener: NodeListener =
    lane === undefined
      ? (incoming, outgoing) => {
          const started = log === undefined ? 0 : performance.now()
          // The app turns every error into a response, so `respond` neither throws nor rejects.
          const response = app.respond(fromIncomingMessage(incoming, bodyLimit))
          if (isPromiseLike(response)) response.then((answered) => finish(incoming, outgoing, answered, started))
          else finish(incoming, outgoing, response, started)
        }
      : (incoming, outgoing) => {
          const started = log === undefined ? 0 : performance.now()
          serveThroughLane(lane, incoming, outgoing, bodyLimit).then((status) => {
            if (log !== undefined) log({ method: incoming.method ?? '-', path: (incoming.url ?? '-').slice(0, 2048), status, durationMs: performance.now() - started, plan: '-', caller: '-' })
          })
        }
  return Object.assign(listener, { app, ready: lane === undefined ? Promise.resolve() : lane.then(() => undefined) })
}

async function loadMswLane(app: App, options: ListenerOptions): Promise<FetchLane> {
  const { createMswLane } = await import('../handlers/msw-lane.ts')
  return createMswLane({ app, handlers: options.handlers, engine: options.engine ?? 'direct' })
}

async function serveThroughLane(lane: Promise<FetchLane>, incoming: IncomingMessage, outgoing: ServerResponse, bodyLimit: number): Promise<number> {
  try {
    const response = await (await lane)(await toFetchRequest(incoming, bodyLimit), { clientAddress: incoming.socket.remoteAddress })
    await sendFetchResponse(outgoing, response, incoming.method)
    return response.status
  } catch (error) {
    // Only the bridge's own errors (413, an unrepresentable request) reach here: the lane answers everything else.
    const response = errorResponse(error)
    try {
      writePlainResponse(outgoing, response, incoming.method)
    } catch {
      outgoing.destroy()
    }
    return response.status
  }
}

/**
 * A connect-style middleware (express, Vite's dev server, …) that answers
 * the API, control and OpenAPI paths and passes every other request to
 * `next()` untouched, its body unread.
 *
 * @example
 * // vite.config.ts
 * export default { plugins: [{ name: 'petstore-sim', configureServer: (server) => { server.middlewares.use(createMiddleware()) } }] }
 */
export function createMiddleware(
  options: ListenerOptions = {},
): ((incoming: IncomingMessage, outgoing: ServerResponse, next: (error?: unknown) => void) => void) & { app: App } {
  const listener = createRequestListener(options)
  const { app } = listener
  const middleware = (incoming: IncomingMessage, outgoing: ServerResponse, next: (error?: unknown) => void) => {
    const path = (incoming.url ?? '').split('?', 1)[0]!
    if (!app.owns(path)) {
      next()
      return
    }
    listener(incoming, outgoing)
  }
  return Object.assign(middleware, { app })
}

/**
 * A `node:http` server for the simulator, not yet listening (hono's
 * separation of building and serving). Malformed HTTP gets a 400 Error body.
 */
export function createServer(options: ListenerOptions = {}): { server: Server; app: App; ready: Promise<void> } {
  const listener = createRequestListener(options)
  const server = createHttpServer(listener)
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy()
      return
    }
    socket.end(rawHttpResponse(errorResponse(new ApiError('bad_request', `Malformed HTTP request: ${error.code ?? error.message}`))))
  })
  return { server, app: listener.app, ready: listener.ready }
}

/** A plain response as HTTP/1.1 bytes, for a socket Node's parser gave up on; the connection closes after it. */
function rawHttpResponse(response: PlainResponse): string {
  const body = response.body ?? ''
  const headers = Object.entries({ ...response.headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  return `HTTP/1.1 ${response.status} ${statusTexts[response.status] ?? 'Error'}\r\n${headers}\r\n${body}`
}

const statusTexts: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error' }

export interface StartServerOptions extends ListenerOptions {
  /** Default 4010; 0 picks a free port. */
  readonly port?: number
  /** Default 127.0.0.1. */
  readonly host?: string
}

/** A listening simulator. */
export interface RunningServer {
  /** The server's origin, e.g. `http://127.0.0.1:4010`. */
  readonly url: string
  /** The API's base URL, e.g. `http://127.0.0.1:4010/v1`. */
  readonly apiUrl: string
  readonly server: Server
  readonly app: App
  readonly simulator: SimulatorCore
  /**
   * Stops accepting connections, lets requests in flight finish, and resolves
   * once the server is closed; connections still busy after `graceMs`
   * (default 5000) are cut.
   */
  close(graceMs?: number): Promise<void>
}

/**
 * Starts the simulator on a port and resolves once it is listening.
 *
 * @example
 * const running = await startServer({ app: createApp({ seed: 7 }), port: 0 })
 * await fetch(`${running.apiUrl}/pets`, { headers: { Authorization: 'Bearer demo-pro-key' } })
 * await running.close()
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const { server, app, ready } = createServer(options)
  await ready
  const host = options.host ?? defaults.host
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? defaults.port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const url = `http://${hostPart}:${address.port}`
  let closing: Promise<void> | undefined
  return {
    url,
    apiUrl: `${url}${app.simulator.basePath}`,
    server,
    app,
    simulator: app.simulator,
    close(graceMs = 5000) {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs)
        force.unref()
        server.close(() => {
          clearTimeout(force)
          resolve()
        })
        server.closeIdleConnections()
      })
      return closing
    },
  }
}

function loggerFor(format: LogFormat | RequestLogger): RequestLogger | undefined {
  if (typeof format === 'function') return format
  // Silent logging costs nothing per request: no record is built.
  return format === 'silent' ? undefined : createRequestLogger(format, (line) => process.stdout.write(`${line}\n`))
}

function logPlain(log: RequestLogger, incoming: IncomingMessage, response: PlainResponse, started: number): void {
  const entry = response.journalEntry
  log({
    method: incoming.method ?? '-',
    path: entry?.path ?? (incoming.url ?? '-').slice(0, 2048),
    status: response.status,
    durationMs: performance.now() - started,
    plan: entry?.plan ?? '-',
    caller: entry?.caller ?? '-',
  })
}
