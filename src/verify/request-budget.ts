import type { Exchange, ProbeRequest } from './exchange.ts'
import { retryAfterSeconds } from './expectations.ts'

/** The run sent every request it announced; a probe asking for more is a bug in its declared budget. */
export class BudgetSpent extends Error {}

/** The target asked to wait longer than the run may (`maxWaitMs`): nothing more is sent, as the target asked. */
export class RetryAfterTooLong extends Error {}

/** The target did not answer (network error, timeout). */
export class NoAnswer extends Error {}

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
  /** Set when a `Retry-After` was longer than the run may wait, or the run is out of time: what every later send throws. */
  #stopped: RetryAfterTooLong | RunOutOfTime | undefined
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

  async send(request: ProbeRequest): Promise<Exchange> {
    const options = this.#options
    if (this.#stopped !== undefined) throw this.#stopped
    if (this.#sent >= options.budget) throw new BudgetSpent(`the run's ${options.budget} requests are spent`)
    // A wait that would end after the deadline is not begun: the run ends now, not when the wait is over.
    if (Math.max(this.#notBefore, options.now()) >= options.deadline) throw this.#outOfTime()
    const wait = this.#notBefore - options.now()
    if (wait > 0) await options.sleep(wait)
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
      } else {
        // No Retry-After: back off rather than ask again at once (exponential, floored and capped).
        this.#busyInARow++
        this.#notBefore = exchange.receivedAt + Math.min(backoffCapMs, backoffFloorMs * 2 ** Math.min(this.#busyInARow - 1, 16))
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
    const body = request.json === undefined ? undefined : JSON.stringify(request.json)
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
      if ((error as Error).name === 'TimeoutError' && timeoutMs < options.timeoutMs) throw this.#outOfTime()
      const cause = (error as Error).name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : (error as Error).message
      throw new NoAnswer(`${request.method} ${url.href}: ${cause}`)
    }
    if (bodyText === undefined) {
      throw new AnswerTooLarge(
        `${request.method} ${url.href}: the response body exceeded the read cap of ${formatBytes(options.maxBodyBytes)} (--max-body); the rest was not read`,
      )
    }
    let json: unknown
    try {
      json = JSON.parse(bodyText)
    } catch {
      json = undefined
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
