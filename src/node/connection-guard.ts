import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

type Serve = (incoming: IncomingMessage, outgoing: ServerResponse) => void

/**
 * What a server's connections are held to, besides Node's own parser limits.
 * Every field has its default in `core/defaults.ts`.
 */
export interface ConnectionGuardOptions {
  /**
   * Requests a connection may have waiting behind the one being answered
   * (HTTP/1.1 pipelining). Past it the connection is closed.
   */
  readonly maxPipelinedRequests: number
}

/** One connection's queue: the request being answered, and those pipelined behind it. */
interface ConnectionState {
  /** The response being produced or flushed, if any. */
  current: ServerResponse | undefined
  /** The request of the last response that was started, to know whether a late error can still be answered. */
  lastIncoming: IncomingMessage | undefined
  readonly waiting: Array<readonly [IncomingMessage, ServerResponse, Serve]>
}

/**
 * Answers each connection's requests one at a time, in order, and the next
 * only once the previous answer has left for the socket; refuses requests
 * during a drain.
 *
 * Why one at a time. Node parses every request in a read (64 KiB: about a
 * thousand small pipelined GETs) before it looks at backpressure, and pauses
 * the socket only when a response is written while the socket's buffer is
 * full; a response queued behind an unflushed one keeps its bytes in its own
 * `outputData` (lib/_http_server.js, `state.outgoing`). A client that
 * pipelines and never reads therefore had every request of each read
 * answered, and every answer kept in memory: measured on Node 24.21 with 40
 * such connections, 949 answers waiting on one connection, 19,604 in all, and
 * RSS 64 -> 354 MiB in 4 s. Here a request waiting behind an unflushed answer
 * costs only Node's request and response objects (no body, no simulator work),
 * and past `maxPipelinedRequests` of them the connection is closed, so what a
 * connection can hold is bounded by the cap, whatever it sends.
 *
 * State is per server (a `WeakMap` created here), never module-level.
 */
export class ConnectionGuard {
  readonly #states = new WeakMap<Socket, ConnectionState>()
  /** Responses being produced, to mark them `Connection: close` when a drain starts. */
  readonly #inFlight = new Set<ServerResponse>()
  readonly #maxPipelined: number
  #draining = false

  constructor(options: ConnectionGuardOptions) {
    this.#maxPipelined = options.maxPipelinedRequests
  }

  /** Whether {@link drain} has been called. */
  get draining(): boolean {
    return this.#draining
  }

  /**
   * Serves a request with `serve` when its turn on the connection comes; with
   * `refuse` instead when the server is draining by then.
   */
  handle(incoming: IncomingMessage, outgoing: ServerResponse, serve: Serve, refuse: Serve): void {
    const socket = incoming.socket
    // Node goes on parsing the rest of a read after the socket is destroyed: those requests get nothing.
    if (socket.destroyed) return
    let state = this.#states.get(socket)
    if (state === undefined) {
      state = { current: undefined, lastIncoming: undefined, waiting: [] }
      this.#states.set(socket, state)
    }
    const serveOrRefuse: Serve = (request, response) => (this.#draining ? refuse(request, response) : serve(request, response))
    if (state.current === undefined) {
      this.#start(socket, state, incoming, outgoing, serveOrRefuse)
      return
    }
    if (state.waiting.length >= this.#maxPipelined) {
      state.waiting.length = 0
      socket.destroy()
      return
    }
    state.waiting.push([incoming, outgoing, serveOrRefuse])
    // Draining: the answer in flight was marked to close the connection; a request behind it is answered (503) first.
    if (this.#draining) keepOpen(state.current)
  }

  /**
   * Whether a parse error or timeout on this socket can still be answered
   * with a response of its own: not when an answer has begun on the wire,
   * nor when the request being received was already answered (a refused
   * request whose body is still arriving).
   */
  canAnswerClientError(socket: Socket): boolean {
    const state = this.#states.get(socket)
    if (state === undefined) return true
    if (state.current !== undefined) return !state.current.headersSent
    return state.lastIncoming === undefined || state.lastIncoming.complete
  }

  /** The request being answered on this socket while its body is still arriving, if any. */
  receiving(socket: Socket): IncomingMessage | undefined {
    const state = this.#states.get(socket)
    return state?.current !== undefined && state.lastIncoming?.complete === false ? state.lastIncoming : undefined
  }

  /**
   * Starts the drain: responses not yet begun get `Connection: close`, and
   * requests whose turn comes later are refused.
   */
  drain(): void {
    this.#draining = true
    for (const outgoing of this.#inFlight) {
      const socket = outgoing.socket
      const waiting = socket === null ? 0 : (this.#states.get(socket)?.waiting.length ?? 0)
      if (waiting === 0) markClosing(outgoing)
    }
  }

  #start(socket: Socket, state: ConnectionState, incoming: IncomingMessage, outgoing: ServerResponse, serve: Serve): void {
    state.current = outgoing
    state.lastIncoming = incoming
    this.#inFlight.add(outgoing)
    // The last answer of a draining connection closes it; those before it leave it open for the 503s behind them.
    if (this.#draining && state.waiting.length === 0) markClosing(outgoing)
    // 'close' follows 'finish' (the last byte handed to the kernel) or the socket's end; by then Node has
    // given the socket to the next response it queued (resOnFinish in lib/_http_server.js).
    outgoing.once('close', () => {
      this.#inFlight.delete(outgoing)
      state.current = undefined
      this.#next(socket, state)
    })
    serve(incoming, outgoing)
  }

  #next(socket: Socket, state: ConnectionState): void {
    const entry = state.waiting.shift()
    if (entry === undefined) return
    if (socket.destroyed) {
      state.waiting.length = 0
      return
    }
    this.#start(socket, state, entry[0], entry[1], entry[2])
  }
}

/**
 * Undoes {@link markClosing} on a response not yet begun, for a request that
 * arrived behind it during a drain: without it that request, pipelined or
 * sent after the signal, got no answer at all (the socket ended after the
 * answer before it), where the documented answer is a 503 `shutting_down`.
 */
function keepOpen(outgoing: ServerResponse | undefined): void {
  if (outgoing !== undefined && !outgoing.headersSent && !outgoing.writableEnded) outgoing.removeHeader('Connection')
}

/** `Connection: close` on a response not yet begun: Node then ends the socket after it (`_last`). */
function markClosing(outgoing: ServerResponse): void {
  if (!outgoing.headersSent && !outgoing.writableEnded) outgoing.setHeader('Connection', 'close')
}
