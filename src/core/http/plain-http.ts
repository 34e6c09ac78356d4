import { ApiError } from './api-error.ts'
import { JsonText } from './json-text.ts'
import type { TransportFault } from './fault-kinds.ts'

/**
 * What a transport knows about a request beyond its method, target, headers
 * and body, passed to the app explicitly (as `@hono/node-server` passes
 * `{ incoming, outgoing }` to its fetch callback), never attached to a
 * message object.
 */
export interface TransportFacts {
  /** The client's network address, when the transport knows it (Node: the socket's remote address). */
  readonly clientAddress?: string | undefined
  /** The request never crossed a network: MSW handlers in-process (`setupServer`, `setupWorker`). */
  readonly local?: boolean | undefined
}

/**
 * A request as plain data: what every lane (MSW handlers, `app.fetch`, the
 * direct Node lane) turns its own request object into before the simulator
 * answers it. No Fetch `Request` is needed, so the Node lane builds none.
 */
export interface PlainRequest {
  /** As sent, e.g. `GET`. */
  readonly method: string
  /**
   * The request target's path, percent-encoded as sent, with dot segments
   * resolved as the WHATWG URL parser resolves them ({@link normalizePath}).
   * Anything that is not a path (`*`, an absolute URL) is kept as it is.
   */
  readonly path: string
  /** The query string without its `?`; empty when there is none. */
  readonly query: string
  /** Where the request was sent: the `Host` header on a server, the URL's host and port on Fetch lanes. */
  readonly authority: string | undefined
  /** The URL's scheme (`https`) where the lane knows it (Fetch lanes); the Node lane serves plain `http`. */
  readonly scheme?: string | undefined
  /** A header by lower-case name; a repeated header's values joined with `, `, as Fetch's `Headers.get` joins them. */
  header(name: string): string | undefined
  /**
   * Every header as sent, as flat name/value pairs (Node's `rawHeaders`
   * form), for the journal. Lanes that cannot list them leave it out, and
   * the journal shows no request headers.
   */
  headerList?(): readonly string[]
  /**
   * The body's bytes, read on first call and at most the lane's body limit
   * (past it, a 413 `ApiError`). Nothing reads a body before the request is
   * authenticated and allowed, so a refused request's body is never buffered.
   */
  readBody(): Promise<Uint8Array>
  readonly transport: TransportFacts
  /**
   * Aborted when the client goes away before its answer is written (its connection closed, its fetch aborted), so
   * that an answer that waits (`GET /__sim/requests/wait`) stops waiting and holds nothing. Lanes that cannot tell
   * leave it out.
   */
  readonly signal?: AbortSignal | undefined
}

/**
 * What a lane's log reads of the journal's record of an API request: the path as resolved, the operation, the plan
 * and the caller (a key's fingerprint). The journal's `RecordedRequest` is one; declared here, below the journal, so
 * plain HTTP imports nothing above it.
 */
export interface JournalRecordForLog {
  readonly path: string
  readonly operation: string
  readonly plan: string
  readonly caller: string
  /** Set when `Prefer: code=` forced the answer. */
  readonly forced?: true | undefined
  /** The id of the fault rule that shaped the answer, if one did. */
  readonly fault?: string | undefined
}

/** A response as plain data: every lane writes it in its own form. */
export interface PlainResponse {
  readonly status: number
  /**
   * Header names as sent. An API answer's object is complete and frozen (the journal keeps it: what it shows is what
   * was sent); another answer's is its own, and a lane may add to it before sending.
   */
  readonly headers: Record<string, string>
  /** The body text (JSON for everything the API answers), or none. */
  readonly body: string | undefined
  /** @internal The journal entry of an API request, for the Node lane's logs (the journal's `RecordedRequest`). */
  readonly journalEntry?: JournalRecordForLog | undefined
  /**
   * A fault rule's damage to the connection, for the lane to carry out:
   * `reset` (no answer, the connection dropped), `hang` (no answer for
   * `hangMs`, then dropped), `truncate` (half the body, then dropped),
   * `empty` (the status and headers with an empty body).
   */
  readonly transportFault?: { readonly kind: TransportFault; readonly hangMs: number } | undefined
  /**
   * A body written over time instead of `body` (the dashboard's event
   * stream): the lane sends the status and headers, then opens the stream.
   * Only control-plane answers have one; the API never does.
   */
  readonly stream?: ResponseStream | undefined
}

/**
 * A response body that is written as it comes. The lane calls `open` once,
 * after the headers, with a sink onto its transport; it calls the returned
 * `close` when the client goes away (or the lane stops), after which the
 * stream writes nothing more. The stream ends the response itself with
 * `sink.end()`.
 */
export interface ResponseStream {
  open(sink: StreamSink): () => void
}

/** Where a {@link ResponseStream} writes: a Node response, a `ReadableStream` controller. */
export interface StreamSink {
  /** Sends text (UTF-8). Never throws; after the client has gone it does nothing. */
  write(chunk: string): void
  /** Whether the transport's buffer has room: false while a slow client has not taken what was written. */
  readonly hasRoom: boolean
  /** Ends the response. */
  end(): void
  /**
   * Breaks the response off, so that a cut answer is never taken for a whole
   * one: the connection dropped (Node), the body errored (Fetch). A lane
   * without it is ended instead.
   */
  abort?(): void
}

/** A JSON response, serialised once (or not at all when the body is already {@link JsonText}). */
export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): PlainResponse {
  headers['Content-Type'] = 'application/json'
  return { status, headers, body: body instanceof JsonText ? body.text : JSON.stringify(body) }
}

/**
 * The one place where anything thrown becomes a response: the spec's Error
 * body, with the headers the error calls for. Unknown errors are a 500
 * `internal_error`, still with the Error body.
 */
export function errorResponse(error: unknown, headers: Record<string, string> = {}): PlainResponse {
  const apiError = ApiError.from(error)
  return jsonResponse(apiError.toBody(), apiError.status, Object.assign(headers, apiError.headers))
}

/**
 * The 413 for a body over the limit. Lanes raise it from `readBody`, so it
 * is answered by the pipeline like any other error of the request. The rest
 * of such a body is not read: the connection cannot be reused.
 */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `The request body is over the limit of ${limit} bytes`, { Connection: 'close' })
}

/** Whether a value is a promise, so synchronous answers stay synchronous. */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}
