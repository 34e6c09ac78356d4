import type { ServerResponse } from 'node:http'
import { cancelsSafely } from '../app/fetch-lane.ts'
import type { TransportFault } from '../core/faults/fault-rules.ts'
import { dropConnection, endWhenServerCloses } from './response-writer.ts'

/**
 * Writes a Fetch `Response` to a Node response. A body that ends within
 * {@link wholeBodyBytes} is written whole, with its `Content-Length`; a longer
 * one (a user handler's stream) is written as it comes, chunked, with Node's
 * backpressure, and cancelled when the connection closes. Buffering every body
 * whole let a handler that streams forever grow RSS without end after its
 * client left (test/bench/HISTORY.md, "Figures moved out of source
 * comments"). A body that breaks off breaks the connection: what arrived is
 * written under the `Content-Length` the response declared (a fault's
 * `truncate`) or chunked without its last chunk, then the connection is
 * dropped; it was a complete-looking answer with the length of what arrived
 * (`Content-Length: 0` when nothing had).
 *
 * A fault rule's damage arrives as `toFetchResponse` (`app/fetch-lane.ts`)
 * renders it for a fetch, and is carried out here on the connection, one case
 * per kind: adding a kind to `transportFaults` fails to compile until this
 * lane says what it does.
 */
export async function sendFetchResponse(outgoing: ServerResponse, response: Response, method: string | undefined): Promise<void> {
  if (response.type !== 'error' && response.body !== null && response.headers.get('content-type')?.startsWith('text/event-stream') === true)
    return pipeStream(outgoing, response, response.body)
  const reader = response.type === 'error' || response.body === null ? undefined : response.body.getReader()
  // Let go of whenever the connection closes first, whatever phase the writing is in.
  outgoing.once('close', () => {
    if (reader !== undefined) abandon(reader, response.body!)
  })
  const start: BodyStart =
    reader === undefined || method === 'HEAD' ? { chunks: [], state: 'done', pending: undefined } : await readStart(reader)
  // A HEAD's body is not sent: let go of as when the client leaves.
  if (method === 'HEAD' && reader !== undefined) abandon(reader, response.body!)
  const headers = headersOf(response)
  const fault = faultShownBy(response, start.state === 'broken')
  if (fault !== undefined) {
    switch (fault) {
      case 'reset':
      case 'hang':
        // A network error (`Response.error()`): no answer, the connection dropped. A hang has had its wait already.
        dropConnection(outgoing)
        return
      case 'truncate':
        // What arrived, under the Content-Length the response declared (or chunked, unended), then the connection dropped.
        outgoing.writeHead(response.status, headers)
        outgoing.write(Buffer.concat(start.chunks), () => dropConnection(outgoing))
        return
      case 'empty':
        // An answer with an empty body (and `Content-Length: 0`): written as any other.
        break
      default: {
        const unreachable: never = fault
        throw new Error(`The msw lane does not handle the transport fault ${String(unreachable)}`)
      }
    }
  }
  if (start.state === 'more') {
    outgoing.writeHead(response.status, headers)
    await pipeRest(outgoing, reader!, start.chunks, start.pending)
    return
  }
  const body = reader === undefined || method === 'HEAD' ? undefined : Buffer.concat(start.chunks)
  // A HEAD's answer carries the GET's Content-Length and no body.
  if (response.status !== 204 && response.status !== 304 && !(method === 'HEAD' && headers['content-length'] !== undefined))
    headers['content-length'] = body?.length ?? 0
  outgoing.writeHead(response.status, headers)
  outgoing.end(body)
}

/**
 * The most bytes of a body read before its headers are written: a body that
 * ends within them gets a `Content-Length` (every answer of the simulator's
 * own handlers is far smaller: a page of 100 pets is about 12 KiB), a longer
 * one is streamed.
 */
const wholeBodyBytes = 256 * 1024

/** The first bytes of a body, and the read under way when they stop (`more`). */
interface BodyStart {
  readonly chunks: Uint8Array[]
  readonly state: 'done' | 'more' | 'broken'
  readonly pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined
}

/** What {@link readStart} races a read against: the next turn of the event loop, after every promise settled so far. */
const notYet = Symbol('not yet')
const nextTurn = () => new Promise<typeof notYet>((resolve) => setImmediate(resolve, notYet))

/**
 * The body's first bytes: all of it (`done`) when it is all there at once, or what is there (up to
 * {@link wholeBodyBytes}) with more to come, or what came before it broke. A body that makes its reader wait (a
 * handler writing as it goes: msw's streaming example, server-sent events, NDJSON) is `more` at once, so that its
 * chunks are written as they come; waiting for 256 KiB or the end held msw's streaming example for 10 s, and sent
 * an NDJSON stream nothing. Answers made whole (the simulator's own) are read to the end within the turn.
 */
async function readStart(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<BodyStart> {
  const chunks: Uint8Array[] = []
  let bytes = 0
  let pending = reader.read()
  try {
    while (bytes <= wholeBodyBytes) {
      const result = await Promise.race([pending, nextTurn()])
      if (result === notYet) return { chunks, state: 'more', pending }
      if (result.done) return { chunks, state: 'done', pending: undefined }
      chunks.push(result.value)
      bytes += result.value.byteLength
      pending = reader.read()
    }
    return { chunks, state: 'more', pending }
  } catch {
    return { chunks, state: 'broken', pending: undefined }
  }
}

/**
 * What becomes of a handler's body once its client has gone: it is read on and thrown away, so that a handler that
 * writes from a timer and knows nothing of the client (no `cancel`) can go on writing and end; cancelling the stream
 * made its next `enqueue` throw in that timer, which ended the simulator (exit 1). A body that keeps producing past
 * {@link abandonedBodyBytes} (one that is pulled, and writes only when asked) is cancelled then: it is asked no more, so
 * it writes no more. Errors are the handler's, and go nowhere.
 */
function abandon(reader: ReadableStreamDefaultReader<Uint8Array>, body: ReadableStream<Uint8Array>): void {
  // The simulator's own streams (the dashboard's events) are cancelled at once: safe for them, and it frees their slot.
  if (cancelsSafely(body)) {
    void reader.cancel().catch(() => {})
    return
  }
  let discarded = 0
  const next = (): void => {
    reader.read().then(
      ({ done, value }) => {
        if (done) return
        discarded += typeof value?.byteLength === 'number' ? value.byteLength : 1024
        if (discarded > abandonedBodyBytes) void reader.cancel().catch(() => {})
        else next()
      },
      () => {},
    )
  }
  next()
}

/** How much of a handler's body is read and thrown away after its client left, before it is cancelled: 1 MiB. */
const abandonedBodyBytes = 1024 * 1024

/** The rest of a long body, as it comes, with backpressure; a stream that breaks drops the connection (no last chunk). */
async function pipeRest(
  outgoing: ServerResponse,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: Uint8Array[],
  pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined,
): Promise<void> {
  // Headers and what is there now, sent now: Node holds the headers back until the first write.
  if (first.length === 0) outgoing.flushHeaders()
  for (const chunk of first) outgoing.write(chunk)
  let read = pending
  try {
    for (;;) {
      if (outgoing.destroyed) return
      if (outgoing.writableNeedDrain) await drained(outgoing)
      if (outgoing.destroyed) return
      const { done, value } = await (read ?? reader.read())
      read = undefined
      if (done) break
      if (outgoing.destroyed) return
      outgoing.write(value)
    }
  } catch {
    // The stream broke (or was cancelled because the client left): the answer must not look complete.
    dropConnection(outgoing)
    return
  }
  if (!outgoing.writableEnded && !outgoing.destroyed) outgoing.end()
}

/** Resolves on the response's next `drain` or its `close`, and takes both listeners off (a `close` listener per wait piled up). */
function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done).off('close', done)
      resolve()
    }
    outgoing.once('drain', done).once('close', done)
  })
}

function headersOf(response: Response): Record<string, string | string[] | number> {
  // No prototype: a handler's header may be named `__proto__` (on a plain object it vanished).
  const headers: Record<string, string | string[] | number> = Object.create(null)
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  return headers
}

/**
 * The fault a Fetch response shows, as `toFetchResponse` renders them: a
 * network error is a `reset`, or a `hang` whose wait is over (the two are
 * told apart only by when they arrive, and end alike); a body that broke off
 * is a `truncate`. An `empty` shows as an ordinary answer with an empty body,
 * so it is written as one.
 */
function faultShownBy(response: Response, broken: boolean): TransportFault | undefined {
  if (response.type === 'error') return 'reset'
  return broken ? 'truncate' : undefined
}

/**
 * An event stream (the dashboard's) written as it comes, chunked, with
 * Node's backpressure; the reader is cancelled when the connection closes.
 * `Connection: close`, as the direct lane sends it: see `writeStream`.
 */
async function pipeStream(outgoing: ServerResponse, response: Response, body: ReadableStream<Uint8Array>): Promise<void> {
  const headers: Record<string, string> = Object.create(null)
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  headers.connection = 'close'
  outgoing.writeHead(response.status, headers)
  outgoing.flushHeaders()
  const reader = body.getReader()
  // Let go of, not cancelled, when the client or the server goes: see `abandon`.
  outgoing.once('close', () => abandon(reader, body))
  endWhenServerCloses(outgoing, () => {
    if (!outgoing.writableEnded && !outgoing.destroyed) outgoing.end()
  })
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || outgoing.destroyed || outgoing.writableEnded) break
      if (!outgoing.write(value)) await drained(outgoing)
    }
  } catch {
    // Cancelled because the client went away: nothing left to write to.
  }
  if (!outgoing.writableEnded && !outgoing.destroyed) outgoing.end()
}
