import { fingerprint } from '../access/fingerprint.ts'
import { getPetDeprecation } from '../operations/deprecation.ts'
import { gradeRequests, type ClientReport } from './client-grader.ts'
import { errorCodeOf, retryDue, type GradableRequest } from './gradable-request.ts'

/** The bounds of a HAR file read for grading: past them it is refused, before (or instead of) being parsed whole. */
export const harGradingLimits = Object.freeze({
  /** The deepest nesting of arrays and objects: a HAR's is 6; 64 leaves room for any tool's extensions. */
  maxDepth: 64,
  /** The most entries graded. */
  maxEntries: 200_000,
})

export interface HarGradingOptions {
  /** When getPet is removed, epoch ms. Default: the spec's, 5 December 2030. */
  readonly sunsetAt?: number
  /** The most callers kept (least recently seen forgotten). Default 1000. */
  readonly maxCallers?: number
}

/**
 * Grades a HAR 1.2 recording: the simulator's own export (`GET /__sim/requests.har`, whose `_sequence`,
 * `_simulatedTime`, `_caller`, `_plan`, `_operation`, `_forced` and `_fault` it reads, so the report is the
 * simulator's), or a browser's or proxy's, timed by its `startedDateTime`, callers named by a fingerprint of the key
 * sent (never the key). Linear in the text; throws a `RangeError` saying what is wrong, and where, for a text that is not such a file.
 */
export function gradeHar(text: string, options: HarGradingOptions = {}): ClientReport {
  checkDepth(text)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new RangeError(`not JSON (${(error as Error).message}): a HAR file cut short, or not a HAR file`)
  }
  const entries = (parsed as { log?: { entries?: unknown } } | null)?.log?.entries
  if (!Array.isArray(entries)) throw new RangeError('not a HAR file: no log.entries array')
  if (entries.length > harGradingLimits.maxEntries) {
    throw new RangeError(`${entries.length} entries: at most ${harGradingLimits.maxEntries} are graded; split the recording`)
  }
  const requests = entries.map((entry, index) => harRequest(entry, index))
  // The simulator's own export is in its journal's order; another recording is graded in the order it was sent.
  const ordered = entries.every((entry) => typeof (entry as { _sequence?: unknown })._sequence === 'number')
  if (!ordered) requests.sort((a, b) => a.atMs - b.atMs || a.sequence - b.sequence)
  return gradeRequests(requests, { sunsetAt: options.sunsetAt ?? getPetDeprecation.sunsetAt, maxCallers: options.maxCallers ?? 1000 })
}

/** Refuses nesting deeper than {@link harGradingLimits}'s `maxDepth`, in one pass, before `JSON.parse` recurses into it. */
function checkDepth(text: string): void {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c) index++
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > harGradingLimits.maxDepth) {
        throw new RangeError(`nested deeper than ${harGradingLimits.maxDepth} levels at character ${index}: not a HAR file`)
      }
    } else if (code === 0x7d || code === 0x5d) depth--
  }
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

function headerOf(headers: unknown, lower: string): string | undefined {
  if (!Array.isArray(headers)) return undefined
  for (const header of headers) {
    if (isObject(header) && typeof header.name === 'string' && header.name.toLowerCase() === lower && typeof header.value === 'string')
      return header.value
  }
  return undefined
}

/** One entry as the grader reads it; an entry without a method, URL, status or a time that can be read is refused. */
function harRequest(entry: unknown, index: number): GradableRequest {
  const where = `entry ${index}`
  if (!isObject(entry) || !isObject(entry.request) || !isObject(entry.response))
    throw new RangeError(`${where}: not a HAR entry (request and response objects)`)
  const { request, response } = entry
  const timeText = typeof entry._simulatedTime === 'string' ? entry._simulatedTime : entry.startedDateTime
  const atMs = typeof timeText === 'string' ? Date.parse(timeText) : Number.NaN
  if (!(Number.isFinite(atMs) && atMs >= 0 && atMs <= Date.UTC(9999, 11, 31, 23, 59, 59, 999))) {
    throw new RangeError(
      `${where}: startedDateTime ${JSON.stringify(String(timeText).slice(0, 40))} is not an ISO 8601 time from 1970 to 9999`,
    )
  }
  if (entry.time !== undefined && !(typeof entry.time === 'number' && Number.isFinite(entry.time) && entry.time >= -1)) {
    throw new RangeError(`${where}: time ${JSON.stringify(entry.time)} is not a duration in ms`)
  }
  const method = request.method
  const url = request.url
  const status = response.status
  if (
    typeof method !== 'string' ||
    typeof url !== 'string' ||
    !(Number.isSafeInteger(status) && (status as number) >= 0 && (status as number) < 1000)
  ) {
    throw new RangeError(`${where}: a request's method and url, and a response's status, are required`)
  }
  const headers = response.headers
  const content = isObject(response.content) ? response.content : {}
  const body = isObject(request.postData) && typeof request.postData.text === 'string' ? request.postData.text : undefined
  const sequence = typeof entry._sequence === 'number' && Number.isSafeInteger(entry._sequence) ? entry._sequence : index + 1
  return {
    sequence,
    atMs,
    operation: typeof entry._operation === 'string' ? entry._operation : operationOf(method, url),
    status: status as number,
    caller: typeof entry._caller === 'string' ? entry._caller : callerOf(headerOf(request.headers, 'authorization')),
    plan: typeof entry._plan === 'string' ? entry._plan : 'unknown',
    forced: entry._forced === true,
    fault: typeof entry._fault === 'string',
    retryDueAt: () => retryDue(atMs, headerOf(headers, 'retry-after'), headerOf(headers, 'x-ratelimit-reset')),
    errorCode: () => errorCodeOf(typeof content.text === 'string' && content.encoding !== 'base64' ? content.text : undefined),
    requestBody: () => body,
  }
}

/** The caller of a recording made elsewhere: a fingerprint of the bearer key sent (never the key), or `anonymous`. */
function callerOf(authorization: string | undefined): string {
  const token = authorization?.match(/^\s*bearer\s+(\S+)\s*$/i)?.[1]
  return token === undefined ? 'anonymous' : /^key#[0-9a-f]{8}$/.test(token) ? token : fingerprint(token)
}

/** The operation of a request in a recording made elsewhere, from its method and path (any prefix before `/pets`). */
function operationOf(method: string, url: string): string {
  let path: string
  try {
    path = new URL(url, 'http://recording.invalid').pathname
  } catch {
    return 'routeNotFound'
  }
  const upper = method.toUpperCase()
  if (/\/pets\/?$/.test(path)) return upper === 'GET' || upper === 'HEAD' ? 'listPets' : upper === 'POST' ? 'createPet' : 'methodNotAllowed'
  if (/\/pets\/[^/]+\/?$/.test(path)) return upper === 'GET' || upper === 'HEAD' ? 'getPet' : 'methodNotAllowed'
  return 'routeNotFound'
}
