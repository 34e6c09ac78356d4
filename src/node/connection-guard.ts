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
  readonly waiting: Array<readonly [IncomingMessage, ServerResponse, Serve, Serve]>
  /** Listens for the current response's `close`: one function per connection, not a closure (and a `once` wrapper) per request. */
  readonly onResponseClose: () => void
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
 * answered, and every answer kept in memory, hundreds waiting on one
 * connection and RSS growing by the second (test/bench/HISTORY.md, "Figures
 * moved out of source comments"). Here a request waiting behind an unflushed
 * answer costs only Node's request and response objects (no body, no
 * simulator work), and past `maxPipelinedRequests` of them the connection is
 * closed, so what a connection can hold is bounded by the cap, whatever it
 * sends.
 *
 * State is per server (a `WeakMap` created here), never module-level.
 */
export class ConnectionGuard {
  readonly #states = new WeakMap<Socket, ConnectionState>()
  /**
   * The open connections, whose responses being produced a drain marks `Connection: close`. Connections, not
   * responses, and one `close` listener per connection, not a closure per request: the plain version (a set of
   * responses, `outgoing.once('close', () => …)` per request) allocated more a request and spent more of the
   * server's CPU on every route. Kept after issue 38's A/B (test/bench/HISTORY.md, "Figures moved out of source
   * comments"); test/node/connection-guard.test.ts.
   */
  readonly #connections = new Set<ConnectionState>()
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
    if (socket.destroyed) return
    const state = this.#states.get(socket) ?? this.#open(socket)
    if (state.current === undefined) {
      this.#start(state, incoming, outgoing, serve, refuse)
      return
    }
    if (state.waiting.length >= this.#maxPipelined) {
      state.waiting.length = 0
      socket.destroy()
      return
    }
    state.waiting.push([incoming, outgoing, serve, refuse])
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
    for (const state of this.#connections) {
      if (state.current !== undefined && state.waiting.length === 0) markClosing(state.current)
    }
  }

  #open(socket: Socket): ConnectionState {
    const state: ConnectionState = {
      current: undefined,
      lastIncoming: undefined,
      waiting: [],
      onResponseClose: () => {
        state.current = undefined
        this.#next(socket, state)
      },
    }
    this.#states.set(socket, state)
    this.#connections.add(state)
    socket.once('close', () => this.#connections.delete(state))
    return state
  }

  #start(state: ConnectionState, incoming: IncomingMessage, outgoing: ServerResponse, serve: Serve, refuse: Serve): void {
    state.current = outgoing
    state.lastIncoming = incoming
    if (this.#draining && state.waiting.length === 0) markClosing(outgoing)
    // A response emits `close` once, when it is done or its connection is.
    outgoing.on('close', state.onResponseClose)
    if (this.#draining) refuse(incoming, outgoing)
    else serve(incoming, outgoing)
  }

  #next(socket: Socket, state: ConnectionState): void {
    const entry = state.waiting.shift()
    if (entry === undefined) return
    if (socket.destroyed) {
      state.waiting.length = 0
      return
    }
    this.#start(state, entry[0], entry[1], entry[2], entry[3])
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
