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

/** A recorded request as filters see it; the key sent is read from its headers only when a filter asks. */
export function filterable(recorded: RecordedRequest): FilterableEntry {
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
  }
}

export function summaryLine(entry: FilterableEntry, scrub: Scrub = keepText): string {
  return `#${entry.sequence} ${entry.method} ${scrub(redactUrl(entry.path))} -> ${entry.status} ${entry.operation} ${entry.caller}`
}
