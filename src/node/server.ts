import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { applyCors, corsHeaders } from '../app/cors.ts'
import type { App } from '../app/app.ts'
import { ApiError } from '../core/http/api-error.ts'
import { errorResponse } from '../core/http/plain-http.ts'
import { defaults } from '../core/defaults.ts'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'
import { answerConnect } from './connect-request.ts'
import { ConnectionGuard } from './connection-guard.ts'
import { clientErrorAnswer, originInRawPacket, rawHttpResponse } from './raw-client-error.ts'
import { openStateFile, type StateFile, type StateFileOptions } from './state-file.ts'
import { createServingListener, type ListenerOptions } from './request-listener.ts'
import { fromIncomingMessage } from './request-view.ts'

/*
 * node:http is taken with process.getBuiltinModule, not an ESM import: importing a builtin as ESM copies every
 * export, which runs node:http's lazy getters and loads undici (its WebSocket and fetch classes): several times
 * what `getBuiltinModule` costs, at every start-up, for what the direct lane never needs (test/bench/HISTORY.md,
 * "Figures moved out of source comments").
 */
const { createServer: createHttpServer } = process.getBuiltinModule('node:http')

/** A server's limits on connections, besides the listener's options. Defaults in `core/defaults.ts`. */
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

  const { listener, app, ready, send, record, startTimer, budget } = createServingListener(options, { sendsContinue: true })
  const guard = new ConnectionGuard({ maxPipelinedRequests })
  const answer = (incoming: IncomingMessage, outgoing: ServerResponse, error: ApiError, close = true) => {
    const started = startTimer()
    send(
      incoming,
      outgoing,
      applyCors(fromIncomingMessage(incoming, app.simulator.bodyLimit), errorResponse(error, close ? { Connection: 'close' } : {})),
      started,
    )
  }
  // The guard marks the last answer of a draining connection `Connection: close`; a 503 with requests behind it leaves it open for them.
  const refuseDraining = (incoming: IncomingMessage, outgoing: ServerResponse) => answer(incoming, outgoing, shuttingDown(), false)
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
  // `Expect: 100-continue`: served as any request; the listener sends `100 Continue` when it reads the body.
  server.on('checkContinue', (incoming: IncomingMessage, outgoing: ServerResponse) =>
    guard.handle(incoming, outgoing, serve, refuseDraining),
  )
  server.on('checkExpectation', (incoming: IncomingMessage, outgoing: ServerResponse) =>
    guard.handle(incoming, outgoing, refuseExpectation, refuseDraining),
  )
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const apiError = clientErrorAnswer(error, socket, headersTimeout, requestTimeout)
    // A body timed out while the API reads it: the API answers the 408 (journaled and logged as one; it was a 400,
    // "the connection closed"), closing the connection; Node's own timer still cuts a client that does not take it.
    const receiving = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && apiError !== undefined ? guard.receiving(socket) : undefined
    if (receiving !== undefined && budget.failRead(receiving, new ApiError(apiError!.code, apiError!.message, { Connection: 'close' }))) {
      if (headersTimeout > 0) setTimeout(() => socket.destroy(), headersTimeout).unref()
      return
    }
    if (apiError === undefined || !socket.writable || !guard.canAnswerClientError(socket)) {
      socket.destroy()
      return
    }
    // CORS as on every other answer, so that a page allowed to call reads the Error instead of a CORS failure; and,
    // as on every other answer, only for this machine's pages and the origins the user named.
    const origin = originInRawPacket(error)
    const grant = origin !== undefined && app.simulator.origins.allows(origin) ? origin : undefined
    const response = errorResponse(apiError, corsHeaders(grant, undefined))
    socket.end(rawHttpResponse(response))
    // Closed once the answer is flushed; a client that does not even take it gets as long as for its headers.
    socket.once('finish', () => socket.destroy())
    if (headersTimeout > 0) setTimeout(() => socket.destroy(), headersTimeout).unref()
  })

  const connectContext = {
    app,
    record,
    startTimer,
    sendTimeoutMs: headersTimeout,
    refusal: (incoming: IncomingMessage) => (lacksHost(incoming) ? missingHost() : guard.draining ? shuttingDown() : undefined),
  }
  server.on('connect', (incoming: IncomingMessage, socket: Socket) => answerConnect(connectContext, incoming, socket))

  let closing: Promise<void> | undefined
  return {
    server,
    app,
    ready,
    close(graceMs = 5000) {
      closing ??= new Promise<void>((resolve) => {
        guard.drain()
        // Bodies still arriving end now with the 503 (the request was not processed): a slow one held the exit for the grace.
        budget.failReads(shuttingDown())
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

function shuttingDown(): ApiError {
  return new ApiError('shutting_down', 'The simulator is shutting down; retry on a new connection', {
    'Retry-After': String(shutdownRetryAfterSeconds),
  })
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
  /**
   * The state file (`state`), with what start-up found there: a state restored, an empty file, or nothing yet. For the
   * CLI's banner only.
   * @internal
   */
  readonly stateFile?: Pick<StateFile, 'path' | 'found' | 'createdPets'> | undefined
  /** Drains and closes the server: see {@link SimulatorServer.close}. */
  close(graceMs?: number): Promise<void>
}

/**
 * Starts the simulator on a port and resolves once it is listening.
 *
 * @example
 * const running = await startServer({ app: createNodeApp({ seed: 7 }), port: 0 })
 * await fetch(`${running.apiUrl}/pets`, { headers: { Authorization: 'Bearer demo-pro-key' } })
 * await running.close()
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const { server, app, ready, close } = createServer(options)
  // Before listening: a state file that cannot be restored stops start-up (StateFileError) and is never written.
  const stateFile =
    options.state === undefined
      ? undefined
      : openStateFile(app.simulator, typeof options.state === 'string' ? { path: options.state } : options.state, app.sandboxes)
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
  const state =
    stateFile === undefined ? {} : { stateFile: { path: stateFile.path, found: stateFile.found, createdPets: stateFile.createdPets } }
  return { url, apiUrl: `${url}${app.simulator.basePath}`, server, app, simulator: app.simulator, ...state, close: closeAndSave }
}
