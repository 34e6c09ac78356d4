import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../core/api-error.ts'
import { normalizePath } from '../core/path-normalisation.ts'
import { payloadTooLarge, type PlainRequest, type PlainResponse, type TransportFacts } from '../core/plain-http.ts'

/**
 * A Node `IncomingMessage` seen as a {@link PlainRequest}: the direct lane.
 * No Fetch `Request` is built. Headers are read from `rawHeaders`, repeated
 * ones joined with `, ` as Fetch joins them (Node's `headers` object keeps
 * only the first `Authorization`, so two of them would pass on Node and fail
 * on Fetch); the path's dot segments are resolved as the URL parser resolves
 * them; the body is read on demand, counted while it streams.
 */
class IncomingRequestView implements PlainRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly transport: TransportFacts
  readonly #incoming: IncomingMessage
  readonly #bodyLimit: number
  #body: Promise<Uint8Array> | undefined

  constructor(incoming: IncomingMessage, bodyLimit: number, transport: TransportFacts) {
    const target = incoming.url ?? ''
    const queryStart = target.indexOf('?')
    this.method = incoming.method ?? 'GET'
    this.path = normalizePath(queryStart === -1 ? target : target.slice(0, queryStart))
    this.query = queryStart === -1 ? '' : target.slice(queryStart + 1)
    this.transport = transport
    this.#incoming = incoming
    this.#bodyLimit = bodyLimit
  }

  get authority(): string | undefined {
    return this.header('host')
  }

  header(name: string): string | undefined {
    return readRawHeader(this.#incoming.rawHeaders, name)
  }

  readBody(): Promise<Uint8Array> {
    this.#body ??= readBody(this.#incoming, this.#bodyLimit)
    return this.#body
  }
}

/** The direct lane's view of a Node request. */
export function fromIncomingMessage(incoming: IncomingMessage, bodyLimit: number): PlainRequest {
  return new IncomingRequestView(incoming, bodyLimit, { clientAddress: incoming.socket.remoteAddress })
}

/** A header's value from Node's raw name/value list, by lower-case name; repeated fields joined with `, `. */
export function readRawHeader(raw: readonly string[], name: string): string | undefined {
  let value: string | undefined
  for (let index = 0; index < raw.length; index += 2) {
    const candidate = raw[index]!
    if (candidate.length === name.length && candidate.toLowerCase() === name) {
      value = value === undefined ? raw[index + 1]! : `${value}, ${raw[index + 1]!}`
    }
  }
  return value
}

/**
 * Reads a request body up to `limit` bytes, counted while streaming (a lying
 * or absent `Content-Length` does not get past it). Past the limit, a 413
 * `ApiError`; the rest is drained, unread, and the connection is closed by
 * the 413's `Connection: close`.
 */
export function readBody(incoming: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(incoming.headers['content-length'])
  if (declared > limit) {
    incoming.resume()
    return Promise.reject(payloadTooLarge(limit))
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        incoming.off('data', onData)
        incoming.resume()
        reject(payloadTooLarge(limit))
        return
      }
      chunks.push(chunk)
    }
    incoming.on('data', onData)
    incoming.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)))
    incoming.once('error', (error) => reject(new ApiError('bad_request', `The request body could not be read: ${error.message}`)))
  })
}

/** Writes a plain response with its `Content-Length`; a HEAD gets the headers only. */
export function writePlainResponse(outgoing: ServerResponse, response: PlainResponse, method: string | undefined): void {
  const { headers, body } = response
  // The headers object is this response's own (see PlainResponse): adding to it costs no copy.
  if (response.status !== 204 && response.status !== 304) headers['Content-Length'] = String(body === undefined ? 0 : Buffer.byteLength(body))
  outgoing.writeHead(response.status, headers)
  outgoing.end(method === 'HEAD' ? undefined : body)
}
