import type { CapturedExchange } from './journal-exchange.ts'
import { readRequest, readResponse } from './journal-exchange.ts'
import type { FilterableEntry } from './journal-filter.ts'
import { keyName, redactHeader, redactUrl } from './journal-redaction.ts'
import type { JournalEntry, JournalSummary, RecordedRequest } from './journal-types.ts'

// The journal's views of a recorded request, built when it is read: the summary (the dashboard's rows, events),
// the whole entry, what filters look at, and the one line a failed wait lists. Each applies the one redaction
// rule (journal-redaction.ts) and `scrub`, which replaces the keys in force by their labels wherever else a
// client put one (a path, a body, a header not named like a credential).

/** Replaces the keys in force by their labels (`createKeyScrubber`); the identity when there is none to hide. */
export type Scrub = (text: string) => string
const keepText: Scrub = (text) => text

const unmatchedOperations = new Set(['routeNotFound', 'methodNotAllowed'])

/** The summary of a recorded request: its times in ISO 8601, fields in the documented order, secrets redacted. */
export function toSummary(recorded: RecordedRequest, scrub: Scrub = keepText): JournalSummary {
  const { sequence, atMs, wallMs, method, path, status, operation, caller, plan, durationMs, forced, fault } = recorded
  const name = keyName(caller)
  return {
    sequence,
    at: new Date(atMs).toISOString(),
    wallAt: new Date(wallMs).toISOString(),
    method,
    path: scrub(redactUrl(path)),
    status,
    operation,
    caller,
    ...(name === undefined ? {} : { keyName: name }),
    plan,
    durationMs,
    ...(forced === true ? { forced } : {}),
    ...(fault === undefined ? {} : { fault }),
    ...(unmatchedOperations.has(operation) ? { unmatched: true as const } : {}),
  }
}

/** The journal's public form of a recorded request: the summary and the whole exchange. */
export function toEntry(recorded: RecordedRequest, scrub: Scrub = keepText): JournalEntry {
  const exchange = recorded.exchange ?? emptyExchange
  return {
    ...toSummary(recorded, scrub),
    request: readRequest(recorded.method, recorded.path, exchange, scrub),
    response: readResponse(recorded.method, recorded.status, exchange, scrub),
  }
}

const emptyExchange: CapturedExchange = {
  rawHeaders: undefined,
  requestBody: undefined,
  requestBodySize: 0,
  responseHeaders: {},
  responseBody: undefined,
  responseBodySize: -1,
  bytes: 0,
}

/** A recorded request's body as JSON, as {@link parseRequestBody} reads it: the journal's keeps each one parsed. */
export type ReadJson = (recorded: RecordedRequest) => { readonly value: unknown } | undefined

/**
 * A recorded request as filters see it. The key sent, the headers, the query and the JSON body are read from the
 * exchange only when a filter asks, as the client sent them (a filter on `x-api-key` matches the key sent; messages
 * redact it), and each at most once; the body by `readJson`, which the journal memoises across queries.
 */
export function filterable(recorded: RecordedRequest, scrub: Scrub = keepText, readJson: ReadJson = parseRequestBody): FilterableEntry {
  let headers: Map<string, string> | undefined
  let shown: Map<string, string | undefined> | undefined
  let query: Map<string, string[]> | undefined
  let json: { readonly value: unknown } | undefined | null = null
  const sentHeader = (name: string) => {
    if (headers === undefined) {
      headers = new Map()
      const raw = recorded.exchange?.rawHeaders ?? []
      for (let index = 0; index + 1 < raw.length; index += 2) {
        const lower = raw[index]!.toLowerCase()
        const before = headers.get(lower)
        headers.set(lower, before === undefined ? raw[index + 1]! : `${before}${lower === 'cookie' ? '; ' : ', '}${raw[index + 1]!}`)
      }
    }
    return headers.get(name)
  }
  return {
    sequence: recorded.sequence,
    method: recorded.method,
    path: recorded.path,
    status: recorded.status,
    operation: recorded.operation,
    caller: recorded.caller,
    sentKey() {
      const raw = recorded.exchange?.rawHeaders ?? []
      for (let index = 0; index + 1 < raw.length; index += 2) {
        if (raw[index]!.toLowerCase() === 'authorization')
          return redactHeader('authorization', raw[index + 1]!)
            .split(' ')
            .pop()
      }
      return undefined
    },
    sentHeader,
    shownHeader(name) {
      // Once per name: a new entry's view is read by every pending wait.
      shown ??= new Map()
      if (!shown.has(name)) {
        const value = sentHeader(name)
        shown.set(name, value === undefined ? undefined : scrub(redactHeader(name, value)))
      }
      return shown.get(name)
    },
    shownTarget: () => scrub(redactUrl(recorded.path)),
    sentQuery(name) {
      if (query === undefined) {
        query = new Map()
        const queryStart = recorded.path.indexOf('?')
        if (queryStart !== -1) {
          for (const [key, value] of new URLSearchParams(recorded.path.slice(queryStart + 1))) {
            const values = query.get(key)
            if (values === undefined) query.set(key, [value])
            else values.push(value)
          }
        }
      }
      return query.get(name) ?? []
    },
    sentJson() {
      if (json === null) json = readJson(recorded)
      return json
    },
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The request body as JSON; undefined for none, a cut one (its JSON is incomplete), or one that is not JSON. */
export function parseRequestBody(recorded: RecordedRequest): { readonly value: unknown } | undefined {
  const exchange = recorded.exchange
  const body = exchange?.requestBody
  if (body === undefined || body.byteLength === 0 || exchange!.requestBodySize > body.byteLength) return undefined
  try {
    return { value: JSON.parse(utf8.decode(body)) }
  } catch {
    return undefined
  }
}

export function summaryLine(entry: FilterableEntry, scrub: Scrub = keepText): string {
  return `#${entry.sequence} ${entry.method} ${scrub(redactUrl(entry.path))} -> ${entry.status} ${entry.operation} ${entry.caller}`
}
