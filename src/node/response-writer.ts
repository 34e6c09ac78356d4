import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { TransportFault } from '../core/faults/fault-rules.ts'
import type { PlainResponse, ResponseStream } from '../core/http/plain-http.ts'

/**
 * Writes a plain response with its `Content-Length`; a HEAD gets the headers
 * only. A fault rule's transport damage is carried out here, one case per
 * kind: adding a kind to `transportFaults` fails to compile until this lane
 * says what it does.
 */
export function writePlainResponse(outgoing: ServerResponse, response: PlainResponse, method: string | undefined): void {
  const fault = response.transportFault
  if (fault !== undefined) {
    const kind: TransportFault = fault.kind
    switch (kind) {
      case 'reset':
        // No answer: the connection dropped at once.
        dropConnection(outgoing)
        return
      case 'hang':
        // No answer; the connection dropped after `hangMs`, unless the client gives up first.
        hangThenDrop(outgoing, fault.hangMs)
        return
      case 'truncate':
        // A HEAD has no body to cut: a truncated answer to it is its status and headers, as they would have been.
        if (method === 'HEAD') break
        writeHalfThenDrop(outgoing, response)
        return
      case 'empty':
        writeWhole(outgoing, response, '', method)
        return
      default: {
        const unreachable: never = kind
        throw new Error(`The Node lane does not handle the transport fault ${String(unreachable)}`)
      }
    }
  }
  if (response.stream !== undefined) {
    writeStream(outgoing, response, response.stream)
    return
  }
  writeWhole(outgoing, response, response.body, method)
}

function writeWhole(outgoing: ServerResponse, response: PlainResponse, body: string | undefined, method: string | undefined): void {
  const { headers } = response
  // An API answer comes with its Content-Length (its header object frozen: the journal shows it as sent); the others'
  // objects are their own (see PlainResponse): adding to them costs no copy.
  if (response.status !== 204 && response.status !== 304 && headers['Content-Length'] === undefined)
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
    abort: () => dropConnection(outgoing),
  })
  outgoing.once('close', close)
  endWhenServerCloses(outgoing, () => {
    close()
    if (writable()) outgoing.end()
  })
}

/**
 * Ends a stream once the server it is served by stops listening. A server of
 * ours ends streams itself when it drains; under `createMiddleware` the host's
 * `server.close()` waits for every connection, and an open dashboard's stream
 * never ends: the host's close stayed pending for as long as the page was open.
 * Node gives no event when a close begins, so the server is looked at each
 * {@link serverWatchMs}; the timer ends with the stream and keeps no process alive.
 */
export function endWhenServerCloses(outgoing: ServerResponse, end: () => void): void {
  const server = (outgoing.socket as (Socket & { server?: { listening?: boolean } }) | null)?.server
  if (server === undefined) return
  const timer = setInterval(() => {
    if (server.listening === false) {
      clearInterval(timer)
      end()
    }
  }, serverWatchMs)
  timer.unref()
  outgoing.once('close', () => clearInterval(timer))
}

/** What a socket's kernel buffers take without the client reading (Linux's default send buffer is 16 KiB to 4 MiB). */
const heldByTheKernelBytes = 64 * 1024

/** How often a stream looks whether its server still listens: 500 ms, so a host's close waits at most that for it. */
const serverWatchMs = 500

/**
 * Drops the connection when a written answer has not been taken whole within
 * `ms` (see `defaults.sendTimeoutMs`): `finish` is when its last byte reached
 * the kernel. Nothing to do for an answer already taken, or with `ms` 0.
 */
export function dropIfNotTaken(outgoing: ServerResponse, ms: number): void {
  // An answer that fits in the kernel's socket buffer is held there, not here, whoever reads it: no timer (a timer
  // and two listeners on every answer cost the standalone GET a few percent in npm run bench).
  if (ms <= 0 || outgoing.writableFinished || outgoing.destroyed || outgoing.writableLength < heldByTheKernelBytes) return
  const timer = setTimeout(() => dropConnection(outgoing), ms)
  timer.unref()
  const clear = () => clearTimeout(timer)
  outgoing.once('finish', clear).once('close', clear)
}

/** A `hang`: nothing is answered, and the connection is dropped after `hangMs` (the timer ends with the socket). */
function hangThenDrop(outgoing: ServerResponse, hangMs: number): void {
  const socket = outgoing.socket
  const timer = setTimeout(() => dropSocket(socket), hangMs)
  socket?.once('close', () => clearTimeout(timer))
}

/** A `truncate`: the status, the headers with the full `Content-Length`, and half the body, then the connection dropped. */
function writeHalfThenDrop(outgoing: ServerResponse, response: PlainResponse): void {
  const socket = outgoing.socket
  const bytes = Buffer.from(response.body ?? '')
  const headers =
    response.headers['Content-Length'] === undefined
      ? { ...response.headers, 'Content-Length': String(bytes.byteLength) }
      : response.headers
  outgoing.writeHead(response.status, headers)
  outgoing.write(bytes.subarray(0, Math.floor(bytes.byteLength / 2)), () => dropSocket(socket))
}

/**
 * Drops the connection without (the rest of) an answer: a reset (RST) where
 * the socket can send one, so the client sees `ECONNRESET` at once rather
 * than an orderly end. The one drop of both server lanes: the direct lane's
 * faults above and the msw lane's network errors and broken bodies
 * (`fetch-response.ts`).
 */
export function dropConnection(outgoing: ServerResponse): void {
  dropSocket(outgoing.socket)
}

function dropSocket(socket: ServerResponse['socket']): void {
  if (socket === null) return
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy()
  else socket.destroy()
}
