import type { Exchange, ProbeRequest } from './exchange.ts'
import { retryAfterSeconds, stringifyJson } from './expectations.ts'

/** The run sent every request it announced; a probe asking for more is a bug in its declared budget. */
export class BudgetSpent extends Error {}

/** The target asked to wait longer than the run may (`maxWaitMs`): nothing more is sent, as the target asked. */
export class RetryAfterTooLong extends Error {}

/** The target did not answer (network error, timeout). */
export class NoAnswer extends Error {}

/**
 * The target cannot be reached at all: the connection is refused, the name does not resolve, TLS fails, or the
 * first request gets no answer in time. Nothing more is sent: the run reports it once, with its cause.
 */
export class TargetUnreachable extends NoAnswer {}

/** A wait the run is about to begin, and why: the CLI says so rather than sit silent. */
export interface VerifyWait {
  readonly milliseconds: number
  /** `the target's Retry-After (429 on GET /v1/pets)`, `a backoff: …`, `the created pet to show in GET /pets …`. */
  readonly reason: string
}

/**
 * Error codes (Node's, undici's) that say the target was never reached: the same answer awaits every request.
 * A reset or a closed socket after connecting is not among them: that is one request's failure.
 */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

/** The target's body went past the read cap (`maxBodyBytes`): what was read is dropped, the rest is never read. */
export class AnswerTooLarge extends NoAnswer {}

/** The run's time bound (`maxTimeMs`) is reached, or a wait would pass it: nothing more is sent. */
export class RunOutOfTime extends Error {}

/** The first wait after a 429 or 503 that gave no `Retry-After`; each next one in a row doubles, up to {@link backoffCapMs}. */
export const backoffFloorMs = 250
export const backoffCapMs = 8_000

export interface SenderOptions {
  /** The API's base URL, e.g. `https://staging.example.com/v1`. */
  readonly baseUrl: string
  readonly key: string
  /** The most requests to send, retries included. */
  readonly budget: number
  /** How many 429s the runner may retry (after their `Retry-After`) when a probe did not ask for one; part of `budget`. */
  readonly retries: number
  readonly timeoutMs: number
  /** The longest `Retry-After` the run waits out; a longer one ends the sending. */
  readonly maxWaitMs: number
  /** The most bytes read of a response body; past it the read stops and the request fails ({@link AnswerTooLarge}). */
  readonly maxBodyBytes: number
  /** When the run must be over (the run's clock, epoch ms): no request is sent, and no wait ends, after it. */
  readonly deadline: number
  /** The run's time bound, as the message that ends the run names it. */
  readonly maxTimeLabelMs: number
  readonly fetch: (input: string, init?: RequestInit) => Promise<Response>
  readonly now: () => number
  readonly sleep: (milliseconds: number) => Promise<void>
  /** Told of each wait before it begins. */
  readonly onWait?: (wait: VerifyWait) => void
}

/**
 * Sends the probes' requests: never more than the budget, never before a
 * `Retry-After` the target gave (on a 429 or a 503) has passed, each within
 * the timeout and the run's deadline, reading at most `maxBodyBytes` of each
 * body. A 429 or 503 without `Retry-After` is backed off from (250 ms,
 * doubling in a row, at most 8 s). A 429 a probe did not ask for is retried
 * once its wait is over, while retries remain.
 */
export class RequestSender {
  readonly #options: SenderOptions
  readonly #exchanges: Exchange[] = []
  #sent = 0
  #retried = 0
  /** No request before this instant (epoch ms, the run's clock): the target's last `Retry-After`. */
  #notBefore = 0
  /** Why {@link #notBefore} is where it is, as a wait announces it. */
  #notBeforeReason = ''
  /** Set when a `Retry-After` was longer than the run may wait, the run is out of time, or the target cannot be reached: what every later send throws. */
  #stopped: RetryAfterTooLong | RunOutOfTime | TargetUnreachable | undefined
  /** 429s and 503s in a row without `Retry-After`: the next backoff is the floor doubled this many times less one. */
  #busyInARow = 0

  constructor(options: SenderOptions) {
    this.#options = options
  }

  get sent(): number {
    return this.#sent
  }

  exchanges(): readonly Exchange[] {
    return this.#exchanges
  }

  /** Why the target could not be reached (`cannot connect to 127.0.0.1:4999 (ECONNREFUSED)`), once it could not. */
  get unreachable(): string | undefined {
    return this.#stopped instanceof TargetUnreachable ? this.#stopped.message : undefined
  }

  async send(request: ProbeRequest): Promise<Exchange> {
    const options = this.#options
    if (this.#stopped !== undefined) throw this.#stopped
    if (this.#sent >= options.budget) throw new BudgetSpent(`the run's ${options.budget} requests are spent`)
    const now = options.now()
    const delayed = request.delay === undefined ? 0 : now + request.delay.milliseconds
    const until = Math.max(this.#notBefore, delayed)
    // A wait that would end after the deadline is not begun: the run ends now, not when the wait is over.
    if (Math.max(until, now) >= options.deadline) throw this.#outOfTime()
    const wait = until - now
    if (wait > 0) {
      const reason = until === this.#notBefore || request.delay === undefined ? this.#notBeforeReason : request.delay.reason
      options.onWait?.({ milliseconds: wait, reason })
      await options.sleep(wait)
    }
    this.#sent++
    const exchange = await this.#exchange(request)
    this.#exchanges.push(exchange)
    if (exchange.status === 429 || exchange.status === 503) {
      const seconds = retryAfterSeconds(exchange.headers['retry-after'] ?? '', exchange.receivedAt)
      if (seconds !== undefined) {
        this.#busyInARow = 0
        if (seconds * 1000 > options.maxWaitMs) {
          this.#stopped = new RetryAfterTooLong(
            `the target asked to wait ${seconds} s (Retry-After), longer than the run waits (${Math.round(options.maxWaitMs / 1000)} s)`,
          )
        }
        this.#notBefore = exchange.receivedAt + seconds * 1000
        this.#notBeforeReason = `the target's Retry-After: ${seconds} s (${exchange.status} on ${exchange.request.method} ${new URL(exchange.request.url).pathname})`
      } else {
        // No Retry-After: back off rather than ask again at once (exponential, floored and capped).
        this.#busyInARow++
        this.#notBefore = exchange.receivedAt + Math.min(backoffCapMs, backoffFloorMs * 2 ** Math.min(this.#busyInARow - 1, 16))
        this.#notBeforeReason = `a backoff: the target answered ${exchange.status} without Retry-After (${this.#busyInARow} in a row)`
      }
      const retry = exchange.status === 429 && !request.expectsLimit && seconds !== undefined && this.#stopped === undefined
      if (retry && this.#retried < options.retries && this.#sent < options.budget) {
        this.#retried++
        return this.send(request)
      }
    } else {
      this.#busyInARow = 0
    }
    return exchange
  }

  #outOfTime(): RunOutOfTime {
    this.#stopped ??= new RunOutOfTime(`the run reached its time bound (${formatMs(this.#options.maxTimeLabelMs)}, --max-time)`)
    return this.#stopped
  }

  async #exchange(request: ProbeRequest): Promise<Exchange> {
    const options = this.#options
    const url = new URL(`${options.baseUrl.replace(/\/+$/, '')}${request.path}`)
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value)
    const headers: Record<string, string> = { accept: 'application/json' }
    const auth = request.auth ?? 'key'
    if (auth === 'key') headers.authorization = `Bearer ${options.key}`
    else if (auth !== 'none') headers.authorization = `Bearer ${auth.token}`
    const body = request.json === undefined ? undefined : stringifyJson(request.json)
    if (body !== undefined) headers['content-type'] = 'application/json'
    let response: Response
    let bodyText: string | undefined
    // The request's own timeout, or what is left of the run's time if that is less.
    const left = options.deadline - options.now()
    const timeoutMs = Math.max(1, Math.min(options.timeoutMs, left))
    try {
      response = await options.fetch(url.href, {
        method: request.method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      })
      bodyText = await readCapped(response, options.maxBodyBytes)
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError'
      if (timedOut && timeoutMs < options.timeoutMs) throw this.#outOfTime()
      const code = errorCode(error)
      const where = `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`
      if (code !== undefined && unreachableCodes.has(code)) {
        this.#stopped = new TargetUnreachable(`cannot connect to ${where} (${code})`)
        throw this.#stopped
      }
      // A first request that gets no answer at all: the rest would each wait as long for nothing.
      if (timedOut && this.#exchanges.length === 0) {
        this.#stopped = new TargetUnreachable(`cannot reach ${where}: no answer within ${options.timeoutMs} ms (timeout)`)
        throw this.#stopped
      }
      const message = (error as Error).message
      const cause = timedOut ? `no answer within ${options.timeoutMs} ms` : code === undefined ? message : `${message} (${code})`
      throw new NoAnswer(`${request.method} ${url.href}: ${cause}`)
    }
    if (bodyText === undefined) {
      throw new AnswerTooLarge(
        `${request.method} ${url.href}: the response body exceeded the read cap of ${formatBytes(options.maxBodyBytes)} (--max-body); the rest was not read`,
      )
    }
    let json: unknown
    try {
      json = JSON.parse(bodyText, exactIntegers)
    } catch {
      // A reviver recurses once a level, and overflows on JSON nested some 10,000 deep, which JSON.parse alone reads.
      json = parseOrUndefined(bodyText)
    }
    return {
      request: { method: request.method, url: url.href, auth: auth === 'key' || auth === 'none' ? auth : 'other', body },
      status: response.status,
      headers: Object.fromEntries([...response.headers].map(([name, value]) => [name.toLowerCase(), value])),
      bodyText,
      json,
      receivedAt: options.now(),
    }
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * A JSON reviver that keeps integers past 2^53 exact, as bigints, from their source text (ES2025's
 * `JSON.parse` source access; Node 21+). Ids are int64: `1790000000000000001` must not become `…000`.
 */
function exactIntegers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || Number.isSafeInteger(value) || context?.source === undefined) return value
  return /^-?\d+$/.test(context.source) ? BigInt(context.source) : value
}

/** The `code` of a fetch failure's cause (undici wraps it: `fetch failed` ← `connect ECONNREFUSED …`), if any. */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown }
    if (typeof code === 'string') return code
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined)
  }
  return undefined
}

/**
 * The body as text, read chunk by chunk; undefined (and the stream cancelled,
 * so the connection is dropped) as soon as it passes `cap` bytes: an endless
 * body costs at most `cap` bytes and one chunk.
 */
async function readCapped(response: Response, cap: number): Promise<string | undefined> {
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return text + decoder.decode()
    bytes += value.byteLength
    if (bytes > cap) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    text += decoder.decode(value, { stream: true })
  }
}

/** `1 MiB`, `64 KiB`, `300 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`
  return `${bytes} bytes`
}

/** `10m`, `90s`, `1500ms`: a duration as the flags take it. */
export function formatMs(milliseconds: number): string {
  if (milliseconds >= 60_000 && milliseconds % 60_000 === 0) return `${milliseconds / 60_000}m`
  if (milliseconds >= 1000 && milliseconds % 1000 === 0) return `${milliseconds / 1000}s`
  return `${milliseconds}ms`
}
