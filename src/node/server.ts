import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { RequestHandler } from 'msw'
import { ApiError } from '../core/pipeline/api-error.ts'
import { corsHeaders } from '../app/cors.ts'
import { createApp as createPortableApp, type App, type AppOptions } from '../app/app.ts'
import { defaults } from '../core/simulator/defaults.ts'
import { errorResponse, isPromiseLike, type PlainResponse } from '../core/pipeline/plain-http.ts'
import { applyCors } from '../app/cors.ts'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'
import type { FetchLane } from '../handlers/msw-lane.ts'
import { BodyBudget } from './body-budget.ts'
import { ConnectionGuard } from './connection-guard.ts'
import type { Engine } from './engine.ts'
import { toFetchRequest, sendFetchResponse } from './fetch-bridge.ts'
import { fromIncomingMessage, writePlainResponse } from './incoming-request.ts'
import { readOpenApiDocument } from './openapi-document.ts'
import { openStateFile, type StateFileOptions } from './state-file.ts'
import { clientErrorAnswer, originInRawPacket, rawHttpResponse } from './raw-client-error.ts'
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
  /**
   * Bytes of request bodies held in memory at once, across all connections;
   * a body past it waits, unread, for its turn. Default 32 MiB.
   */
  readonly maxBufferedBodyBytes?: number
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
  const budget = new BodyBudget(options.maxBufferedBodyBytes ?? defaults.maxBufferedBodyBytes)
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
          const response = app.respond(fromIncomingMessage(incoming, bodyLimit, budget))
          if (isPromiseLike(response)) response.then((answered) => finish(incoming, outgoing, answered, started))
          else finish(incoming, outgoing, response, started)
        }
      : (incoming, outgoing) => {
          const started = log === undefined ? 0 : performance.now()
          serveThroughLane(lane, incoming, outgoing, bodyLimit, budget).then((status) => {
            if (log !== undefined)
              log({
                method: incoming.method ?? '-',
                path: (incoming.url ?? '-').slice(0, 2048),
                status,
                durationMs: performance.now() - started,
                plan: '-',
                caller: '-',
              })
          })
        }
  return Object.assign(listener, { app, ready: lane === undefined ? Promise.resolve() : lane.then(() => undefined) })
}

async function loadMswLane(app: App, options: ListenerOptions): Promise<FetchLane> {
  const { createMswLane } = await import('../handlers/msw-lane.ts')
  return createMswLane({ app, handlers: options.handlers, engine: options.engine ?? 'direct' })
}

async function serveThroughLane(
  lane: Promise<FetchLane>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  bodyLimit: number,
  budget: BodyBudget,
): Promise<number> {
  try {
    const response = await (await lane)(await toFetchRequest(incoming, bodyLimit, budget), { clientAddress: incoming.socket.remoteAddress })
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

/** A server's limits on connections, besides the listener's options. Defaults in `core/simulator/defaults.ts`. */
export interface ServerOptions extends ListenerOptions {
  /**
   * How long a client may take to send a request's headers, from its first
   * byte (or from the connection, for the first request); past it a 408
   * `request_timeout` Error body, or a plain close for a connection that
   * sent nothing. Default 10 000 (Node: 60 000). 0: no limit.
   */
  readonly headersTimeoutMs?: number
  /**
   * How long a client may take to send a whole request, body included (a
   * `Content-Length` that promises more than is sent ends here); past it a
   * 408 `request_timeout`. Only the request counts, not a slow answer.
   * Default 30 000 (Node: 300 000). At least `headersTimeoutMs`; 0: no limit.
   */
  readonly requestTimeoutMs?: number
  /**
   * Requests a connection may have waiting behind the one being answered
   * (HTTP/1.1 pipelining); past it the connection is closed. Default 16.
   */
  readonly maxPipelinedRequests?: number
}

/** A server built by {@link createServer}. */
export interface SimulatorServer {
  readonly server: Server
  readonly app: App
  /** Resolves once msw is loaded, for the lanes that need it. */
  readonly ready: Promise<void>
  /**
   * Drains and closes the server: stops accepting connections, closes idle
   * keep-alive connections at once, sends `Connection: close` on every answer
   * from now on, refuses requests that arrive meanwhile on open connections
   * with a 503 `shutting_down` (and `Retry-After`), and resolves as soon as
   * the requests in flight are answered; connections still busy after
   * `graceMs` (default 5000) are cut.
   */
  close(graceMs?: number): Promise<void>
}

/**
 * A `node:http` server for the simulator, not yet listening (hono's
 * separation of building and serving). Malformed or slow HTTP gets an Error
 * body with its status (400, 408, 413, 417, 431); each connection's requests
 * are answered one at a time, with at most `maxPipelinedRequests` waiting.
 */
export function createServer(options: ServerOptions = {}): SimulatorServer {
  const headersTimeout = options.headersTimeoutMs ?? defaults.headersTimeoutMs
  const requestTimeout = options.requestTimeoutMs ?? defaults.requestTimeoutMs
  const maxPipelinedRequests = options.maxPipelinedRequests ?? defaults.maxPipelinedRequests
  checkTimeouts(headersTimeout, requestTimeout)
  if (!Number.isSafeInteger(maxPipelinedRequests) || maxPipelinedRequests < 0)
    throw new RangeError(`maxPipelinedRequests must be a whole number, got ${maxPipelinedRequests}`)

  const listener = createRequestListener(options)
  const { app } = listener
  const log = loggerFor(options.log ?? defaults.libraryLog)
  const guard = new ConnectionGuard({ maxPipelinedRequests })
  const answer = (incoming: IncomingMessage, outgoing: ServerResponse, error: ApiError) => {
    const started = log === undefined ? 0 : performance.now()
    const response = applyCors(fromIncomingMessage(incoming, app.simulator.bodyLimit), errorResponse(error, { Connection: 'close' }))
    try {
      writePlainResponse(outgoing, response, incoming.method)
    } catch {
      outgoing.destroy()
    }
    if (log !== undefined) logPlain(log, incoming, response, started)
  }
  const refuseDraining = (incoming: IncomingMessage, outgoing: ServerResponse) =>
    answer(
      incoming,
      outgoing,
      new ApiError('shutting_down', 'The simulator is shutting down; retry on a new connection', {
        'Retry-After': String(shutdownRetryAfterSeconds),
      }),
    )
  // Node answers these two itself, with an empty body: its Host check is turned off below and done here, and
  // 'checkExpectation' replaces its bare 417 (lib/_http_server.js, parserOnIncoming).
  const serve = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    if (lacksHost(incoming)) answer(incoming, outgoing, missingHost())
    else listener(incoming, outgoing)
  }
  const refuseExpectation = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    if (lacksHost(incoming)) answer(incoming, outgoing, missingHost())
    else
      answer(
        incoming,
        outgoing,
        new ApiError(
          'expectation_failed',
          `Expect: ${JSON.stringify(incoming.headers.expect?.slice(0, 100))} is not supported; only 100-continue is`,
        ),
      )
  }

  const server = createHttpServer(
    {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: checkingInterval(headersTimeout, requestTimeout),
      requireHostHeader: false,
    },
    (incoming, outgoing) => guard.handle(incoming, outgoing, serve, refuseDraining),
  )
  server.on('checkExpectation', (incoming: IncomingMessage, outgoing: ServerResponse) =>
    guard.handle(incoming, outgoing, refuseExpectation, refuseDraining),
  )
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const apiError = clientErrorAnswer(error, socket, headersTimeout, requestTimeout)
    if (apiError === undefined || !socket.writable || !guard.canAnswerClientError(socket)) {
      socket.destroy()
      return
    }
    // CORS as on every other answer, so that a page on another origin reads the Error instead of a CORS failure.
    const response = errorResponse(apiError, corsHeaders(originInRawPacket(error), undefined))
    socket.end(rawHttpResponse(response))
    // Closed once the answer is flushed; a client that does not even take it gets as long as for its headers.
    socket.once('finish', () => socket.destroy())
    if (headersTimeout > 0) setTimeout(() => socket.destroy(), headersTimeout).unref()
  })

  let closing: Promise<void> | undefined
  return {
    server,
    app,
    ready: listener.ready,
    close(graceMs = 5000) {
      closing ??= new Promise<void>((resolve) => {
        guard.drain()
        // Open dashboards' event streams never finish by themselves: ended now, they do not hold the drain for the grace.
        app.closeStreams()
        const force = setTimeout(() => server.closeAllConnections(), graceMs)
        force.unref()
        server.close(() => {
          clearTimeout(force)
          resolve()
        })
        // server.close() does this too on Node >= 19; said explicitly because the drain depends on it.
        server.closeIdleConnections()
      })
      return closing
    },
  }
}

/**
 * The `Retry-After` of a request refused during a drain: the request was not
 * processed (not counted, not journaled), so it is safe to retry at once on
 * the simulator that replaces this one, which starts in well under a second.
 */
const shutdownRetryAfterSeconds = 1

function checkTimeouts(headersTimeout: number, requestTimeout: number): void {
  for (const [name, value] of [
    ['headersTimeoutMs', headersTimeout],
    ['requestTimeoutMs', requestTimeout],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number of milliseconds, got ${value}`)
  }
  // Node refuses the same (ERR_OUT_OF_RANGE), in its own option names.
  if (headersTimeout > 0 && requestTimeout > 0 && headersTimeout > requestTimeout) {
    throw new RangeError(`headersTimeoutMs (${headersTimeout}) must not be longer than requestTimeoutMs (${requestTimeout})`)
  }
}

/**
 * How often Node looks for connections past their timeouts. Its default is
 * every 30 s, so a 30 s request timeout would end anywhere from 30 to 60 s;
 * a tenth of the shortest timeout (at most 1 s, at least 10 ms) keeps the
 * overshoot under 10 %. The check walks only the connections receiving a
 * request, so running it each second costs nothing measurable.
 */
function checkingInterval(headersTimeout: number, requestTimeout: number): number {
  const shortest = Math.min(...[headersTimeout, requestTimeout].filter((timeout) => timeout > 0))
  return Number.isFinite(shortest) ? Math.min(1000, Math.max(10, Math.floor(shortest / 10))) : 30_000
}

/** RFC 9112 section 3.2: an HTTP/1.1 request without Host is a 400. HTTP/1.0 needs none. */
function lacksHost(incoming: IncomingMessage): boolean {
  return incoming.httpVersionMajor === 1 && incoming.httpVersionMinor >= 1 && incoming.headers.host === undefined
}

function missingHost(): ApiError {
  return new ApiError('bad_request', 'An HTTP/1.1 request needs a Host header (RFC 9112, section 3.2)')
}

export interface StartServerOptions extends ServerOptions {
  /** Default 4010; 0 picks a free port. */
  readonly port?: number
  /** Default 127.0.0.1. */
  readonly host?: string
  /** A file the state is restored from at start (when it exists) and saved to on `close()` and periodically (see `state-file.ts`). */
  readonly state?: string | StateFileOptions
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
  /** Drains and closes the server: see {@link SimulatorServer.close}. */
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
  const { server, app, ready, close } = createServer(options)
  // Before listening: a state file that cannot be restored stops start-up (StateFileError) and is never written.
  const stateFile =
    options.state === undefined
      ? undefined
      : openStateFile(app.simulator, typeof options.state === 'string' ? { path: options.state } : options.state)
  await ready
  const host = options.host ?? defaults.host
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? defaults.port, host, () => {
      server.off('error', reject)
      resolve()
    })
  }).catch((error: unknown) => {
    // Not started: nothing happened that the file should keep.
    stateFile?.discard()
    throw error
  })
  const address = server.address() as AddressInfo
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const url = `http://${hostPart}:${address.port}`
  const closeAndSave = async (graceMs?: number) => {
    await close(graceMs)
    await stateFile?.close()
  }
  return { url, apiUrl: `${url}${app.simulator.basePath}`, server, app, simulator: app.simulator, close: closeAndSave }
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
