import { expectErrorBody, expectHeader, expectStatus, expectWholeNumberHeader, Mismatch, retryAfterSeconds } from './expectations.ts'
import { planHint } from './diagnosis.ts'
import type { Exchange } from './exchange.ts'
import type { Probe } from './probe.ts'
import { RetryAfterTooLong } from './request-budget.ts'

/**
 * The rate-limit checks: the headers' arithmetic on two requests in a row,
 * the headers on every response of the run (checked last, over all of them),
 * and with `--limits` the 429 reached by spending the window.
 */

/**
 * How far `X-RateLimit-Reset` may lie behind the run's clock: the target's
 * clock and ours differ by NTP's error and the header's one-second rounding;
 * 30 s is generous for both and still catches a Reset that has passed.
 */
const clockToleranceSeconds = 30
/** The longest window the spec names is a day. */
const daySeconds = 86_400

const remainingProbe: Probe = {
  checks: ['rateLimit.remaining-decreases', 'rateLimit.plan-limit'],
  budget: () => 3,
  async run(context) {
    const request = { method: 'GET', path: '/pets', query: { limit: '1' } } as const
    let before = await context.send(request)
    let after = await context.send(request)
    // A window that ended between the two restarts the count: one more pair, inside the new window.
    if (before.headers['x-ratelimit-reset'] !== after.headers['x-ratelimit-reset']) {
      before = after
      after = await context.send(request)
    }
    context.judge('rateLimit.remaining-decreases', () => {
      expectStatus(before, 200)
      expectStatus(after, 200)
      const first = expectWholeNumberHeader(before, 'X-RateLimit-Remaining')
      const second = expectWholeNumberHeader(after, 'X-RateLimit-Remaining')
      if (second >= first) throw new Mismatch(`X-RateLimit-Remaining below ${first} on the next request`, `${second}`, after)
    })
    context.judge('rateLimit.plan-limit', () => {
      const limit = expectWholeNumberHeader(before, 'X-RateLimit-Limit')
      const { name, perMinute, perDay } = context.plan
      const hint = planHint(limit, context.plan)
      if (hint !== undefined)
        throw new Mismatch(`X-RateLimit-Limit ${perMinute} or ${perDay} (the ${name} plan; ${hint})`, `${limit}`, before)
    })
  },
}

const exceedProbe: Probe = {
  checks: ['limits.429', 'limits.retry-after', 'limits.error-body', 'limits.recovers'],
  needs: 'limits',
  // Spending a fresh minute costs its whole quota and one request more; then one to see the recovery.
  budget: (plan) => plan.perMinute + 2,
  async run(context) {
    const request = { method: 'GET', path: '/pets', query: { limit: '1' }, expectsLimit: true } as const
    let announced: number | undefined
    let allowedAfterFirst = 0
    let refused: Exchange | undefined
    let window: string | undefined
    for (let sent = 0; sent <= context.plan.perMinute && refused === undefined; sent++) {
      const exchange = await context.send(request)
      if (exchange.status === 429) refused = exchange
      else {
        if (exchange.status !== 200) {
          context.judge('limits.429', () => expectStatus(exchange, 200))
          return
        }
        const reset = exchange.headers['x-ratelimit-reset']
        if (window !== undefined && reset !== window) {
          for (const id of this.checks) context.skip(id, 'the rate-limit window ended while it was being spent; run again')
          return
        }
        window = reset
        if (announced === undefined) announced = expectWholeNumberHeader(exchange, 'X-RateLimit-Remaining')
        else allowedAfterFirst++
      }
    }
    if (refused === undefined) {
      context.judge('limits.429', () => {
        throw new Mismatch(
          `a 429 within ${context.plan.perMinute + 1} requests (the ${context.plan.name} plan allows ${context.plan.perMinute} a minute)`,
          'every request answered 200',
          context.exchanges().at(-1),
        )
      })
      return
    }
    if (announced === undefined) {
      for (const id of ['limits.429', 'limits.recovers'] as const)
        context.skip(id, "the key's quota was already spent before the run reached it")
    } else {
      const remaining = announced
      context.judge('limits.429', () => {
        if (allowedAfterFirst !== remaining) {
          throw new Mismatch(
            `429 after ${remaining} more requests (X-RateLimit-Remaining said ${remaining})`,
            `429 after ${allowedAfterFirst}`,
            refused,
          )
        }
      })
    }
    context.judge('limits.retry-after', () => {
      const value = expectHeader(refused, 'Retry-After')
      if (retryAfterSeconds(value, refused.receivedAt) === undefined)
        throw new Mismatch('Retry-After: <seconds> or an HTTP date', `Retry-After: ${value}`, refused)
    })
    context.judge('limits.error-body', () => expectErrorBody(refused))
    if (announced === undefined) return
    try {
      // The runner waits out the Retry-After before sending this.
      const recovered = await context.send({ method: 'GET', path: '/pets', query: { limit: '1' } })
      context.judge('limits.recovers', () => expectStatus(recovered, 200))
    } catch (error) {
      if (!(error instanceof RetryAfterTooLong)) throw error
      context.skip('limits.recovers', error.message)
    }
  },
}

/** Runs last: the rate-limit headers of every response the run received, 401s and 429s included. */
const everyResponseProbe: Probe = {
  checks: ['rateLimit.headers', 'rateLimit.reset-future'],
  budget: () => 0,
  async run(context) {
    const exchanges = context.exchanges()
    if (exchanges.length === 0) {
      for (const id of this.checks) context.skip(id, 'no response was received')
      return
    }
    for (const exchange of exchanges) {
      context.judge('rateLimit.headers', () => {
        const limit = expectWholeNumberHeader(exchange, 'X-RateLimit-Limit')
        const remaining = expectWholeNumberHeader(exchange, 'X-RateLimit-Remaining')
        expectWholeNumberHeader(exchange, 'X-RateLimit-Reset')
        if (remaining > limit) throw new Mismatch(`X-RateLimit-Remaining <= X-RateLimit-Limit (${limit})`, `${remaining}`, exchange)
      })
      const reset = Number(exchange.headers['x-ratelimit-reset'])
      if (!Number.isSafeInteger(reset)) continue
      context.judge('rateLimit.reset-future', () => {
        const seconds = Math.floor(exchange.receivedAt / 1000)
        if (reset < seconds - clockToleranceSeconds || reset > seconds + daySeconds + clockToleranceSeconds) {
          throw new Mismatch(
            `X-RateLimit-Reset from ${seconds} to ${seconds + daySeconds} (${new Date(seconds * 1000).toISOString()} and a day later)`,
            `${reset} (${Number.isFinite(reset * 1000) && Math.abs(reset) < 8e12 ? new Date(reset * 1000).toISOString() : 'not a date'})`,
            exchange,
          )
        }
      })
    }
  },
}

/** In the order they run: the arithmetic first, the 429 (which spends the window) late, the every-response check last. */
export const rateLimitProbes = { remaining: remainingProbe, exceed: exceedProbe, everyResponse: everyResponseProbe } as const
