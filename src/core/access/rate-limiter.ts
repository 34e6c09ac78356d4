import { defaults } from '../defaults.ts'
import { anonymousCallerPrefix, type BucketRecord, createCallerBuckets, defaultMaxAnonymousBuckets } from './caller-buckets.ts'
import { longestDurationMs, type Clock } from '../time/clock.ts'
import type { Plan } from './plans.ts'
import type { AnonymousUsage, CallerUsage, WindowUsage } from './limiter-usage.ts'

// After the imports: Babel's parser (Stryker's instrumenter) refuses an `export type { … }` of a name imported below it.
export type { BucketRecord }
export type { AnonymousUsage, CallerUsage, WindowUsage }

const minuteMs = 60_000
const dayMs = 86_400_000

/** When continued requests after a 429 turn into a temporary ban. */
export interface BanPolicy {
  /** A caller that has received this many 429s in a row (no allowed request between) is banned on its next request. */
  readonly after: number
  /** How long a ban lasts, in milliseconds. Requests during a ban do not extend it. */
  readonly durationMs: number
}

export const defaultBanPolicy: BanPolicy = defaults.ban

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
  /**
   * What the caller's windows stand at, counting nothing and banning no one:
   * `remaining` is what is left before this request. For answers that must
   * not consume quota (responses forced with `Prefer: code=`).
   */
  peek(callerId: string, plan: Plan): RateLimitDecision
  /**
   * Both of a caller's windows and its ban, counting nothing: for the
   * dashboard and `simulator.state()`, where {@link peek} tells only the
   * window that binds.
   */
  usage(callerId: string, plan: Plan): CallerUsage
  /**
   * The anonymous callers in aggregate: buckets held (see {@link size}) and
   * how many of them are banned now. A scan of the bans only, which are
   * never more than the buckets held.
   */
  anonymousUsage(): AnonymousUsage
  /** Forgets every count and ban. */
  reset(): void
  /** Every bucket held, anonymous ones least recently used first: what a snapshot keeps. */
  records(): BucketRecord[]
  /** Replaces every count and ban with these (a restored snapshot, or a scenario's usage); the caller validates them. */
  load(records: readonly BucketRecord[]): void
  /**
   * How many callers' buckets are held: those that used quota today or are
   * banned, plus any that stopped carrying anything since the last sweep (a
   * sweep is due within as many calls as there are buckets); anonymous ones at
   * most `maxAnonymousBuckets`. See {@link createRateLimiter}.
   */
  readonly size: number
}

/** The prefix of the ids of key callers' buckets (`key:<token>`), as the API pipeline names them. */
export const keyCallerPrefix = 'key:'

export interface RateLimiterOptions {
  /** The time source: the limiter reads time from it only (no timers). */
  readonly clock: Clock
  /** The temporary ban after continued 429s, or `false` for none. Default {@link defaultBanPolicy}. */
  readonly ban?: BanPolicy | false
  /**
   * The most buckets of anonymous callers held at once (default
   * {@link defaultMaxAnonymousBuckets}); past it, the least recently used
   * anonymous bucket is dropped. Key buckets are never dropped for room:
   * there are only as many as there are keys.
   */
  readonly maxAnonymousBuckets?: number
  /**
   * Whether a caller id names an anonymous caller (one per client address,
   * whose number the clients decide). Default: ids that start with
   * `anonymous:`, as the API route names them.
   */
  readonly isAnonymous?: (callerId: string) => boolean
}

/**
 * The limiter over {@link createCallerBuckets}: which buckets are held, and
 * when they are forgotten or dropped (anonymous ones past
 * `maxAnonymousBuckets`), is that file's job; this one decides requests.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { clock } = options
  const ban = options.ban ?? defaultBanPolicy
  if (
    ban !== false &&
    !(ban.after >= 0 && Number.isSafeInteger(ban.durationMs) && ban.durationMs >= 1 && ban.durationMs <= longestDurationMs)
  ) {
    // A longer ban would end past the clock's range, and X-RateLimit-Reset would no longer be a plain integer.
    throw new RangeError(`ban.after must be 0 or more and ban.durationMs a whole number of ms from 1 to ${longestDurationMs}`)
  }
  const maxAnonymousBuckets = options.maxAnonymousBuckets ?? defaultMaxAnonymousBuckets
  if (!(Number.isSafeInteger(maxAnonymousBuckets) && maxAnonymousBuckets >= 1)) {
    throw new RangeError(`maxAnonymousBuckets must be a whole number of 1 or more (got ${maxAnonymousBuckets})`)
  }
  const isAnonymous = options.isAnonymous ?? ((callerId: string) => callerId.startsWith(anonymousCallerPrefix))
  const buckets = createCallerBuckets(maxAnonymousBuckets, isAnonymous)
  const { bannedUntil } = buckets

  /** A caller's windows as they stand now, read without creating, counting or moving anything. */
  const standing = (callerId: string) => {
    const now = clock.now()
    const bucket = buckets.find(callerId)
    // As in consume: the caller's windows never move back.
    const minute = Math.max(Math.floor(now / minuteMs), bucket?.minute ?? 0)
    const day = Math.max(Math.floor(now / dayMs), bucket?.day ?? 0)
    return {
      now,
      minute,
      day,
      minuteCount: bucket !== undefined && bucket.minute === minute ? bucket.minuteCount : 0,
      dayCount: bucket !== undefined && bucket.day === day ? bucket.dayCount : 0,
      banEnd: bannedUntil.get(callerId),
    }
  }

  return {
    reset: () => buckets.reset(),
    get size() {
      return buckets.size
    },
    records: () => buckets.records(),
    load: (records) => buckets.load(records),
    usage(callerId, plan) {
      const { now, minute, day, minuteCount, dayCount, banEnd } = standing(callerId)
      const window = (limit: number, used: number, resetAt: number): WindowUsage => ({
        limit,
        used,
        remaining: Math.max(0, limit - used),
        resetAt,
      })
      return {
        minute: window(plan.perMinute, minuteCount, (minute + 1) * minuteMs),
        day: window(plan.perDay, dayCount, (day + 1) * dayMs),
        bannedUntil: banEnd !== undefined && now < banEnd ? banEnd : undefined,
      }
    },
    anonymousUsage() {
      return { buckets: buckets.anonymousSize, banned: buckets.anonymousBanned(clock.now()) }
    },
    peek(callerId, plan) {
      const { now, minute, day, minuteCount, dayCount, banEnd } = standing(callerId)
      if (banEnd !== undefined && now < banEnd) return refusal('banned', 'ban', plan.perMinute, banEnd, now)
      if (dayCount >= plan.perDay) return refusal('limited', 'day', plan.perDay, (day + 1) * dayMs, now)
      if (minuteCount >= plan.perMinute) return refusal('limited', 'minute', plan.perMinute, (minute + 1) * minuteMs, now)
      const minuteLeft = plan.perMinute - minuteCount
      const dayLeft = plan.perDay - dayCount
      return dayLeft < minuteLeft
        ? { outcome: 'allowed', window: 'day', limit: plan.perDay, remaining: dayLeft, resetAt: toUnixSeconds((day + 1) * dayMs) }
        : {
            outcome: 'allowed',
            window: 'minute',
            limit: plan.perMinute,
            remaining: minuteLeft,
            resetAt: toUnixSeconds((minute + 1) * minuteMs),
          }
    },
    consume(callerId, plan) {
      const now = clock.now()
      // Math.floor, not now - now % minuteMs, whose window would start after now for a time before 1970.
      const nowMinute = Math.floor(now / minuteMs)
      const nowDay = Math.floor(now / dayMs)
      const state = buckets.take(callerId, now, nowMinute, nowDay)
      // A caller's windows only move forward. A clock moved back into a minute the caller had used started that
      // minute again with a fresh count (its quota granted twice) while its bans stood; now the caller stays in the
      // latest window it used, counts, reset and Retry-After as they were, until the clock passes it. `reset()`
      // gives fresh windows. A window only ever holds one caller's counts, so nothing grows with the moves.
      const minute = Math.max(nowMinute, state.minute)
      const day = Math.max(nowDay, state.day)
      const minuteStart = minute * minuteMs
      const dayStart = day * dayMs
      if (state.minute !== minute) {
        state.minute = minute
        state.minuteCount = 0
      }
      if (state.day !== day) {
        state.day = day
        state.dayCount = 0
      }

      const banEnd = bannedUntil.get(callerId)
      if (banEnd !== undefined) {
        if (now < banEnd) return refusal('banned', 'ban', plan.perMinute, banEnd, now)
        bannedUntil.delete(callerId)
        state.refusedInARow = 0
      }

      const minuteExhausted = state.minuteCount >= plan.perMinute
      const dayExhausted = state.dayCount >= plan.perDay
      if (minuteExhausted || dayExhausted) {
        if (ban !== false && state.refusedInARow >= ban.after) {
          const until = now + ban.durationMs
          bannedUntil.set(callerId, until)
          return refusal('banned', 'ban', plan.perMinute, until, now)
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
