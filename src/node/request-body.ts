import type { IncomingMessage } from 'node:http'
import { ApiError } from '../core/pipeline/api-error.ts'
import { payloadTooLarge } from '../core/pipeline/plain-http.ts'
import type { BodyBudget } from './body-budget.ts'

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
    // The minimum data rate: a byte every `idleTimeoutMs` while the body is read (not while it waits for the budget,
    // which is not the client's doing). Hoarders that sent a body but its last byte held their share of the budget
    // until the request timeout (30 s).
    const idleMs = budget?.idleTimeoutMs ?? 0
    let idle: ReturnType<typeof setTimeout> | undefined
    const rearm = () => {
      if (idleMs <= 0 || done) return
      clearTimeout(idle)
      idle = setTimeout(() => {
        if (waitingChunks > 0) rearm()
        else fail(new ApiError('request_timeout', `The request body stalled: no byte for ${idleMs} ms`, { Connection: 'close' }))
      }, idleMs)
    }
    const fail = (error: unknown) => {
      if (done) return
      done = true
      clearTimeout(idle)
      untrack()
      giveBack()
      incoming.off('data', onData)
      incoming.resume()
      reject(error)
    }
    const onData = (chunk: Buffer) => {
      rearm()
      size += chunk.length
      if (size > limit || (length !== undefined && size > length)) return fail(payloadTooLarge(limit))
      if (budget === undefined) {
        chunks.push(chunk)
        return
      }
      // The common case: room in the budget and no chunk of this body still waiting. No pause, no promise.
      const release = waitingChunks === 0 ? budget.take(chunk.length, Math.max(size, length ?? 0)) : undefined
      if (release !== undefined) {
        taken.push(release)
        chunks.push(chunk)
        return
      }
      waitingChunks++
      incoming.pause()
      const reservation = budget.reserve(chunk.length, Math.max(size, length ?? 0))
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
    const untrack = budget?.track(incoming, fail) ?? (() => {})
    incoming.on('data', onData)
    rearm()
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(idle)
      untrack()
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
