/** A request a probe asks the runner to send, relative to the target's base URL. */
export interface ProbeRequest {
  readonly method: 'GET' | 'POST'
  /** Under the base URL: `/pets`, `/pets/7`. */
  readonly path: string
  readonly query?: Readonly<Record<string, string>>
  /** Whose credential: the run's key (default), none, or this token. */
  readonly auth?: 'key' | 'none' | { readonly token: string }
  /** A JSON body (sent with `Content-Type: application/json`). */
  readonly json?: unknown
  /** The probe wants to see a 429 (reaching the limit): the runner does not retry it. */
  readonly expectsLimit?: boolean
  /** Wait this long before sending (within the run's time bound), for the reason given: a listing that may lag a write. */
  readonly delay?: { readonly milliseconds: number; readonly reason: string }
}

/** One request sent and the answer to it, as the reports show it. The credential is never kept. */
export interface Exchange {
  readonly request: { readonly method: string; readonly url: string; readonly auth: 'key' | 'none' | 'other'; readonly body?: string }
  readonly status: number
  /** Response headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly bodyText: string
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  readonly json: unknown
  /** When the answer arrived, on the run's clock (epoch ms). */
  readonly receivedAt: number
}

/** The headers a report shows of a response: those the checks are about. */
const shownHeaders = [
  'content-type',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'deprecation',
  'sunset',
  'link',
  'location',
]

const excerptLength = 300

/** `GET http://host/v1/pets?limit=3 (Authorization: Bearer <key>)`, and the body sent. */
export function describeRequest(exchange: Exchange): string {
  const auth =
    exchange.request.auth === 'key'
      ? ' (Authorization: Bearer <key>)'
      : exchange.request.auth === 'other'
        ? ' (Authorization: Bearer <another token>)'
        : ' (no Authorization)'
  const body = exchange.request.body === undefined ? '' : ` body ${exchange.request.body}`
  return `${exchange.request.method} ${exchange.request.url}${auth}${body}`
}

/** The status, the headers the checks look at, and the start of the body. */
export function describeResponse(exchange: Exchange): string {
  const headers = shownHeaders.filter((name) => name in exchange.headers).map((name) => `${name}: ${exchange.headers[name]}`)
  const body = exchange.bodyText.length > excerptLength ? `${exchange.bodyText.slice(0, excerptLength)}…` : exchange.bodyText
  return [`${exchange.status}`, ...headers, body].filter((line) => line !== '').join('\n')
}
