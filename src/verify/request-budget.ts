import type { Exchange, ProbeRequest } from './exchange.ts'
import { retryAfterSeconds } from './expectations.ts'

/** The run sent every request it announced; a probe asking for more is a bug in its declared budget. */
export class BudgetSpent extends Error {}

/** The target asked to wait longer than the run may (`maxWaitMs`): nothing more is sent, as the target asked. */
export class RetryAfterTooLong extends Error {}

/** The target did not answer (network error, timeout). */
export class NoAnswer extends Error {}

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
  readonly fetch: (input: string, init?: RequestInit) => Promise<Response>
  readonly now: () => number
  readonly sleep: (milliseconds: number) => Promise<void>
}

/**
 * Sends the probes' requests: never more than the budget, never before a
 * `Retry-After` the target gave (on a 429 or a 503) has passed, each within
 * the timeout. A 429 a probe did not ask for is retried once its wait is
 * over, while retries remain.
 */
export class RequestSender {
  readonly #options: SenderOptions
  readonly #exchanges: Exchange[] = []
  #sent = 0
  #retried = 0
  /** No request before this instant (epoch ms, the run's clock): the target's last `Retry-After`. */
  #notBefore = 0
  /** Set when a `Retry-After` was longer than the run may wait: what every later send throws. */
  #stopped: RetryAfterTooLong | undefined

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
    const wait = this.#notBefore - options.now()
    if (wait > 0) await options.sleep(wait)
    this.#sent++
    const exchange = await this.#exchange(request)
    this.#exchanges.push(exchange)
    if (exchange.status === 429 || exchange.status === 503) {
      const seconds = retryAfterSeconds(exchange.headers['retry-after'] ?? '', exchange.receivedAt)
      if (seconds !== undefined) {
        if (seconds * 1000 > options.maxWaitMs) {
          this.#stopped = new RetryAfterTooLong(
            `the target asked to wait ${seconds} s (Retry-After), longer than the run waits (${Math.round(options.maxWaitMs / 1000)} s)`,
          )
        }
        this.#notBefore = exchange.receivedAt + seconds * 1000
      }
      const retry = exchange.status === 429 && !request.expectsLimit && seconds !== undefined && this.#stopped === undefined
      if (retry && this.#retried < options.retries && this.#sent < options.budget) {
        this.#retried++
        return this.send(request)
      }
    }
    return exchange
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
    let bodyText: string
    try {
      response = await options.fetch(url.href, {
        method: request.method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      })
      bodyText = await response.text()
    } catch (error) {
      const cause = (error as Error).name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : (error as Error).message
      throw new NoAnswer(`${request.method} ${url.href}: ${cause}`)
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
