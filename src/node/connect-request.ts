import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { applyCors } from '../app/cors.ts'
import type { App } from '../app/app.ts'
import type { ApiError } from '../core/http/api-error.ts'
import { errorResponse, isPromiseLike, type PlainResponse } from '../core/http/plain-http.ts'
import { rawHttpResponse } from './raw-client-error.ts'
import { fromIncomingMessage } from './request-view.ts'

/** What answering a `CONNECT` needs from its server. */
export interface ConnectAnswerContext {
  readonly app: App
  /** An error the server answers itself instead of the app (a missing Host, a drain), if any. */
  readonly refusal: (incoming: IncomingMessage) => ApiError | undefined
  readonly record: (incoming: IncomingMessage, response: PlainResponse, started: number) => void
  readonly startTimer: () => number
  /** How long a client may take to take the answer before the connection is cut. */
  readonly sendTimeoutMs: number
}

/**
 * Answers a `CONNECT` as any other method the API does not have. Node hands a
 * `CONNECT` to the server's 'connect' event with the bare socket, and with no
 * listener it destroys the socket: the client got no answer at all. Here the
 * request goes to the app like a `PATCH` would: a path the API has is a 405
 * `method_not_allowed` with `Allow` (after authentication, as for every
 * method), another path a 404; an authority-form target (`example.com:443`,
 * what a client sends a proxy) is a 400 `bad_request`, as every target that
 * is not a path is. Not a 501 `not_implemented`: the catalogue keeps it for
 * an operation the spec names but never specifies, and RFC 9110 §15.5.6 says
 * 405 where a method is known but the resource does not support it. The
 * answer is written as raw bytes (the socket is no longer Node's HTTP
 * connection) and the connection closed after it.
 */
export function answerConnect(context: ConnectAnswerContext, incoming: IncomingMessage, socket: Socket): void {
  const started = context.startTimer()
  socket.on('error', () => socket.destroy())
  const plain = fromIncomingMessage(incoming, context.app.simulator.bodyLimit)
  const refusal = context.refusal(incoming)
  const write = (response: PlainResponse) => {
    context.record(incoming, response, started)
    if (socket.destroyed) return
    // Streams and transport faults do not apply to a request no route has: the answer is its status and body.
    socket.end(rawHttpResponse({ status: response.status, headers: response.headers, body: response.body }))
    socket.once('finish', () => socket.destroy())
    if (context.sendTimeoutMs > 0) setTimeout(() => socket.destroy(), context.sendTimeoutMs).unref()
  }
  if (refusal !== undefined) {
    write(applyCors(plain, errorResponse(refusal)))
    return
  }
  const response = context.app.respond(plain)
  if (isPromiseLike(response)) void Promise.resolve(response).then(write)
  else write(response)
}
