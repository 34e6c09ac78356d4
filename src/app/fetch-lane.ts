import {
  payloadTooLarge,
  type PlainRequest,
  type PlainResponse,
  type ResponseStream,
  type TransportFacts,
} from '../core/http/plain-http.ts'

/**
 * A Fetch `Request` seen as a {@link PlainRequest}: the lane of `app.fetch`
 * and of the MSW handlers. The URL is parsed once; headers are read from
 * the request's own `Headers`; the body is read on demand, up to the limit.
 */
class FetchRequestView implements PlainRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly authority: string
  readonly scheme: string
  readonly transport: TransportFacts
  readonly #request: Request
  readonly #bodyLimit: number
  #body: Promise<Uint8Array> | undefined

  constructor(request: Request, bodyLimit: number, transport: TransportFacts) {
    const url = new URL(request.url)
    this.method = request.method
    this.path = url.pathname
    this.query = url.search.slice(1)
    this.authority = url.host
    this.scheme = url.protocol.slice(0, -1)
    this.transport = transport
    this.#request = request
    this.#bodyLimit = bodyLimit
  }

  header(name: string): string | undefined {
    return this.#request.headers.get(name) ?? undefined
  }

  get signal(): AbortSignal {
    return this.#request.signal
  }

  /** Fetch hides `Host`: the URL's host stands for it, as a server would have received it. */
  headerList(): readonly string[] {
    const list: string[] = []
    if (!this.#request.headers.has('host')) list.push('host', this.authority)
    for (const [name, value] of this.#request.headers) list.push(name, value)
    return list
  }

  readBody(): Promise<Uint8Array> {
    this.#body ??= readLimited(this.#request, this.#bodyLimit)
    return this.#body
  }
}

async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length')) > limit) throw payloadTooLarge(limit)
  const bytes = new Uint8Array(await request.arrayBuffer())
  if (bytes.byteLength > limit) throw payloadTooLarge(limit)
  return bytes
}

export function toPlainRequest(request: Request, bodyLimit: number, transport: TransportFacts = {}): PlainRequest {
  return new FetchRequestView(request, bodyLimit, transport)
}

/**
 * A plain response as a Fetch `Response`. The answer to a HEAD has the GET's
 * headers, its `Content-Length` included, and no body. A fault rule's damage
 * becomes what a fetch would see of it: a network error for `reset` (after
 * `hangMs` for `hang`), a body that breaks off half-way for `truncate`.
 */
export function toFetchResponse(response: PlainResponse, method?: string, signal?: AbortSignal): Response | Promise<Response> {
  const fault = response.transportFault
  if (fault !== undefined) {
    switch (fault.kind) {
      case 'reset':
        return Response.error()
      case 'hang':
        return hungResponse(fault.hangMs, signal)
      case 'empty':
        return new Response('', { status: response.status, headers: { ...response.headers, 'Content-Length': '0' } })
      case 'truncate':
        // A HEAD has no body to cut: a truncated answer to it is its status and headers.
        if (method !== 'HEAD') return truncatedResponse(response)
        break
      default: {
        // A kind added to `faultKinds` (core/http/fault-kinds.ts) fails to compile here until this lane carries it out.
        const unreachable: never = fault.kind
        throw new TypeError(`Unknown transport fault ${String(unreachable)}`)
      }
    }
  }
  if (response.stream !== undefined) return streamedResponse(response, response.stream, signal)
  return wholeResponse(response, method)
}

/**
 * A streamed body (the dashboard's events) as a `ReadableStream`: the
 * stream is opened when the consumer starts reading, told when it cancels or
 * the request's signal aborts, and `hasRoom` follows the queue's desired size.
 */
/**
 * The bodies of the simulator's own streamed answers (the dashboard's event stream): cancelling them is safe (their
 * writes check that they are still wanted), and frees what they hold (an event-stream slot) at once. A user handler's
 * body may not be cancelled safely: see `abandon` in `node/fetch-response.ts`. Weakly held: forgotten with the body.
 */
const cancellableBodies = new WeakSet<ReadableStream>()

/** Whether a body is one of the simulator's own streams, which may be cancelled as soon as its client leaves. */
export function cancelsSafely(body: ReadableStream): boolean {
  return cancellableBodies.has(body)
}

function streamedResponse(response: PlainResponse, stream: ResponseStream, signal: AbortSignal | undefined): Response {
  let close: (() => void) | undefined
  let done = false
  const finish = () => {
    if (done) return
    done = true
    close?.()
  }
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        close = stream.open({
          write(chunk) {
            if (!done) controller.enqueue(utf8Encoder.encode(chunk))
          },
          get hasRoom() {
            return !done && (controller.desiredSize ?? 0) > 0
          },
          end() {
            if (done) return
            done = true
            controller.close()
          },
          abort() {
            if (done) return
            done = true
            controller.error(new TypeError('The answer was broken off: its reader took nothing for too long'))
          },
        })
        if (done) close()
        signal?.addEventListener('abort', finish, { once: true })
      },
      cancel: finish,
    },
    // Chunks are counted, not bytes: a few batches may wait for a reader that is a little behind.
    { highWaterMark: 16 },
  )
  cancellableBodies.add(body)
  return new Response(body, { status: response.status, headers: response.headers })
}

/** No answer until the client gives up (its signal aborts) or `hangMs` passes, then a network error. */
function hungResponse(hangMs: number, signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      resolve(Response.error())
    }
    const timer = setTimeout(done, hangMs)
    signal?.addEventListener('abort', done, { once: true })
  })
}

/** The status and headers, half the body on the first read, the failure on the next: erroring the stream at once would discard the queued half. */
function truncatedResponse(response: PlainResponse): Response {
  const bytes = utf8Encoder.encode(response.body ?? '')
  let sent = false
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) {
        controller.error(new TypeError('The connection was closed before the body ended (simulated truncate)'))
        return
      }
      sent = true
      controller.enqueue(bytes.subarray(0, Math.floor(bytes.byteLength / 2)))
    },
  })
  return new Response(body, { status: response.status, headers: { ...response.headers, 'Content-Length': String(bytes.byteLength) } })
}

function wholeResponse(response: PlainResponse, method?: string): Response {
  if (method !== 'HEAD' || response.body === undefined)
    return new Response(response.body ?? null, { status: response.status, headers: response.headers })
  const headers = { ...response.headers, 'Content-Length': String(utf8Encoder.encode(response.body).byteLength) }
  return new Response(null, { status: response.status, headers })
}

// Stateless: encoding whole strings keeps no state between calls.
const utf8Encoder = new TextEncoder()
