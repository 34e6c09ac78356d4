import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestHandler } from 'msw'
import type { App } from '../app/app.ts'
import { errorResponse, isPromiseLike, type PlainResponse } from '../core/http/plain-http.ts'
import { defaults } from '../core/defaults.ts'
import { createKeyScrubber } from '../core/journal/journal-redaction.ts'
import { BodyBudget } from './body-budget.ts'
import { toFetchRequest } from './fetch-request.ts'
import { sendFetchResponse } from './fetch-response.ts'
import type { Engine, FetchLane } from './lane-types.ts'
import { loadMswLane } from './msw-lane-loader.ts'
import { createNodeApp } from './node-app.ts'
import { clientGoneSignal, fromIncomingMessage } from './request-view.ts'
import { clientAddressReader } from './forwarded-address.ts'
import { logAnswer, loggerFor, type LogFormat, type RequestLogger } from './request-log.ts'
import { dropIfNotTaken, writePlainResponse } from './response-writer.ts'
import { assertSupportedNode } from './supported-node.ts'

/** How a listener serves: the app, how it logs, and optionally msw in front. */
export interface ListenerOptions {
  /** Default: {@link createNodeApp} with default options. */
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
  /**
   * How long a request body being read may go without a byte before it is
   * answered 408 `request_timeout` (a minimum data rate; checked each quarter of it, so within 1.25 times it). Default 5000; 0: no limit.
   */
  readonly bodyIdleTimeoutMs?: number
  /**
   * How long a client may take to take an answer (its bytes handed to the
   * kernel); past it the connection is dropped. Default 10 000; 0: no limit.
   * Event streams are exempt.
   */
  readonly sendTimeoutMs?: number
  /**
   * The proxies trusted to say who their client is (`X-Forwarded-For`, else `Forwarded`'s `for=`): addresses, CIDR
   * ranges, or `loopback`, `linklocal`, `uniquelocal`, as Express's `trust proxy`. A request from one of them counts
   * against the anonymous bucket of the address it forwards, and the control plane's loopback check reads that address.
   * Default: none, and no forwarding header is read.
   */
  readonly trustProxy?: readonly string[]
}

/** A `node:http` request listener, as `http.createServer(listener)` takes it. */
export type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => void

/**
 * Writes a plain answer and logs it; `started` is from {@link startTimer}.
 * Every plain answer of the Node lane leaves through one `send`: the direct
 * lane's, the msw lane's own errors, and the errors a server answers itself
 * (a missing Host, an `Expect`, a request during a drain).
 */
export type Send = (incoming: IncomingMessage, outgoing: ServerResponse, response: PlainResponse, started: number) => void

/** A listener with what a server built on it needs besides: its app, when msw is loaded, its `send` and timer. */
export interface ServingListener {
  readonly listener: NodeListener
  readonly app: App
  readonly ready: Promise<void>
  readonly send: Send
  /** The bytes of bodies held at once, and the bodies being read (a drain ends them). */
  readonly budget: BodyBudget
  /** Logs an answer written some other way than `send` (a `CONNECT`'s, as raw bytes). */
  readonly record: (incoming: IncomingMessage, response: PlainResponse, started: number) => void
  /** The start of a request, for its log record's duration: not read (0) when nothing is logged. */
  readonly startTimer: () => number
}

/** The listener of {@link createRequestListener}, with its `send`, for `createServer`. */
export function createServingListener(options: ListenerOptions = {}, server?: { readonly sendsContinue: boolean }): ServingListener {
  assertSupportedNode()
  const app = options.app ?? createNodeApp()
  const log = loggerFor(options.log ?? defaults.libraryLog)
  const scrub = createKeyScrubber(() => app.simulator.keys)
  const { bodyLimit } = app.simulator
  const clientAddress = clientAddressReader(options.trustProxy)
  const bodyIdleTimeoutMs = options.bodyIdleTimeoutMs ?? defaults.bodyIdleTimeoutMs
  if (!Number.isSafeInteger(bodyIdleTimeoutMs) || bodyIdleTimeoutMs < 0)
    throw new RangeError(`bodyIdleTimeoutMs must be a whole number of milliseconds, got ${bodyIdleTimeoutMs}`)
  const budget = new BodyBudget(options.maxBufferedBodyBytes ?? defaults.maxBufferedBodyBytes, bodyIdleTimeoutMs)
  const useMsw = (options.handlers !== undefined && options.handlers.length > 0) || options.engine === 'msw'
  // msw is imported only for these lanes, and the import starts now: `ready` says when it is done.
  const lane = useMsw ? loadMswLane(app, options) : undefined
  const startTimer = log === undefined ? () => 0 : () => performance.now()
  // A server that listens for 'checkContinue' sends `100 Continue` itself, when the body is read: after authentication
  // and the limits, so that a request refused anyway (401, 413) is refused before its body is sent. Under a host's
  // server (the middleware) Node has sent it already.
  const continueFor = (incoming: IncomingMessage, outgoing: ServerResponse): (() => void) | undefined =>
    server?.sendsContinue === true && incoming.headers.expect?.toLowerCase() === '100-continue'
      ? () => {
          if (!outgoing.headersSent) outgoing.writeContinue()
        }
      : undefined

  const sendTimeoutMs = options.sendTimeoutMs ?? defaults.sendTimeoutMs
  if (!Number.isSafeInteger(sendTimeoutMs) || sendTimeoutMs < 0)
    throw new RangeError(`sendTimeoutMs must be a whole number of milliseconds, got ${sendTimeoutMs}`)
  const send: Send = (incoming, outgoing, response, started) => {
    try {
      writePlainResponse(outgoing, response, incoming.method)
      if (response.stream === undefined) dropIfNotTaken(outgoing, sendTimeoutMs)
    } catch {
      outgoing.destroy()
    }
    if (log !== undefined) logAnswer(log, incoming, response, started, scrub)
  }

  const listener: NodeListener =
    lane === undefined
      ? (incoming, outgoing) => {
          const started = startTimer()
          // The app turns every error into a response, so `respond` neither throws nor rejects.
          const request = fromIncomingMessage(
            incoming,
            bodyLimit,
            budget,
            continueFor(incoming, outgoing),
            outgoing,
            clientAddress(incoming),
          )
          const response = app.respond(request)
          if (isPromiseLike(response)) response.then((answered) => send(incoming, outgoing, answered, started))
          else send(incoming, outgoing, response, started)
        }
      : (incoming, outgoing) => {
          const started = startTimer()
          void serveThroughLane(lane, incoming, outgoing, bodyLimit, budget, continueFor(incoming, outgoing), clientAddress(incoming)).then(
            (status) => {
              // Whole answers only: a streamed one is still being written, with backpressure, when this resolves.
              if (outgoing.writableEnded) dropIfNotTaken(outgoing, sendTimeoutMs)
              if (log !== undefined) logAnswer(log, incoming, { status }, started, scrub)
            },
            // Only the bridge's own errors (413, an unrepresentable request) reach here: the lane answers everything else.
            (error: unknown) => send(incoming, outgoing, errorResponse(error), started),
          )
        }
  const record = (incoming: IncomingMessage, response: PlainResponse, started: number) => {
    if (log !== undefined) logAnswer(log, incoming, response, started, scrub)
  }
  return { listener, app, ready: lane === undefined ? Promise.resolve() : lane.then(() => undefined), send, record, startTimer, budget }
}

/** Answers a request through the msw lane; resolves with the status sent, rejects with what was not sent. */
async function serveThroughLane(
  lane: Promise<FetchLane>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  bodyLimit: number,
  budget: BodyBudget,
  beforeRead: (() => void) | undefined,
  clientAddress: string | undefined,
): Promise<number> {
  const response = await (await lane)(await toFetchRequest(incoming, bodyLimit, budget, beforeRead, clientGoneSignal(outgoing)), {
    clientAddress,
  })
  await sendFetchResponse(outgoing, response, incoming.method)
  return response.status
}

/**
 * A `node:http` request listener serving the simulator. It knows nothing of
 * the app but its `respond`: it hands each request over as plain data with
 * the client's address as a transport fact, and writes the plain answer with
 * `writeHead`/`end`. With `handlers` or `engine: 'msw'` it serves through msw
 * instead, which is loaded only then.
 *
 * @example
 * import { createServer } from 'node:http'
 * createServer(createRequestListener({ app: createNodeApp({ seed: 1 }) })).listen(4010)
 */
export function createRequestListener(options: ListenerOptions = {}): NodeListener & { app: App; ready: Promise<void> } {
  const { listener, app, ready } = createServingListener(options)
  return Object.assign(listener, { app, ready })
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
