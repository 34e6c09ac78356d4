import type { Clock } from './clock.ts'
import type { Plan } from './plans.ts'

const minuteMs = 60_000
const dayMs = 86_400_000

/** When continued requests after a 429 turn into a temporary ban. */
export interface BanPolicy {
  /** A caller that has received this many 429s in a row (no allowed request between) is banned on its next request. */
  readonly after: number
  /** How long a ban lasts, in milliseconds. Requests during a ban do not extend it. */
  readonly durationMs: number
}

export const defaultBanPolicy: BanPolicy = { after: 10, durationMs: 10 * minuteMs }

/**
 * What the limiter decided for one request, with the figures for the
 * `X-RateLimit-*` headers: the window in force is whichever of the minute and
 * day windows has fewer requests left (the minute on a tie), or the exhausted
 * one when the request is refused.
 */
export type RateLimitDecision =
  | {
      readonly outcome: 'allowed'
      readonly window: 'minute' | 'day'
      readonly limit: number
      readonly remaining: number
      readonly resetAt: number
    }
  | {
      readonly outcome: 'limited' | 'banned'
      /** The window that binds (`ban` while banned). */
      readonly window: 'minute' | 'day' | 'ban'
      readonly limit: number
      readonly remaining: 0
      /** Unix seconds at which the binding window resets (or the ban ends). */
      readonly resetAt: number
      /** Whole seconds, at least 1, until a retry can succeed. */
      readonly retryAfterSeconds: number
    }

/**
 * Fixed-window rate limiting per caller, with a minute window aligned to the
 * UTC minute and a day window aligned to UTC midnight, both enforced.
 * Refused requests (429s) do not consume quota.
 *
 * @example
 * const limiter = createRateLimiter({ clock })
 * const decision = limiter.consume('key#1234', standardPlans.free)
 * if (decision.outcome !== 'allowed') console.log(decision.retryAfterSeconds)
 */
export interface RateLimiter {
  consume(callerId: string, plan: Plan): RateLimitDecision
  /** Forgets every count and ban. */
  reset(): void
}

interface CallerState {
  minuteStart: number
  minuteCount: number
  dayStart: number
  dayCount: number
  refusedInARow: number
  bannedUntil: number
}

export function createRateLimiter(options: { clock: Clock; ban?: BanPolicy | false }): RateLimiter {
  const { clock } = options
  const ban = options.ban ?? defaultBanPolicy
  const callers = new Map<string, CallerState>()

  return {
    reset: () => callers.clear(),
    consume(callerId, plan) {
      const now = clock.now()
      const minuteStart = now - (now % minuteMs)
      const dayStart = now - (now % dayMs)
      let state = callers.get(callerId)
      if (state === undefined) {
        state = { minuteStart, minuteCount: 0, dayStart, dayCount: 0, refusedInARow: 0, bannedUntil: 0 }
        callers.set(callerId, state)
      }
      if (state.minuteStart !== minuteStart) {
        state.minuteStart = minuteStart
        state.minuteCount = 0
      }
      if (state.dayStart !== dayStart) {
        state.dayStart = dayStart
        state.dayCount = 0
      }

      if (now < state.bannedUntil) {
        return refusal('banned', 'ban', plan.perMinute, state.bannedUntil, now)
      }
      if (state.bannedUntil !== 0) {
        state.bannedUntil = 0
        state.refusedInARow = 0
      }

      const minuteExhausted = state.minuteCount >= plan.perMinute
      const dayExhausted = state.dayCount >= plan.perDay
      if (minuteExhausted || dayExhausted) {
        if (ban !== false && state.refusedInARow >= ban.after) {
          state.bannedUntil = now + ban.durationMs
          return refusal('banned', 'ban', plan.perMinute, state.bannedUntil, now)
        }
        state.refusedInARow++
        // When both are exhausted the day window binds: it resets later.
        return dayExhausted
          ? refusal('limited', 'day', plan.perDay, dayStart + dayMs, now)
          : refusal('limited', 'minute', plan.perMinute, minuteStart + minuteMs, now)
      }

      state.refusedInARow = 0
      state.minuteCount++
      state.dayCount++
      const minuteLeft = plan.perMinute - state.minuteCount
      const dayLeft = plan.perDay - state.dayCount
      return dayLeft < minuteLeft
        ? { outcome: 'allowed', window: 'day', limit: plan.perDay, remaining: dayLeft, resetAt: toUnixSeconds(dayStart + dayMs) }
        : {
            outcome: 'allowed',
            window: 'minute',
            limit: plan.perMinute,
            remaining: minuteLeft,
            resetAt: toUnixSeconds(minuteStart + minuteMs),
          }
    },
  }
}

function refusal(
  outcome: 'limited' | 'banned',
  window: 'minute' | 'day' | 'ban',
  limit: number,
  until: number,
  now: number,
): RateLimitDecision {
  return {
    outcome,
    window,
    limit,
    remaining: 0,
    resetAt: toUnixSeconds(until),
    retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)),
  }
}

function toUnixSeconds(epochMs: number): number {
  return Math.ceil(epochMs / 1000)
}
