import type { JournalEntry, RecordedRequest } from '../journal/journal-types.ts'

/**
 * A request as the grader reads it, whatever it came from (the journal as it records, the journal's entries, a HAR
 * file): the facts every request carries, and the few that need the exchange read as functions, called only for the
 * requests a rule looks at (a 429's headers, a failed createPet's body), so the hot path reads nothing it need not.
 */
export interface GradableRequest {
  readonly sequence: number
  /** Epoch milliseconds on the simulator's clock (a HAR's `startedDateTime`). */
  readonly atMs: number
  readonly operation: string
  readonly status: number
  /** The caller as the journal names it: a key's fingerprint, or `anonymous`. */
  readonly caller: string
  readonly plan: string
  /** The answer was forced with `Prefer: code=`. */
  readonly forced: boolean
  /** A fault rule shaped the answer. */
  readonly fault: boolean
  /**
   * When a retry may be sent after this answer (a 429), in epoch ms: the earlier of `Retry-After` passed and
   * `X-RateLimit-Reset` reached (the moment the limiter itself lets it through); undefined without either header.
   */
  retryDueAt(): number | undefined
  /** The Error body's `code`, if the answer has one. */
  errorCode(): string | undefined
  /** The request body as text (what the journal kept of it), if any. */
  requestBody(): string | undefined
}

/** The earlier of `atMs + Retry-After` and `X-RateLimit-Reset`, from the headers' values. */
export function retryDue(atMs: number, retryAfter: string | undefined, reset: string | undefined): number | undefined {
  let due: number | undefined
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter.trim())
    const at = Number.isFinite(seconds) && seconds >= 0 ? atMs + seconds * 1000 : Date.parse(retryAfter)
    if (Number.isFinite(at)) due = at
  }
  if (reset !== undefined) {
    const seconds = Number(reset.trim())
    if (Number.isFinite(seconds) && seconds > 0 && (due === undefined || seconds * 1000 < due)) due = seconds * 1000
  }
  return due
}

/** The `code` of an Error body: a scan of its first bytes, no full parse (error bodies are small). */
export function errorCodeOf(body: string | undefined): string | undefined {
  if (body === undefined) return undefined
  const match = /"code"\s*:\s*"([a-z_]{1,64})"/.exec(body.slice(0, 1024))
  return match?.[1]
}

function headerOf(headers: Readonly<Record<string, string>>, lower: string): string | undefined {
  const exact = headers[lower]
  if (exact !== undefined) return exact
  for (const name in headers) if (name.toLowerCase() === lower) return headers[name]
  return undefined
}

const utf8 = new TextDecoder('utf-8')

/**
 * A request as the journal records it (the simulator's hook): the exchange read only when asked. A class, not an
 * object literal with three closures: it is made for every request the simulator answers, and the literal's four
 * objects a request were caught by the allocation and promotion budgets (test/bench/HISTORY.md, "Figures moved out
 * of source comments"); an instance is one object.
 */
class RecordedGradable implements GradableRequest {
  readonly sequence: number
  readonly atMs: number
  readonly operation: string
  readonly status: number
  readonly caller: string
  readonly plan: string
  readonly forced: boolean
  readonly fault: boolean
  readonly #recorded: RecordedRequest

  constructor(recorded: RecordedRequest) {
    this.sequence = recorded.sequence
    this.atMs = recorded.atMs
    this.operation = recorded.operation
    this.status = recorded.status
    this.caller = recorded.caller
    this.plan = recorded.plan
    this.forced = recorded.forced === true
    this.fault = recorded.fault !== undefined
    this.#recorded = recorded
  }

  retryDueAt(): number | undefined {
    const headers = this.#recorded.exchange?.responseHeaders
    if (headers === undefined) return undefined
    return retryDue(this.atMs, headerOf(headers, 'retry-after'), headerOf(headers, 'x-ratelimit-reset'))
  }

  errorCode(): string | undefined {
    const body = this.#recorded.exchange?.responseBody
    return errorCodeOf(typeof body === 'string' || body === undefined ? body : utf8.decode(body.subarray(0, 1024)))
  }

  requestBody(): string | undefined {
    const body = this.#recorded.exchange?.requestBody
    return body === undefined || body.byteLength === 0 ? undefined : utf8.decode(body)
  }
}

/** A request as the journal records it (the simulator's hook): the exchange read only when asked. */
export function fromRecorded(recorded: RecordedRequest): GradableRequest {
  return new RecordedGradable(recorded)
}

/** A journal entry as `journal.entries()` and `GET /__sim/requests` give it. */
export function fromEntry(entry: JournalEntry): GradableRequest {
  return {
    sequence: entry.sequence,
    atMs: Date.parse(entry.at),
    operation: entry.operation,
    status: entry.status,
    caller: entry.caller,
    plan: entry.plan,
    forced: entry.forced === true,
    fault: entry.fault !== undefined,
    retryDueAt: () => retryDue(Date.parse(entry.at), entry.response.headers['retry-after'], entry.response.headers['x-ratelimit-reset']),
    errorCode: () => errorCodeOf(entry.response.body?.text),
    requestBody: () => entry.request.body?.text,
  }
}
