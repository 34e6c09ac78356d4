import { previewJson } from '../http/bounded-json.ts'
import { isSecretName, redactHeader, redacted } from './journal-redaction.ts'
import { parseJsonPath, readJsonPath } from './journal-json-path.ts'
import { compileContains } from './text-search.ts'

// The journal's filters on what a request carried (issue 41): its JSON body (a subset, or one field by a path), its
// headers and its query parameters. They run only when the journal is queried, never while a request is answered,
// and they match what the client sent: a header named like a credential is matched as sent and shown redacted.

/** A JSON value a body field is compared with. */
export type JsonScalar = string | number | boolean | null

/** A header filter: a string is the value sent (whole, repeated headers joined with `, `); or what it contains; or whether it was sent. */
export type HeaderMatch = string | { readonly contains: string } | { readonly present: boolean }

/** The filters on what a request carried; part of {@link JournalFilter}. */
export interface RequestPartsFilter {
  /**
   * A part of the JSON body: every field given is sent with this value, others ignored, at any depth (WireMock's
   * `equalToJson(json, true, true)`); an array is matched whole, in order and length, its objects by the same rule.
   * A body that is not JSON (or was cut at the journal's cap) matches no body filter.
   */
  readonly body?: unknown
  /**
   * Fields of the JSON body by path (`name`, `owner.name`, `tags[0]`), each equal to its value. A string also matches
   * a number, boolean or null whose JSON text it is (`'3'` matches `3`): what the query string's `body.age=3` asks.
   */
  readonly bodyFields?: Readonly<Record<string, JsonScalar>>
  /** Headers by name, in any case. */
  readonly headers?: Readonly<Record<string, HeaderMatch>>
  /** Query parameters, each equal to the value sent (or one of them, when sent more than once). */
  readonly query?: Readonly<Record<string, string>>
}

/** The names of {@link RequestPartsFilter} in-process. */
export const requestFilterNames = ['body', 'bodyFields', 'headers', 'query'] as const

/** The bounds of these filters: a longer or deeper one is refused (a 400 over HTTP), so a query costs at most so much. */
export const requestFilterLimits = {
  /** Body fields, headers and query parameters together, plus one for `body`. */
  maxFilters: 32,
  /** Characters of a value, or of a name, or of `body` as JSON. */
  maxValueLength: 8192,
  /** How deep `body` nests (arrays and objects). */
  maxBodyDepth: 16,
} as const

/** What a request-part filter reads of an entry: each built only when a filter asks. */
export interface SentRequestParts {
  /** The header as sent (repeated ones joined with `, `), by lower-case name. */
  sentHeader(name: string): string | undefined
  /** The header as the journal shows it: a credential redacted ({@link redactHeader}), the keys in force by their labels. */
  shownHeader(name: string): string | undefined
  /** The values a query parameter was sent with. */
  sentQuery(name: string): readonly string[]
  /** The body parsed as JSON; undefined when there was none, or it is not JSON. */
  sentJson(): { readonly value: unknown } | undefined
}

/** One compiled test, with what the entry sent instead for a near-miss message. */
export interface RequestPartTest {
  readonly field: string
  readonly test: (entry: SentRequestParts) => boolean
  /** What the entry sent instead, rendered to at most {@link sentRenderLength} characters: scrub it, then {@link cut} it. */
  readonly sent: (entry: SentRequestParts) => string
}

/** Validates the request-part filters (a `RangeError` names what is wrong) and turns them into tests. */
export function compileRequestFilter(filter: RequestPartsFilter): RequestPartTest[] {
  const { body, bodyFields = {}, headers = {}, query = {} } = filter
  for (const [name, value] of Object.entries({ bodyFields, headers, query })) {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new RangeError(`${name} must be an object of names and values`)
  }
  const count = (body === undefined ? 0 : 1) + Object.keys(bodyFields).length + Object.keys(headers).length + Object.keys(query).length
  if (count > requestFilterLimits.maxFilters)
    throw new RangeError(`At most ${requestFilterLimits.maxFilters} body, header and query filters are taken at once`)
  const tests: RequestPartTest[] = []
  if (body !== undefined) {
    checkJson(body, 0, { nodes: 0 })
    tests.push({ field: 'body', test: (entry) => isJsonSubset(entry.sentJson(), body), sent: (entry) => sentJsonText(entry.sentJson()) })
  }
  for (const [path, wanted] of Object.entries(bodyFields)) {
    const steps = parseJsonPath(path)
    if (!(wanted === null || ['string', 'number', 'boolean'].includes(typeof wanted)))
      throw new RangeError(`bodyFields.${path} must be a string, number, boolean or null`)
    checkLength(`body.${path}`, typeof wanted === 'string' ? wanted : '')
    const read = (entry: SentRequestParts) => {
      const json = entry.sentJson()
      return json === undefined ? undefined : readJsonPath(json.value, steps)
    }
    tests.push({
      field: `body.${path}`,
      test: (entry) => {
        const found = read(entry)
        return found !== undefined && fieldEquals(found.value, wanted)
      },
      sent: (entry) => {
        if (entry.sentJson() === undefined) return 'no JSON body'
        const found = read(entry)
        return found === undefined ? 'no such field' : sentText(found.value)
      },
    })
  }
  for (const [name, match] of Object.entries(headers)) tests.push(headerTest(name, match))
  for (const [name, wanted] of Object.entries(query)) {
    checkLength(`query.${name}`, name)
    if (typeof wanted !== 'string') throw new RangeError(`query.${name} must be a string`)
    checkLength(`query.${name}`, wanted)
    const hidden = isSecretName(name)
    tests.push({
      field: `query.${name}`,
      test: (entry) => entry.sentQuery(name).includes(wanted),
      sent: (entry) => {
        const values = entry.sentQuery(name)
        return values.length === 0 ? 'none' : sentText(hidden ? redacted : values.length === 1 ? values[0] : values)
      },
    })
  }
  return tests
}

function headerTest(name: string, match: HeaderMatch): RequestPartTest {
  checkLength(`headers.${name}`, name)
  if (name === '' || ![...name].every(isTokenCharacter)) throw new RangeError(`headers: ${cut(JSON.stringify(name))} is not a header name`)
  const lower = name.toLowerCase()
  const field = `header.${lower}`
  const sent = (entry: SentRequestParts) => {
    const value = entry.shownHeader(lower)
    return value === undefined ? 'none' : sentText(value)
  }
  if (typeof match === 'string') {
    checkLength(field, match)
    return { field, test: (entry) => entry.sentHeader(lower) === match, sent }
  }
  if (match !== null && typeof match === 'object' && 'contains' in match && typeof match.contains === 'string') {
    checkLength(field, match.contains)
    const contains = compileContains(match.contains)
    return {
      field,
      // The value as shown, not as sent: on a credential, a piece found or not is a character of it learned, and 673
      // counts read a whole Bearer token back (issue 45). The whole value sent is still matched by equality.
      test: (entry) => {
        const value = entry.shownHeader(lower)
        return value !== undefined && contains(value)
      },
      sent,
    }
  }
  if (match !== null && typeof match === 'object' && 'present' in match && typeof match.present === 'boolean') {
    const present = match.present
    return { field, test: (entry) => (entry.sentHeader(lower) !== undefined) === present, sent }
  }
  throw new RangeError(`headers.${name} must be a string, { contains: string } or { present: boolean }`)
}

/** The filter as a failed wait's message shows it: the values of credential-named headers and parameters redacted. */
export function shownRequestFilter(name: string, value: unknown): unknown {
  if ((name !== 'headers' && name !== 'query') || value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, match]) => {
      if (name === 'query' || typeof match !== 'string')
        return [key, isSecretName(key) && typeof match === 'string' ? redacted : secretMatch(key, match)]
      return [key, redactHeader(key.toLowerCase(), match)]
    }),
  )
}

function secretMatch(name: string, match: unknown): unknown {
  const secret = name.toLowerCase() === 'authorization' || isSecretName(name)
  return secret && match !== null && typeof match === 'object' && 'contains' in match ? { contains: redacted } : match
}

/** Whether `sent` holds `wanted`: objects by subset, arrays whole and in order, scalars equal. Steps: one per node of `wanted`. */
function isJsonSubset(sent: { readonly value: unknown } | undefined, wanted: unknown): boolean {
  return sent !== undefined && holds(sent.value, wanted)
}

function holds(sent: unknown, wanted: unknown): boolean {
  if (wanted === null || typeof wanted !== 'object') return sent === wanted
  if (Array.isArray(wanted)) {
    if (!Array.isArray(sent) || sent.length !== wanted.length) return false
    for (let index = 0; index < wanted.length; index++) if (!holds(sent[index], wanted[index])) return false
    return true
  }
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return false
  for (const key of Object.keys(wanted)) {
    if (!Object.hasOwn(sent, key) || !holds((sent as Record<string, unknown>)[key], (wanted as Record<string, unknown>)[key])) return false
  }
  return true
}

function fieldEquals(sent: unknown, wanted: JsonScalar): boolean {
  if (typeof wanted !== 'string' || typeof sent === 'string') return sent === wanted
  return (sent === null || typeof sent === 'number' || typeof sent === 'boolean') && JSON.stringify(sent) === wanted
}

/** A JSON value of bounded depth, nodes and string lengths: what `body` may be. */
function checkJson(value: unknown, depth: number, count: { nodes: number }): void {
  if (++count.nodes > requestFilterLimits.maxValueLength)
    throw new RangeError(`body has at most ${requestFilterLimits.maxValueLength} values`)
  if (typeof value === 'string') {
    checkLength('body', value)
    return
  }
  if (value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return
  if (typeof value !== 'object') throw new RangeError('body must be a JSON value')
  if (depth >= requestFilterLimits.maxBodyDepth) throw new RangeError(`body nests at most ${requestFilterLimits.maxBodyDepth} deep`)
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    throw new RangeError('body must be a JSON value')
  }
  for (const [key, item] of Object.entries(value)) {
    checkLength('body', key)
    checkJson(item, depth + 1, count)
  }
}

/** Refuses a value, name or body longer than {@link requestFilterLimits}' `maxValueLength`. */
export function checkLength(field: string, text: string): void {
  if (text.length > requestFilterLimits.maxValueLength) {
    throw new RangeError(`${cut(field)} is at most ${requestFilterLimits.maxValueLength} characters (got ${text.length})`)
  }
}

/** RFC 9110's token characters, the only ones a header name has. */
function isTokenCharacter(character: string): boolean {
  const code = character.charCodeAt(0)
  if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return true
  return "!#$%&'*+-.^_`|~".includes(character)
}

function sentJsonText(json: { readonly value: unknown } | undefined): string {
  return json === undefined ? 'no JSON body' : sentText(json.value)
}

/**
 * How much of a value sent a near miss renders before its keys are scrubbed: far more than it shows ({@link cut}), so
 * that a key straddling the cut is replaced whole, never shown in part (issue 45).
 */
export const sentRenderLength = 4096

/** What an entry sent, as JSON for a near miss, bounded in depth and length; the message scrubs it, then cuts it. */
function sentText(value: unknown): string {
  return previewJson(value, sentRenderLength)
}

/** A value in a message, cut: a 16 KiB value is not sent back whole. */
export function cut(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}
