import { ApiError } from '../http/api-error.ts'
import { previewJson } from '../http/bounded-json.ts'
import { fingerprint } from '../access/fingerprint.ts'
import { operationNames, type OperationName } from '../model/operation-names.ts'
import { secretLabel } from './journal-redaction.ts'
import { compileRequestFilter, requestFilterNames, type RequestPartsFilter, type SentRequestParts } from './journal-request-filter.ts'
import { addRequestParameter, requestFilterParameters, type RequestPartsDraft } from './journal-request-query.ts'
import { compileGlob } from './text-search.ts'

export { compileGlob, type GlobMeter } from './text-search.ts'

/** What the journal records as a request's operation: one of the route table's, or what a request that matched none is. */
export type JournalOperation = OperationName | 'routeNotFound' | 'methodNotAllowed'

/** Every operation a journal entry can have (the route table's, by name): what `operation=` accepts. */
export const journalOperations: readonly JournalOperation[] = [...operationNames, 'routeNotFound', 'methodNotAllowed']

/**
 * What `method=` accepts: the methods of RFC 9110 §9 and PATCH (RFC 5789). A request sent with another one (the
 * Node server parses WebDAV's too) is answered 405 and found with `operation=methodNotAllowed`; `FETCH` or a typo
 * is refused rather than matching nothing.
 */
export const journalMethods: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']

/**
 * Which journal entries to take: every field given must match (AND). The
 * same filter in-process (`journal.find(filter)`) and over HTTP
 * (`GET /__sim/requests?status=401&key=demo-free-key`).
 */
export interface JournalFilter extends RequestPartsFilter {
  /** The operation's name (`createPet`), or `routeNotFound` / `methodNotAllowed` for requests that matched none. */
  readonly operation?: JournalOperation
  /** The method, in any case: one of {@link journalMethods}. */
  readonly method?: string
  /**
   * The path as sent, without the query (`/v1/pets/7`); `*` stands for any characters (`/v1/pets/*`). With a `?`, the
   * query too. It must be under the base path (or start with a `*`): the journal holds no request outside it.
   */
  readonly path?: string
  /** A status (`401`), or a class (`4xx`); 0 for no answer (a fault's reset or hang). */
  readonly status?: number | string
  /** The key: a demo key's name, a token, its fingerprint (`key#1f3a9c02`), or `anonymous` for requests without a valid key. */
  readonly key?: string
  /** Entries with this sequence number or a later one. */
  readonly since?: number
  /** Entries with this sequence number or an earlier one: with `since`, a window that new requests do not move (a page's `next`). */
  readonly until?: number
  /** At most this many entries: the most recent ones, oldest first. */
  readonly limit?: number
}

/** The filter's names, as query parameters take them. */
export const journalFilterNames = ['operation', 'method', 'path', 'status', 'key', 'since', 'until', 'limit'] as const

/** What a filter looks at in an entry: its summary fields, the key the request sent, and its headers, query and body. */
export interface FilterableEntry extends SentRequestParts {
  readonly sequence: number
  readonly method: string
  readonly path: string
  readonly status: number
  readonly operation: string
  readonly caller: string
  /** The label of the `Authorization` the request sent, when it was not a valid key. */
  sentKey(): string | undefined
  /** The path and query as the journal shows them: credential-named parameters redacted, the keys in force by their labels. */
  shownTarget(): string
}

/** One test per field given, each true or false for an entry; `sent` says what an entry sent instead (near misses). */
export type CompiledFilter = ReadonlyArray<{
  readonly field: string
  readonly test: (entry: FilterableEntry) => boolean
  readonly sent?: (entry: FilterableEntry) => string
}>

/**
 * Validates a filter (a `RangeError` names what is wrong) and turns it into tests. `basePath` is the simulator's
 * (`/v1`, or `''` at the root): a `path` that cannot be under it is refused, as it would match nothing.
 */
export function compileFilter(filter: JournalFilter = {}, basePath: string): CompiledFilter {
  const tests: Array<CompiledFilter[number]> = []
  const names: readonly string[] = [...journalFilterNames, ...requestFilterNames]
  const unknown = Object.keys(filter).filter((name) => !names.includes(name))
  if (unknown.length > 0) throw new RangeError(`Unknown journal filter ${unknown.join(', ')}; use ${names.join(', ')}`)
  const { operation, method, path, status, key, since, until, limit } = filter
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 0)) throw new RangeError('limit must be a whole number of 0 or more')
  if (operation !== undefined) {
    if (!journalOperations.includes(operation)) {
      throw new RangeError(`operation must be one of ${journalOperations.join(', ')} (got ${quoted(operation)})`)
    }
    tests.push({ field: 'operation', test: (entry) => entry.operation === operation })
  }
  if (method !== undefined) {
    const upper = typeof method === 'string' ? method.toUpperCase() : ''
    if (!journalMethods.includes(upper)) throw new RangeError(`method must be one of ${journalMethods.join(', ')} (got ${quoted(method)})`)
    tests.push({ field: 'method', test: (entry) => entry.method === upper })
  }
  if (path !== undefined) {
    if (typeof path !== 'string' || !mayBeUnder(path, basePath)) {
      throw new RangeError(
        `path must be a path under ${basePath || '/'}, such as ${basePath}/pets/*, or start with * (got ${quoted(path)})`,
      )
    }
    const glob = compileGlob(path)
    // The path as shown: a glob over an `api_key=` value, or a key in force in the path, as sent would read it back a
    // character at a time (`/v1/pets/a*`, `/v1/pets/ab*`…).
    const withQuery = path.includes('?')
    tests.push({ field: 'path', test: (entry) => glob(withQuery ? entry.shownTarget() : withoutQuery(entry.shownTarget())) })
  }
  if (status !== undefined) tests.push({ field: 'status', test: statusTest(status) })
  if (key !== undefined) {
    // The caller's fingerprint for a valid key; the label of what was sent for one that is not (or a wrong one).
    const caller = key === 'anonymous' || key.startsWith('key#') ? key : fingerprint(key)
    const sent = key === 'anonymous' || key.startsWith('key#') ? key : secretLabel(key)
    tests.push({ field: 'key', test: (entry) => entry.caller === caller || (key !== 'anonymous' && entry.sentKey() === sent) })
  }
  if (since !== undefined) {
    if (!Number.isSafeInteger(since)) throw new RangeError('since must be a sequence number')
    tests.push({ field: 'since', test: (entry) => entry.sequence >= since })
  }
  if (until !== undefined) {
    if (!Number.isSafeInteger(until)) throw new RangeError('until must be a sequence number')
    tests.push({ field: 'until', test: (entry) => entry.sequence <= until })
  }
  // Last: the cheap summary tests above reject most entries before a body is parsed.
  tests.push(...compileRequestFilter(filter))
  return tests
}

/** Whether an entry passes every test. */
export function matches(tests: CompiledFilter, entry: FilterableEntry): boolean {
  for (const { test } of tests) if (!test(entry)) return false
  return true
}

/**
 * A filter from query parameters (`GET /__sim/requests?…`): an unknown or
 * repeated name, or a value that is not one, is a 400 `invalid_query_parameter`.
 * `extra` names parameters the endpoint takes besides the filter (`timeoutMs`).
 */
export function parseJournalFilter(
  query: string,
  basePath: string,
  extra: readonly string[] = [],
): { filter: JournalFilter; extra: Record<string, string> } {
  const filter: Record<string, string | number> = {}
  const rest: Record<string, string> = {}
  const parts: RequestPartsDraft = {}
  const seen = new Set<string>()
  for (const [name, value] of new URLSearchParams(query)) {
    if (seen.has(name)) throw new ApiError('invalid_query_parameter', `${quotedName(name)} is given more than once`)
    seen.add(name)
    if (extra.includes(name)) rest[name] = value
    else if (readRequestParameter(name, value, parts)) continue
    else if (name === 'since' || name === 'until' || name === 'limit') {
      if (!/^\d{1,15}$/.test(value)) throw new ApiError('invalid_query_parameter', `${name} must be a whole number (got ${quoted(value)})`)
      filter[name] = Number(value)
    } else if ((journalFilterNames as readonly string[]).includes(name)) filter[name] = value
    else {
      throw new ApiError(
        'invalid_query_parameter',
        `Unknown filter ${quotedName(name)}: the journal filters by ${[...journalFilterNames, ...requestFilterParameters].join(', ')}${extra.length > 0 ? `, and takes ${extra.join(', ')}` : ''}`,
      )
    }
  }
  const { count: _count, ...requestParts } = parts
  const parsed: JournalFilter = { ...filter, ...requestParts }
  try {
    compileFilter(parsed, basePath)
  } catch (error) {
    throw new ApiError('invalid_query_parameter', (error as Error).message)
  }
  return { filter: parsed, extra: rest }
}

function readRequestParameter(name: string, value: string, parts: RequestPartsDraft): boolean {
  try {
    return addRequestParameter(name, value, parts)
  } catch (error) {
    throw new ApiError('invalid_query_parameter', (error as Error).message)
  }
}

/** A parameter's name in a refusal, cut: a 16 KiB name is not sent back whole. */
function quotedName(name: string): string {
  return name.length > 100 ? `${name.slice(0, 100)}…` : name
}

function statusTest(status: number | string): (entry: FilterableEntry) => boolean {
  const text = String(status).trim().toLowerCase()
  if (/^[1-5]xx$/.test(text)) {
    const statusClass = Number(text[0])
    return (entry) => Math.floor(entry.status / 100) === statusClass
  }
  if (!/^(?:0|[1-5]\d\d)$/.test(text))
    throw new RangeError(`status must be a status like 401, a class like 4xx, or 0 (got ${quoted(status)})`)
  const wanted = Number(text)
  return (entry) => entry.status === wanted
}

function withoutQuery(target: string): string {
  const queryStart = target.indexOf('?')
  return queryStart === -1 ? target : target.slice(0, queryStart)
}

/** A value in a refusal's message: JSON, and cut, so that a 16 KiB value is not sent back whole. */
function quoted(value: unknown): string {
  return value === undefined ? 'undefined' : previewJson(value, 100)
}

/**
 * Whether a `path` filter can match a path under `basePath`: what comes before its first `*` (all of it without
 * one, the query aside) must begin such a path, or be the start of the base path itself (`/v*`).
 */
function mayBeUnder(path: string, basePath: string): boolean {
  const star = path.indexOf('*')
  let literal = star === -1 ? path : path.slice(0, star)
  const queryStart = literal.indexOf('?')
  if (queryStart !== -1) literal = literal.slice(0, queryStart)
  if (star !== -1 && (`${basePath}/`.startsWith(literal) || literal.startsWith(`${basePath}/`))) return true
  return (literal === basePath && basePath !== '') || literal.startsWith(`${basePath}/`)
}
