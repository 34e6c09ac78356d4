import packageJson from '../../../package.json' with { type: 'json' }
import type { JournalBody } from './journal-exchange.ts'
import type { JournalEntry } from './journal-types.ts'

/** An HTTP Archive (HAR 1.2), as browsers' developer tools load and save them. */
export interface Har {
  readonly log: {
    readonly version: '1.2'
    readonly creator: { readonly name: string; readonly version: string }
    readonly entries: readonly HarEntry[]
  }
}

export interface HarNameValue {
  readonly name: string
  readonly value: string
}

/** One entry of a {@link Har}; the journal's own fields are kept with a leading `_`, as HAR allows. */
export interface HarEntry {
  readonly startedDateTime: string
  readonly time: number
  readonly request: {
    readonly method: string
    readonly url: string
    readonly httpVersion: string
    readonly cookies: readonly HarNameValue[]
    readonly headers: readonly HarNameValue[]
    readonly queryString: readonly HarNameValue[]
    readonly postData?: { readonly mimeType: string; readonly text: string; readonly _encoding?: 'base64' }
    readonly headersSize: -1
    readonly bodySize: number
  }
  readonly response: {
    readonly status: number
    readonly statusText: string
    readonly httpVersion: string
    readonly cookies: readonly HarNameValue[]
    readonly headers: readonly HarNameValue[]
    readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string; readonly encoding?: 'base64' }
    readonly redirectURL: string
    readonly headersSize: -1
    readonly bodySize: number
  }
  readonly cache: Record<string, never>
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number }
  readonly _sequence: number
  readonly _operation: string
  /** The simulator's clock when the request arrived (`startedDateTime` is the wall time). */
  readonly _simulatedTime: string
  readonly _caller: string
  readonly _plan: string
  readonly _forced?: true
  readonly _fault?: string
  readonly _truncated?: true
}

/**
 * Journal entries as a HAR 1.2 log, for Chrome's DevTools (Network, Import
 * HAR), Firefox, Charles, or any HAR viewer. Secrets are redacted as in the
 * journal; `origin` is used when a request did not name its host.
 */
export function toHar(entries: readonly JournalEntry[], origin = 'http://localhost'): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: packageJson.name, version: packageJson.version },
      entries: entries.map((entry) => harEntry(entry, origin)),
    },
  }
}

/**
 * The text of a HAR log around its entries, for writing one a page at a
 * time: `head`, the entries' JSON joined with commas, then `tail` is the text
 * of `JSON.stringify(toHar(entries))`.
 */
export function harFrame(): { readonly head: string; readonly tail: string } {
  const text = JSON.stringify(toHar([]))
  const at = text.indexOf('"entries":[]') + '"entries":['.length
  return { head: text.slice(0, at), tail: text.slice(at) }
}

/** One journal entry as a HAR entry; `origin` is used when the request did not name its host. */
export function harEntry(entry: JournalEntry, origin = 'http://localhost'): HarEntry {
  const { request, response } = entry
  const host = request.headers.host
  const target = `${request.path}${entry.path.includes('?') ? entry.path.slice(entry.path.indexOf('?')) : ''}`
  const url = host === undefined ? `${origin}${target}` : `http://${host}${target}`
  const truncated = request.body?.truncated === true || response.body?.truncated === true
  return {
    startedDateTime: entry.wallAt,
    time: entry.durationMs,
    request: {
      method: request.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(request.headers),
      queryString: Object.entries(request.query).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map((one) => ({ name, value: one })),
      ),
      ...(request.body === null ? {} : { postData: postData(request.body, request.headers['content-type']) }),
      headersSize: -1,
      bodySize: request.body?.size ?? 0,
    },
    response: {
      status: response.status,
      statusText: statusTexts[response.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(response.headers),
      content: {
        size: response.body?.size ?? 0,
        mimeType: response.headers['content-type'] ?? 'x-unknown',
        ...(response.body === null ? {} : { text: response.body.text }),
        ...(response.body?.encoding === 'base64' ? { encoding: 'base64' as const } : {}),
      },
      redirectURL: response.headers.location ?? '',
      headersSize: -1,
      bodySize: response.body?.size ?? (response.status === 0 ? -1 : 0),
    },
    cache: {},
    timings: { send: 0, wait: entry.durationMs, receive: 0 },
    _sequence: entry.sequence,
    _operation: entry.operation,
    _simulatedTime: entry.at,
    _caller: entry.caller,
    _plan: entry.plan,
    ...(entry.forced === true ? { _forced: true as const } : {}),
    ...(entry.fault === undefined ? {} : { _fault: entry.fault }),
    ...(truncated ? { _truncated: true as const } : {}),
  }
}

function nameValues(headers: Readonly<Record<string, string>>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }))
}

function postData(body: JournalBody, contentType: string | undefined): NonNullable<HarEntry['request']['postData']> {
  return { mimeType: contentType ?? '', text: body.text, ...(body.encoding === 'base64' ? { _encoding: 'base64' as const } : {}) }
}

/** The reason phrases of the statuses the simulator answers. */
const statusTexts: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}
