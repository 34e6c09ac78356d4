import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../core/pipeline/api-error.ts'
import { hasDotSegment } from '../core/pipeline/path-normalisation.ts'
import type { BodyBudget } from './body-budget.ts'
import { originForm, readBody } from './incoming-request.ts'

/**
 * Builds a Fetch `Request` from a Node request, for the lanes that serve
 * through msw (`--handlers`, `--engine msw`). The body is read when someone
 * reads it ({@link lazyBody}), up to the limit, or taken from `req.body` when a
 * body parser before the middleware has read it. A request Node could parse
 * but Fetch cannot represent is a 400 `bad_request`.
 */
export function toFetchRequest(incoming: IncomingMessage, bodyLimit: number, budget?: BodyBudget): Request {
  const target = originForm(incoming.url ?? '')
  if (!target.startsWith('/')) {
    throw new ApiError('bad_request', `The request target must be a path (got ${JSON.stringify(target.slice(0, 100))})`)
  }
  if (hasDotSegment(target.split('?', 1)[0]!)) throw new ApiError('bad_request', 'The path has a dot segment (. or ..): send it resolved')
  const method = incoming.method ?? 'GET'
  const hasBody =
    method !== 'GET' &&
    method !== 'HEAD' &&
    (incoming.headers['content-length'] !== '0' || incoming.headers['transfer-encoding'] !== undefined)
  try {
    // The raw name/value pairs go to Request as they are: one conversion, no intermediate Headers.
    const raw = incoming.rawHeaders
    const headers: Array<[string, string]> = []
    for (let index = 0; index < raw.length; index += 2) headers.push([raw[index]!, raw[index + 1]!])
    return new Request(originOf(incoming) + target, {
      method,
      headers,
      ...(hasBody ? { body: lazyBody(incoming, bodyLimit, budget), duplex: 'half' } : {}),
    } as RequestInit)
  } catch (error) {
    throw new ApiError('bad_request', `Malformed request: ${(error as Error).message}`)
  }
}

/**
 * The request body as a stream read only when someone reads it, with the
 * limit and the budget of the direct lane: so on the msw lane too, nothing
 * reads a body before the request is authenticated and within its limits, and
 * a body over the limit is the pipeline's 413 (counted, with the rate-limit
 * headers), not an answer before the API. A stream errored with an error
 * makes `request.arrayBuffer()` (and its clones') reject with that error.
 */
function lazyBody(incoming: IncomingMessage, bodyLimit: number, budget: BodyBudget | undefined): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const bytes = await readBody(incoming, bodyLimit, budget)
        if (bytes.byteLength > 0) controller.enqueue(bytes)
        controller.close()
      } catch (error) {
        controller.error(error)
      }
    },
  })
}

/** Writes a Fetch `Response` to a Node response, with its `Content-Length`. */
export async function sendFetchResponse(outgoing: ServerResponse, response: Response, method: string | undefined): Promise<void> {
  // A network error (`Response.error()`, a fault rule's reset): no answer, the connection dropped.
  if (response.type === 'error') return dropConnection(outgoing)
  if (response.body !== null && response.headers.get('content-type')?.startsWith('text/event-stream') === true)
    return pipeStream(outgoing, response, response.body)
  const { bytes: body, broken } = await readAll(response)
  const headers: Record<string, string | string[] | number> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  // A HEAD's answer carries the GET's Content-Length and no body.
  if (response.status !== 204 && response.status !== 304 && !(method === 'HEAD' && headers['content-length'] !== undefined))
    headers['content-length'] = body?.length ?? 0
  if (broken && method !== 'HEAD') {
    // A body that broke off (a fault rule's truncate): what arrived, under the full Content-Length, then the connection dropped.
    headers['content-length'] = response.headers.get('content-length') ?? headers['content-length']!
    outgoing.writeHead(response.status, headers)
    outgoing.write(body ?? Buffer.alloc(0), () => dropConnection(outgoing))
    return
  }
  outgoing.writeHead(response.status, headers)
  outgoing.end(method === 'HEAD' ? undefined : body)
}

/**
 * An event stream (the dashboard's) written as it comes, chunked, with
 * Node's backpressure; the reader is cancelled when the connection closes.
 * `Connection: close`, as the direct lane sends it: see `writeStream`.
 */
async function pipeStream(outgoing: ServerResponse, response: Response, body: ReadableStream<Uint8Array>): Promise<void> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  headers.connection = 'close'
  outgoing.writeHead(response.status, headers)
  const reader = body.getReader()
  outgoing.once('close', () => void reader.cancel().catch(() => {}))
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || outgoing.destroyed) break
      if (!outgoing.write(value)) await new Promise((resolve) => outgoing.once('drain', resolve).once('close', resolve))
    }
  } catch {
    // Cancelled because the client went away: nothing left to write to.
  }
  if (!outgoing.writableEnded && !outgoing.destroyed) outgoing.end()
}

/** The body's bytes, and whether the stream broke off before its end. */
async function readAll(response: Response): Promise<{ bytes: Buffer | undefined; broken: boolean }> {
  if (response.body === null) return { bytes: undefined, broken: false }
  const chunks: Uint8Array[] = []
  const reader = response.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return { bytes: Buffer.concat(chunks), broken: false }
      chunks.push(value)
    }
  } catch {
    return { bytes: Buffer.concat(chunks), broken: true }
  }
}

/** Drops the connection without an answer: a reset (RST) where the socket can send one. */
export function dropConnection(outgoing: ServerResponse): void {
  const socket = outgoing.socket
  if (socket === null) return
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy()
  else socket.destroy()
}

/**
 * The origin a Fetch URL is built on: the `Host` when it is a plain host name,
 * so a hostile Host cannot change the path. Anything else (no Host, `evil/`,
 * `a@b`) becomes a name that is no loopback name, so the control plane refuses
 * it as the direct lane does (it reads the raw `Host` there).
 */
function originOf(incoming: IncomingMessage): string {
  const host = incoming.headers.host
  return `http://${host !== undefined && /^[\w.-]+(:\d+)?$|^\[[\da-fA-F:.]+\](:\d+)?$/.test(host) ? host : 'unrecognised-host.invalid'}`
}
