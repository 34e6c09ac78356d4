import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../core/pipeline/api-error.ts'
import { normalizePath } from '../core/pipeline/path-normalisation.ts'
import type { BodyBudget } from './body-budget.ts'
import {
  payloadTooLarge,
  type PlainRequest,
  type PlainResponse,
  type ResponseStream,
  type TransportFacts,
} from '../core/pipeline/plain-http.ts'

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
  readonly #budget: BodyBudget | undefined
  #body: Promise<Uint8Array> | undefined

  constructor(incoming: IncomingMessage, bodyLimit: number, transport: TransportFacts, budget: BodyBudget | undefined) {
    const target = originForm(incoming.url ?? '')
    const queryStart = target.indexOf('?')
    this.method = incoming.method ?? 'GET'
    this.path = normalizePath(queryStart === -1 ? target : target.slice(0, queryStart))
    this.query = queryStart === -1 ? '' : target.slice(queryStart + 1)
    this.transport = transport
    this.#incoming = incoming
    this.#bodyLimit = bodyLimit
    this.#budget = budget
  }

  get authority(): string | undefined {
    return this.header('host')
  }

  header(name: string): string | undefined {
    return readRawHeader(this.#incoming.rawHeaders, name)
  }

  /** For the journal: Node's own list, not copied. */
  headerList(): readonly string[] {
    return this.#incoming.rawHeaders
  }

  readBody(): Promise<Uint8Array> {
    this.#body ??= readBody(this.#incoming, this.#bodyLimit, this.#budget)
    return this.#body
  }
}

/**
 * The target in origin form (`/v1/pets?limit=1`): an absolute-form target
 * (`http://host/v1/pets`, what a client sends a proxy) is read as its path and
 * query, as RFC 9112 §3.2.2 says a server must accept it.
 */
export function originForm(target: string): string {
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target)
  if (absolute === null) return target
  const rest = target.slice(absolute[0].length)
  return rest.startsWith('/') ? rest : `/${rest}`
}

/** The direct lane's view of a Node request. */
export function fromIncomingMessage(incoming: IncomingMessage, bodyLimit: number, budget?: BodyBudget): PlainRequest {
  return new IncomingRequestView(incoming, bodyLimit, { clientAddress: incoming.socket.remoteAddress }, budget)
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
 * the 413's `Connection: close`. With a `budget`, each chunk takes its size
 * from it as it arrives, and the body waits, unread, while the server holds
 * too many bytes of bodies (see {@link BodyBudget} and `collectBody`).
 * A body a middleware mounted before has already read is taken from where it
 * left it ({@link consumedBody}), within the same limit.
 */
export function readBody(incoming: IncomingMessage, limit: number, budget?: BodyBudget): Promise<Uint8Array> {
  const lengthHeader = incoming.headers['content-length']
  const declared = lengthHeader === undefined ? undefined : Number(lengthHeader)
  if (declared !== undefined && declared > limit) {
    incoming.resume()
    return Promise.reject(payloadTooLarge(limit))
  }
  let parsed: Uint8Array | undefined
  try {
    parsed = consumedBody(incoming)
  } catch (error) {
    return Promise.reject(error)
  }
  if (parsed !== undefined) return parsed.byteLength > limit ? Promise.reject(payloadTooLarge(limit)) : Promise.resolve(parsed)
  const length = declared !== undefined && Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined
  return collectBody(incoming, limit, length, budget)
}

/**
 * The body a middleware before this one has already read, or undefined while
 * the stream is unread. A body parser mounted first (`express.json()`,
 * `express.text()`, `express.raw()`, body-parser, a home-made one) reads the
 * stream to its end, so its `end` has been emitted and waiting for it would
 * never finish; what the parser kept is in `req.body`:
 * - a Buffer or Uint8Array (`express.raw()`): the bytes as sent;
 * - a string (`express.text()`): sent on as UTF-8;
 * - anything else (`express.json()`, `express.urlencoded()`): serialised
 *   again with `JSON.stringify`. The original bytes are gone, so what only
 *   they show cannot be checked: invalid UTF-8 (body-parser has already
 *   replaced it with U+FFFD), the size as sent. The body limit is checked on
 *   the bytes handed on, besides the declared `Content-Length`.
 * - nothing: an empty body. A stream read to its end with nothing kept (a
 *   logger, a checksum) leaves no bytes to read.
 * The stream counts as read when its `end` was emitted (`readableEnded`), when
 * it is complete and no longer readable (what body-parser 2 checks, through
 * on-finished, before it reads: `complete && !readable`), or when body-parser
 * 1.x marked it (`_body`). `req.body` alone is no sign: body-parser 1.x sets
 * `{}` on every request whose type it does not parse and leaves the stream
 * unread, so those bytes are still read from the stream.
 */
function consumedBody(incoming: IncomingMessage): Uint8Array | undefined {
  const { body, _body: markedRead } = incoming as IncomingMessage & { body?: unknown; _body?: unknown }
  const read = incoming.readableEnded || (incoming.complete && !incoming.readable) || markedRead === true
  if (!read) return undefined
  if (body === undefined || body === null) return new Uint8Array(0)
  if (body instanceof Uint8Array) return body
  if (typeof body === 'string') return utf8Encoder.encode(body)
  let text: string | undefined
  try {
    text = JSON.stringify(body)
  } catch (error) {
    // Not from a JSON parser (a cycle, a BigInt): some other middleware's object.
    throw new ApiError(
      'bad_request',
      `The request body was read before the simulator and cannot be serialised again: ${(error as Error).message}`,
    )
  }
  return utf8Encoder.encode(text ?? '')
}

// Stateless: encoding whole strings keeps no state between calls.
const utf8Encoder = new TextEncoder()

/**
 * Collects a body's chunks. With a budget, each chunk takes its size from it
 * as it arrives, and the stream pauses (TCP then holds the client back) while
 * the budget is spent: what is counted is what is really held, so clients
 * that announce large bodies and send nothing hold nothing, and cannot make
 * small bodies wait behind them. Everything taken is given back once the body
 * is handed on (or refused).
 */
function collectBody(
  incoming: IncomingMessage,
  limit: number,
  length: number | undefined,
  budget: BodyBudget | undefined,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const taken: Array<() => void> = []
    let waiting: { cancel(): void } | undefined
    // Chunks are taken in the order they came: each waits for the one before.
    let inOrder: Promise<void> = Promise.resolve()
    let waitingChunks = 0
    const giveBack = () => {
      waiting?.cancel()
      for (const release of taken.splice(0)) release()
    }
    const fail = (error: unknown) => {
      if (done) return
      done = true
      giveBack()
      incoming.off('data', onData)
      incoming.resume()
      reject(error)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit || (length !== undefined && size > length)) return fail(payloadTooLarge(limit))
      if (budget === undefined) {
        chunks.push(chunk)
        return
      }
      // The common case: room in the budget and no chunk of this body still waiting. No pause, no promise.
      const release = waitingChunks === 0 ? budget.take(chunk.length) : undefined
      if (release !== undefined) {
        taken.push(release)
        chunks.push(chunk)
        return
      }
      waitingChunks++
      incoming.pause()
      const reservation = budget.reserve(chunk.length)
      inOrder = inOrder
        .then(() => {
          waiting = reservation
          return reservation.granted
        })
        .then((release) => {
          waiting = undefined
          waitingChunks--
          if (done) return release()
          taken.push(release)
          chunks.push(chunk)
          incoming.resume()
        })
    }
    incoming.on('data', onData)
    const finish = () => {
      if (done) return
      done = true
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
      // The bytes are the pipeline's now; it reads them at once (decoding or refusing them).
      giveBack()
    }
    incoming.once('end', () => {
      if (waitingChunks === 0) finish()
      else void inOrder.then(finish)
    })
    // 'close' before 'end' is an abort: a body waiting for the budget gives its place back.
    incoming.once('close', () => {
      if (!incoming.readableEnded) fail(new ApiError('bad_request', 'The connection closed before the request body was read'))
    })
    incoming.once('error', (error) => fail(new ApiError('bad_request', `The request body could not be read: ${error.message}`)))
  })
}

/** Writes a plain response with its `Content-Length`; a HEAD gets the headers only. */
export function writePlainResponse(outgoing: ServerResponse, response: PlainResponse, method: string | undefined): void {
  const fault = response.transportFault
  // A HEAD has no body to cut: a truncated answer to it is its status and headers, as they would have been.
  if (fault !== undefined && fault.kind !== 'empty' && !(fault.kind === 'truncate' && method === 'HEAD')) {
    breakConnection(outgoing, response, fault)
    return
  }
  if (response.stream !== undefined) {
    writeStream(outgoing, response, response.stream)
    return
  }
  const { headers } = response
  const body = fault?.kind === 'empty' ? '' : response.body
  // The headers object is this response's own (see PlainResponse): adding to it costs no copy.
  if (response.status !== 204 && response.status !== 304)
    headers['Content-Length'] = String(body === undefined ? 0 : Buffer.byteLength(body))
  outgoing.writeHead(response.status, headers)
  outgoing.end(method === 'HEAD' ? undefined : body)
}

/**
 * Writes a streamed body (the dashboard's events): the headers at once, then
 * each chunk as the stream writes it, chunked. `hasRoom` is Node's own
 * backpressure (`writableNeedDrain`); the stream is closed when the
 * connection closes, whoever closes it. The response says `Connection:
 * close`: a stream holds its connection until it ends, and nothing is gained
 * by keeping it afterwards, while a server's drain needs it gone once the
 * stream is ended (Node then closes the socket after the last chunk).
 */
function writeStream(outgoing: ServerResponse, response: PlainResponse, stream: ResponseStream): void {
  response.headers.Connection = 'close'
  outgoing.writeHead(response.status, response.headers)
  const writable = () => !outgoing.writableEnded && !outgoing.destroyed
  const close = stream.open({
    write(chunk) {
      if (writable()) outgoing.write(chunk)
    },
    get hasRoom() {
      return writable() && !outgoing.writableNeedDrain
    },
    end() {
      if (writable()) outgoing.end()
    },
  })
  outgoing.once('close', close)
}

/**
 * Carries out a fault rule's damage: `reset` drops the connection at once
 * (an RST), `hang` answers nothing and drops it after `hangMs`, `truncate`
 * sends the status, the headers with the full `Content-Length`, and half the
 * body, then drops it.
 */
function breakConnection(outgoing: ServerResponse, response: PlainResponse, fault: NonNullable<PlainResponse['transportFault']>): void {
  const socket = outgoing.socket
  const drop = () => {
    if (socket === null) return
    if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy()
    else socket.destroy()
  }
  if (fault.kind === 'reset') {
    drop()
    return
  }
  if (fault.kind === 'hang') {
    const timer = setTimeout(drop, fault.hangMs)
    socket?.once('close', () => clearTimeout(timer))
    return
  }
  const bytes = Buffer.from(response.body ?? '')
  response.headers['Content-Length'] = String(bytes.byteLength)
  outgoing.writeHead(response.status, response.headers)
  outgoing.write(bytes.subarray(0, Math.floor(bytes.byteLength / 2)), drop)
}
