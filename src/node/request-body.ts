import type { IncomingMessage } from 'node:http'
import { ApiError } from '../core/http/api-error.ts'
import { payloadTooLarge } from '../core/http/plain-http.ts'
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
 * is handed on (or refused). The budget also ends a body that stalls (its
 * minimum data rate, see {@link BodyBudget.heard}).
 *
 * The common case, a small body with room in the budget, is kept to what a
 * bare server does (a `data` and an `end` listener) plus `close` and `error`:
 * no timer, no closure per chunk, no promise but the one returned: what it
 * did before cost a createPet more CPU than a minimal reader in its place
 * (`npm run bench`'s POST, 2026-11-23). The listeners are closures over this
 * body's state: one collector object with listeners shared by every body was
 * tried (issue 28) and dropped (issue 38): it saved a little allocation a
 * createPet and no CPU the A/B could see. The figures: test/bench/HISTORY.md,
 * "Figures moved out of source comments".
 */
function collectBody(
  incoming: IncomingMessage,
  limit: number,
  length: number | undefined,
  budget: BodyBudget | undefined,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    // Dropped once the body is handed on (issue 45, Low 15): the listeners below stay on the request until it is
    // collected, and every closure of a body shares one context, so the chunks and the promise's settling functions
    // (which reach the body) stayed alive with the request. A request outlives a few scavenges and is promoted, so
    // its bodies were freed only by a full collection, and large createPets held RSS high with the journal keeping
    // nothing (test/bench/HISTORY.md, "Figures moved out of source comments").
    let resolveBody: ((body: Uint8Array) => void) | undefined = resolve
    let rejectBody: ((error: unknown) => void) | undefined = reject
    let first: Buffer | undefined
    let chunks: Buffer[] | undefined
    let size = 0
    let done = false
    /** Bytes taken from the budget at once ({@link BodyBudget.take}), given back together. */
    let takenBytes = 0
    /** The slow path's grants, and the reservation waiting, if any. */
    let taken: Array<() => void> | undefined
    let waiting: { cancel(): void } | undefined
    // Chunks that wait for the budget are taken in the order they came: each waits for the one before.
    let inOrder: Promise<void> | undefined
    const reader = budget?.track(incoming, fail)
    const giveBack = () => {
      waiting?.cancel()
      if (taken !== undefined) for (const release of taken.splice(0)) release()
      budget?.giveBack(takenBytes)
      takenBytes = 0
    }
    const keep = (chunk: Buffer) => {
      if (first === undefined) first = chunk
      else if (chunks === undefined) chunks = [first, chunk]
      else chunks.push(chunk)
    }
    function fail(error: unknown): void {
      if (done) return
      done = true
      budget?.untrack(incoming)
      giveBack()
      incoming.off('data', onData)
      incoming.resume()
      const settled = rejectBody!
      resolveBody = rejectBody = first = chunks = undefined
      settled(error)
    }
    function finish(): void {
      if (done) return
      done = true
      budget?.untrack(incoming)
      const settled = resolveBody!
      const body = chunks === undefined ? (first ?? Buffer.alloc(0)) : Buffer.concat(chunks, size)
      resolveBody = rejectBody = first = chunks = undefined
      settled(body)
      // The bytes are the pipeline's now; it reads them at once (decoding or refusing them).
      giveBack()
    }
    function onData(chunk: Buffer): void {
      size += chunk.length
      if (size > limit || (length !== undefined && size > length)) {
        fail(payloadTooLarge(limit))
        return
      }
      if (budget === undefined || reader === undefined) {
        keep(chunk)
        return
      }
      budget.heard(reader)
      // The common case: room in the budget and no chunk of this body still waiting. No pause, no promise.
      const took = reader.waiting === 0 ? budget.take(chunk.length, Math.max(size, length ?? 0)) : -1
      if (took !== -1) {
        takenBytes += took
        keep(chunk)
        return
      }
      reader.waiting++
      incoming.pause()
      const reservation = budget.reserve(chunk.length, Math.max(size, length ?? 0))
      inOrder = (inOrder ?? Promise.resolve())
        .then(() => {
          waiting = reservation
          return reservation.granted
        })
        .then((release) => {
          waiting = undefined
          reader.waiting--
          budget.heard(reader)
          if (done) return release()
          taken ??= []
          taken.push(release)
          keep(chunk)
          incoming.resume()
        })
    }
    incoming.on('data', onData)
    incoming.on('end', () => {
      if (inOrder === undefined || reader?.waiting === 0) finish()
      else void inOrder.then(finish)
    })
    // 'close' before 'end' is an abort: a body waiting for the budget gives its place back.
    incoming.on('close', () => {
      if (!incoming.readableEnded) fail(new ApiError('bad_request', 'The connection closed before the request body was read'))
    })
    incoming.on('error', (error) => fail(new ApiError('bad_request', `The request body could not be read: ${error.message}`)))
  })
}
