import type { IncomingMessage } from 'node:http'
import { ApiError } from '../core/http/api-error.ts'
import { payloadTooLarge } from '../core/http/plain-http.ts'
import type { BodyBudget, BodyReader } from './body-budget.ts'

/**
 * Reads a request body up to `limit` bytes, counted while streaming (a lying
 * or absent `Content-Length` does not get past it). Past the limit, a 413
 * `ApiError`; the rest is drained, unread, and the connection is closed by
 * the 413's `Connection: close`. With a `budget`, each chunk takes its size
 * from it as it arrives, and the body waits, unread, while the server holds
 * too many bytes of bodies (see {@link BodyBudget} and `collectBody`).
 * A body a middleware mounted before has already read is taken from where it
 * left it ({@link consumedBody}), within the same limit. `beforeRead` runs
 * just before the stream is read: the server's `100 Continue`.
 */
export function readBody(incoming: IncomingMessage, limit: number, budget?: BodyBudget, beforeRead?: () => void): Promise<Uint8Array> {
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
  // `100 Continue`, for a client that waits for it: only now, once the request is authenticated and within its limits.
  beforeRead?.()
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
 * is handed on (or refused). The budget also ends a body that stalls (its
 * minimum data rate, see {@link BodyBudget.heard}).
 *
 * The common case, a small body with room in the budget, is kept to what a
 * bare server does (a `data` and an `end` listener) plus `close` and `error`:
 * no timer, no promise but the one returned, and no closure at all: one
 * collector object, and listeners shared by every body that find it on the
 * request (`this` is the request). Closures per body (eight, and their
 * context) made about 1 KB of garbage a createPet (a sampling heap profile
 * of the bench's POST); a timer per body cost 6 µs of CPU before that.
 */
function collectBody(
  incoming: IncomingMessage,
  limit: number,
  length: number | undefined,
  budget: BodyBudget | undefined,
): Promise<Uint8Array> {
  const collector = new BodyCollector(incoming, limit, length, budget)
  const done = new Promise<Uint8Array>((resolve, reject) => {
    collector.resolve = resolve
    collector.reject = reject
  })
  ;(incoming as Collected)[collectorOf] = collector
  budget?.track(incoming, collector)
  incoming.on('data', onData)
  incoming.on('end', onEnd)
  incoming.on('close', onClose)
  incoming.on('error', onError)
  return done
}

/** Where a request being read keeps its collector, for the shared listeners. */
const collectorOf = Symbol('petstore-sim body collector')
type Collected = IncomingMessage & { [collectorOf]?: BodyCollector | undefined }

function onData(this: IncomingMessage, chunk: Buffer): void {
  ;(this as Collected)[collectorOf]?.data(chunk)
}
function onEnd(this: IncomingMessage): void {
  ;(this as Collected)[collectorOf]?.end()
}
function onClose(this: IncomingMessage): void {
  if (!this.readableEnded)
    (this as Collected)[collectorOf]?.fail(new ApiError('bad_request', 'The connection closed before the request body was read'))
}
function onError(this: IncomingMessage, error: Error): void {
  ;(this as Collected)[collectorOf]?.fail(new ApiError('bad_request', `The request body could not be read: ${error.message}`))
}

/** One body being read: its chunks, what it took from the budget, and how it ends. */
class BodyCollector implements BodyReader {
  heardAt = 0
  /** Chunks of the body waiting for the budget. */
  waiting = 0
  resolve: (body: Uint8Array) => void = () => undefined
  reject: (error: unknown) => void = () => undefined
  #first: Buffer | undefined
  #chunks: Buffer[] | undefined
  #size = 0
  #done = false
  /** Bytes taken from the budget at once ({@link BodyBudget.take}), given back together. */
  #takenBytes = 0
  /** The slow path's grants, and the reservation waiting, if any. */
  #taken: Array<() => void> | undefined
  #pending: { cancel(): void } | undefined
  #inOrder: Promise<void> | undefined
  readonly #incoming: IncomingMessage
  readonly #limit: number
  readonly #length: number | undefined
  readonly #budget: BodyBudget | undefined

  constructor(incoming: IncomingMessage, limit: number, length: number | undefined, budget: BodyBudget | undefined) {
    this.#incoming = incoming
    this.#limit = limit
    this.#length = length
    this.#budget = budget
  }

  data(chunk: Buffer): void {
    this.#size += chunk.length
    const size = this.#size
    if (size > this.#limit || (this.#length !== undefined && size > this.#length)) {
      this.fail(payloadTooLarge(this.#limit))
      return
    }
    const budget = this.#budget
    if (budget === undefined) {
      this.#keep(chunk)
      return
    }
    budget.heard(this)
    const took = this.waiting === 0 ? budget.take(chunk.length, Math.max(size, this.#length ?? 0)) : -1
    if (took !== -1) {
      this.#takenBytes += took
      this.#keep(chunk)
      return
    }
    this.waiting++
    this.#incoming.pause()
    const reservation = budget.reserve(chunk.length, Math.max(size, this.#length ?? 0))
    this.#inOrder = (this.#inOrder ?? Promise.resolve())
      .then(() => {
        this.#pending = reservation
        return reservation.granted
      })
      .then((release) => {
        this.#pending = undefined
        this.waiting--
        budget.heard(this)
        if (this.#done) return release()
        this.#taken ??= []
        this.#taken.push(release)
        this.#keep(chunk)
        this.#incoming.resume()
      })
  }

  end(): void {
    if (this.#inOrder === undefined || this.waiting === 0) this.#finish()
    else void this.#inOrder.then(() => this.#finish())
  }

  fail(error: unknown): void {
    if (this.#done) return
    this.#settle()
    this.#incoming.off('data', onData)
    this.#incoming.resume()
    this.reject(error)
  }

  #finish(): void {
    if (this.#done) return
    const chunks = this.#chunks
    this.#settle()
    this.resolve(chunks === undefined ? (this.#first ?? Buffer.alloc(0)) : Buffer.concat(chunks, this.#size))
  }

  /** Done: untracked, and everything taken from the budget given back. */
  #settle(): void {
    this.#done = true
    ;(this.#incoming as Collected)[collectorOf] = undefined
    const budget = this.#budget
    if (budget === undefined) return
    budget.untrack(this.#incoming)
    this.#pending?.cancel()
    if (this.#taken !== undefined) for (const release of this.#taken.splice(0)) release()
    budget.giveBack(this.#takenBytes)
    this.#takenBytes = 0
  }

  #keep(chunk: Buffer): void {
    if (this.#first === undefined) this.#first = chunk
    else if (this.#chunks === undefined) this.#chunks = [this.#first, chunk]
    else this.#chunks.push(chunk)
  }
}
