import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { ApiError } from '../core/api-error.ts'
import { controlPath } from '../http/control-handlers.ts'
import { errorResponse } from '../http/json-response.ts'
import { journalEntryOf } from '../http/message-annotations.ts'
import { createApp, type App, type AppOptions } from '../server/app.ts'
import type { Simulator } from '../simulator.ts'
import { defaultBodyLimit, sendFetchResponse, toFetchRequest } from './node-adapter.ts'
import { readOpenApiDocument } from './openapi-document.ts'
import { createRequestLogger, type LogFormat, type RequestLogger } from './request-log.ts'

export interface NodeServerOptions extends AppOptions {
  /** Serve this app instead of creating one from the options. */
  app?: App
  /** Largest request body in bytes; larger ones get 413. Default 1 MiB. */
  bodyLimit?: number
  /** `pretty`, `json`, `silent` (default), or a function receiving each request's record. */
  log?: LogFormat | RequestLogger
}

type NodeHandler = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>

/**
 * A `node:http` request listener serving the simulator: each Node request
 * becomes a Fetch `Request` for the app, and its `Response` is written back.
 *
 * @example
 * import { createServer } from 'node:http'
 * createServer(createRequestListener({ seed: 1 })).listen(4010)
 */
export function createRequestListener(options: NodeServerOptions = {}): NodeHandler & { app: App } {
  const app = options.app ?? createApp({ openApiDocument: readOpenApiDocument, ...options })
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit
  const format = options.log ?? 'silent'
  // Silent logging costs nothing per request: no record is built.
  const log = typeof format === 'function' ? format : format === 'silent' ? undefined : createRequestLogger(format, writeLine)
  const listener = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const started = performance.now()
    let response: Response
    try {
      const request = await toFetchRequest(incoming, originOf(incoming), bodyLimit)
      app.simulator.setClientAddress(request, incoming.socket.remoteAddress ?? 'unknown')
      response = await app.fetch(request)
    } catch (error) {
      response = errorResponse(ApiError.from(error))
    }
    try {
      await sendFetchResponse(outgoing, response, incoming.method)
    } catch {
      outgoing.destroy()
    }
    if (log !== undefined) logRequest(log, incoming, response, started)
  }
  return Object.assign(listener, { app })
}

/**
 * A connect-style middleware (express, Vite's dev server, …) that answers
 * the API and control paths and passes every other request to `next()`
 * untouched, its body unread.
 *
 * @example
 * // vite.config.ts
 * export default { plugins: [{ name: 'petstore-sim', configureServer: (server) => { server.middlewares.use(createMiddleware()) } }] }
 */
export function createMiddleware(
  options: NodeServerOptions = {},
): ((incoming: IncomingMessage, outgoing: ServerResponse, next: (error?: unknown) => void) => void) & { app: App } {
  const listener = createRequestListener(options)
  const { basePath } = listener.app.simulator
  const owns = (path: string) =>
    path === basePath || path.startsWith(`${basePath}/`) || path === controlPath || path.startsWith(`${controlPath}/`)
  const middleware = (incoming: IncomingMessage, outgoing: ServerResponse, next: (error?: unknown) => void) => {
    const path = (incoming.url ?? '').split('?', 1)[0]!
    if (!owns(path)) {
      next()
      return
    }
    listener(incoming, outgoing).catch(next)
  }
  return Object.assign(middleware, { app: listener.app })
}

/**
 * A `node:http` server for the simulator, not yet listening (hono's
 * separation of building and serving). Malformed HTTP gets a 400 Error body.
 */
export function createServer(options: NodeServerOptions = {}): { server: Server; app: App } {
  const listener = createRequestListener(options)
  const server = createHttpServer(listener)
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy()
      return
    }
    const body = JSON.stringify(new ApiError('bad_request', `Malformed HTTP request: ${error.code ?? error.message}`).toBody())
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  })
  return { server, app: listener.app }
}

export interface StartServerOptions extends NodeServerOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
}

/** A listening simulator. */
export interface RunningServer {
  /** The server's origin, e.g. `http://127.0.0.1:4010`. */
  readonly url: string
  /** The API's base URL, e.g. `http://127.0.0.1:4010/v1`. */
  readonly apiUrl: string
  readonly server: Server
  readonly app: App
  readonly simulator: Simulator
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
 * const running = await startServer({ port: 0, log: 'silent' })
 * await fetch(`${running.apiUrl}/pets`, { headers: { Authorization: 'Bearer demo-pro-key' } })
 * await running.close()
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const { server, app } = createServer(options)
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 4010, host, () => {
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

function originOf(incoming: IncomingMessage): string {
  const host = incoming.headers.host
  return `http://${host !== undefined && /^[\w.-]+(:\d+)?$|^\[[\da-fA-F:.]+\](:\d+)?$/.test(host) ? host : 'localhost'}`
}

function logRequest(log: RequestLogger, incoming: IncomingMessage, response: Response, started: number): void {
  const entry = journalEntryOf(response)
  log({
    method: incoming.method ?? '-',
    path: entry?.path ?? (incoming.url ?? '-').slice(0, 2048),
    status: response.status,
    durationMs: performance.now() - started,
    plan: entry?.plan ?? '-',
    caller: entry?.caller ?? '-',
  })
}

function writeLine(line: string): void {
  process.stdout.write(`${line}\n`)
}
