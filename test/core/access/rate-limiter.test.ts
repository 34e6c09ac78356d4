import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createManualClock, longestDurationMs, type Clock } from '../../../src/core/time/clock.ts'
import { standardPlans, type Plan } from '../../../src/core/access/plans.ts'
import { createRateLimiter, type BanPolicy } from '../../../src/core/access/rate-limiter.ts'

const start = Date.parse('2031-03-01T08:15:20Z')

function useUp(limiter: ReturnType<typeof createRateLimiter>, plan: Plan, count: number) {
  let last: ReturnType<typeof limiter.consume> | undefined
  for (let index = 0; index < count; index++) last = limiter.consume('caller', plan)
  return last!
}

describe('rate limiter: the spec plan table', () => {
  it.each([
    ['free', standardPlans.free, 60, 1_000],
    ['pro', standardPlans.pro, 300, 10_000],
    ['business', standardPlans.business, 1_000, 100_000],
    ['enterprise (custom)', { name: 'enterprise', perMinute: 7, perDay: 20 } satisfies Plan, 7, 20],
  ] as const)('%s allows %i per minute and %i per day', (_name, plan, perMinute, perDay) => {
    const clock = createManualClock(start)
    const limiter = createRateLimiter({ clock, ban: false })
    expect(useUp(limiter, plan, perMinute)).toMatchObject({ outcome: 'allowed', remaining: 0 })
    expect(limiter.consume('caller', plan)).toMatchObject({ outcome: 'limited', window: 'minute', limit: perMinute })
    let allowed = perMinute
    while (allowed < perDay) {
      clock.advance(60_000)
      for (let index = 0; index < perMinute && allowed < perDay; index++) {
        expect(limiter.consume('caller', plan).outcome).toBe('allowed')
        allowed++
      }
    }
    clock.advance(60_000)
    const refused = limiter.consume('caller', plan)
    expect(refused).toMatchObject({ outcome: 'limited', window: 'day', limit: perDay, remaining: 0 })
    expect(refused.resetAt).toBe(Date.parse('2031-03-02T00:00:00Z') / 1000)
  })
})

describe('rate limiter: bans', () => {
  const tiny: Plan = { name: 'enterprise', perMinute: 1, perDay: 100 }

  it.each([
    [0, 60_000],
    [3, 1_000],
    [10, 3_600_000],
  ])('bans after %i refusals in a row, for %i ms', (after, durationMs) => {
    const clock = createManualClock(start)
    const limiter = createRateLimiter({ clock, ban: { after, durationMs } })
    limiter.consume('caller', tiny)
    for (let index = 0; index < after; index++) expect(limiter.consume('caller', tiny).outcome).toBe('limited')
    const banned = limiter.consume('caller', tiny)
    expect(banned).toMatchObject({ outcome: 'banned', retryAfterSeconds: Math.max(1, Math.ceil(durationMs / 1000)) })
    clock.advance(durationMs - 1)
    expect(limiter.consume('caller', tiny).outcome).toBe('banned')
    clock.advance(60_000)
    expect(limiter.consume('caller', tiny).outcome).toBe('allowed')
  })

  it('never bans with ban: false', () => {
    const limiter = createRateLimiter({ clock: createManualClock(start), ban: false })
    limiter.consume('caller', tiny)
    const outcomes = new Set(Array.from({ length: 500 }, () => limiter.consume('caller', tiny).outcome))
    expect([...outcomes]).toEqual(['limited'])
  })

  it('forgives the refusal streak after an allowed request', () => {
    const clock = createManualClock(start)
    const limiter = createRateLimiter({ clock, ban: { after: 2, durationMs: 60_000 } })
    limiter.consume('caller', tiny)
    limiter.consume('caller', tiny)
    limiter.consume('caller', tiny)
    clock.advance(60_000)
    expect(limiter.consume('caller', tiny).outcome).toBe('allowed')
    expect(limiter.consume('caller', tiny).outcome).toBe('limited')
    expect(limiter.consume('caller', tiny).outcome).toBe('limited')
    expect(limiter.consume('caller', tiny).outcome).toBe('banned')
  })

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    const clock = createManualClock(Date.parse('2031-03-01T08:15:59.999Z'))
    const limiter = createRateLimiter({ clock, ban: false })
    limiter.consume('caller', tiny)
    expect(limiter.consume('caller', tiny)).toMatchObject({ retryAfterSeconds: 1 })
    clock.set('2031-03-01T08:15:00.001Z')
    limiter.consume('caller', tiny)
    expect(limiter.consume('caller', tiny)).toMatchObject({ retryAfterSeconds: 60 })
  })

  it('keeps callers apart and forgets everything on reset', () => {
    const limiter = createRateLimiter({ clock: createManualClock(start) })
    limiter.consume('a', tiny)
    expect(limiter.consume('a', tiny).outcome).toBe('limited')
    expect(limiter.consume('b', tiny).outcome).toBe('allowed')
    limiter.reset()
    expect(limiter.consume('a', tiny).outcome).toBe('allowed')
  })
})

/**
 * The limiter as it was before it forgot anything: one bucket per caller, kept
 * forever. The reference the forgetting limiter must agree with.
 */
function createUnforgettingLimiter(clock: Clock, ban: BanPolicy) {
  const callers = new Map<
    string,
    { minuteStart: number; minuteCount: number; dayStart: number; dayCount: number; refusedInARow: number; bannedUntil: number }
  >()
  const refusal = (outcome: 'limited' | 'banned', window: 'minute' | 'day' | 'ban', limit: number, until: number, now: number) => ({
    outcome,
    window,
    limit,
    remaining: 0,
    resetAt: Math.ceil(until / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)),
  })
  return (callerId: string, plan: Plan) => {
    const now = clock.now()
    const minuteStart = now - (now % 60_000)
    const dayStart = now - (now % 86_400_000)
    let state = callers.get(callerId)
    if (state === undefined) {
      state = { minuteStart, minuteCount: 0, dayStart, dayCount: 0, refusedInARow: 0, bannedUntil: 0 }
      callers.set(callerId, state)
    }
    if (state.minuteStart !== minuteStart) Object.assign(state, { minuteStart, minuteCount: 0 })
    if (state.dayStart !== dayStart) Object.assign(state, { dayStart, dayCount: 0 })
    if (now < state.bannedUntil) return refusal('banned', 'ban', plan.perMinute, state.bannedUntil, now)
    if (state.bannedUntil !== 0) Object.assign(state, { bannedUntil: 0, refusedInARow: 0 })
    const dayExhausted = state.dayCount >= plan.perDay
    if (state.minuteCount >= plan.perMinute || dayExhausted) {
      if (state.refusedInARow >= ban.after) {
        state.bannedUntil = now + ban.durationMs
        return refusal('banned', 'ban', plan.perMinute, state.bannedUntil, now)
      }
      state.refusedInARow++
      return dayExhausted
        ? refusal('limited', 'day', plan.perDay, dayStart + 86_400_000, now)
        : refusal('limited', 'minute', plan.perMinute, minuteStart + 60_000, now)
    }
    state.refusedInARow = 0
    state.minuteCount++
    state.dayCount++
    const minuteLeft = plan.perMinute - state.minuteCount
    const dayLeft = plan.perDay - state.dayCount
    return dayLeft < minuteLeft
      ? { outcome: 'allowed', window: 'day', limit: plan.perDay, remaining: dayLeft, resetAt: Math.ceil((dayStart + 86_400_000) / 1000) }
      : {
          outcome: 'allowed',
          window: 'minute',
          limit: plan.perMinute,
          remaining: minuteLeft,
          resetAt: Math.ceil((minuteStart + 60_000) / 1000),
        }
  }
}

describe('rate limiter: forgetting buckets that carry nothing', () => {
  const callers: Array<[string, Plan]> = [
    ['key#a', { name: 'enterprise', perMinute: 2, perDay: 5 }],
    ['key#b', { name: 'enterprise', perMinute: 3, perDay: 4 }],
    ['anonymous:10.0.0.1', { name: 'free', perMinute: 2, perDay: 3 }],
    ['anonymous:10.0.0.2', { name: 'free', perMinute: 2, perDay: 3 }],
    ['anonymous:unknown', { name: 'free', perMinute: 1, perDay: 6 }],
  ]
  const step = fc.oneof(
    fc.record({ call: fc.integer({ min: 0, max: callers.length - 1 }), times: fc.integer({ min: 1, max: 4 }) }),
    // Forward only: time that goes back to a day it has left is the one case where forgetting shows (see createRateLimiter).
    fc.record({ advance: fc.constantFrom(0, 1, 999, 30_000, 60_000, 3_600_000, 86_399_999, 86_400_000, 2 * 86_400_000) }),
  )

  it('gives exactly the decisions of a limiter that never forgets, then forgets everyone once their day and bans are over', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 120 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom(1_000, 90_000, 3_600_000, 2 * 86_400_000),
        (steps, after, durationMs) => {
          const clock = createManualClock(start)
          const limiter = createRateLimiter({ clock, ban: { after, durationMs } })
          const reference = createUnforgettingLimiter(clock, { after, durationMs })
          let latest = clock.now()
          for (const next of steps) {
            if ('advance' in next) {
              clock.advance(next.advance)
              latest = Math.max(latest, clock.now())
              continue
            }
            const [callerId, plan] = callers[next.call]!
            for (let index = 0; index < next.times; index++) {
              expect(limiter.consume(callerId, plan)).toEqual(reference(callerId, plan))
            }
            expect(limiter.size).toBeLessThanOrEqual(callers.length)
          }
          // After every day seen and every ban: no bucket carries anything any more.
          clock.set(latest + durationMs + 86_400_000)
          for (let index = 0; index <= callers.length + 1; index++) limiter.consume('anonymous:probe', standardPlans.free)
          expect(limiter.size).toBe(1)
        },
      ),
      { numRuns: 400 },
    )
  })

  it('keeps a caller while its day quota or its ban lasts, and forgets it after', () => {
    const clock = createManualClock('2031-03-01T23:58:30Z')
    const limiter = createRateLimiter({ clock, ban: { after: 0, durationMs: 3_600_000 } })
    const tiny: Plan = { name: 'free', perMinute: 1, perDay: 2 }
    /** Calls from `count` other addresses, enough to let a sweep happen (one is due within size + 1 calls). */
    const others = (phase: string, count: number) => {
      for (let index = 0; index < count; index++) limiter.consume(`anonymous:${phase}-${index}`, tiny)
    }
    limiter.consume('anonymous:quota', tiny)
    limiter.consume('anonymous:banned', tiny)
    expect(limiter.consume('anonymous:banned', tiny).outcome).toBe('banned') // until 00:58:30
    clock.advance(60_000) // 23:59:30, a new minute of the same day: the day quota still counts
    others('first', 10)
    expect(limiter.size).toBe(12)
    expect(limiter.consume('anonymous:quota', tiny)).toMatchObject({ outcome: 'allowed', remaining: 0 })
    clock.advance(60_000) // 00:00:30, the next day: yesterday's counts carry nothing, the ban still does
    others('second', 40)
    expect(limiter.size).toBe(1 + 40)
    expect(limiter.consume('anonymous:banned', tiny).outcome).toBe('banned')
    clock.advance(3_600_000) // 01:00:30, the ban is over
    others('third', 50)
    expect(limiter.size).toBe(40 + 50)
    expect(limiter.consume('anonymous:banned', tiny).outcome).toBe('allowed')
  })
})

describe('rate limiter: the cap on anonymous buckets', () => {
  const tiny: Plan = { name: 'free', perMinute: 1, perDay: 100 }

  it('drops the least recently used anonymous bucket when full, forgiving that caller', () => {
    const limiter = createRateLimiter({ clock: createManualClock(start), ban: false, maxAnonymousBuckets: 3 })
    for (const address of ['a', 'b', 'c']) limiter.consume(`anonymous:${address}`, tiny)
    expect(limiter.consume('anonymous:a', tiny).outcome).toBe('limited') // a is now the most recent
    limiter.consume('anonymous:d', tiny) // drops b, the least recently used
    expect(limiter.size).toBe(3)
    expect(limiter.consume('anonymous:a', tiny).outcome).toBe('limited')
    expect(limiter.consume('anonymous:c', tiny).outcome).toBe('limited')
    expect(limiter.consume('anonymous:b', tiny).outcome).toBe('allowed') // forgiven: its bucket was dropped
  })

  it('never drops key buckets for room', () => {
    const limiter = createRateLimiter({ clock: createManualClock(start), ban: false, maxAnonymousBuckets: 2 })
    limiter.consume('key#1', tiny)
    for (let index = 0; index < 50; index++) limiter.consume(`anonymous:${index}`, tiny)
    expect(limiter.size).toBe(3)
    expect(limiter.consume('key#1', tiny).outcome).toBe('limited')
  })

  it('tells anonymous callers apart with isAnonymous', () => {
    const limiter = createRateLimiter({
      clock: createManualClock(start),
      ban: false,
      maxAnonymousBuckets: 1,
      isAnonymous: (id) => id.startsWith('ip:'),
    })
    limiter.consume('anonymous:kept', tiny)
    limiter.consume('ip:1', tiny)
    limiter.consume('ip:2', tiny)
    expect(limiter.size).toBe(2)
    expect(limiter.consume('anonymous:kept', tiny).outcome).toBe('limited')
  })

  it('holds at most the default 100,000 anonymous buckets for 1,000,000 addresses in one day', () => {
    const clock = createManualClock('2031-03-01T00:00:00Z')
    const limiter = createRateLimiter({ clock })
    for (let index = 0; index < 1_000_000; index++) {
      limiter.consume(`anonymous:10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`, standardPlans.free)
      if (index % 12_000 === 0) clock.advance(1_000) // a million addresses spread over about 23 hours
    }
    expect(limiter.size).toBe(100_000)
  })

  it.each([
    [{ maxAnonymousBuckets: 0 }, /maxAnonymousBuckets/],
    [{ maxAnonymousBuckets: 1.5 }, /maxAnonymousBuckets/],
    [{ ban: { after: 1, durationMs: 1e300 } }, /ban.durationMs/],
    [{ ban: { after: 1, durationMs: 1.5 } }, /ban.durationMs/],
    [{ ban: { after: 1, durationMs: 0 } }, /ban.durationMs/],
    [{ ban: { after: 1, durationMs: longestDurationMs + 1 } }, /ban.durationMs/],
    [{ ban: { after: -1, durationMs: 1000 } }, /ban.after/],
  ])('refuses the options %j', (options, message) => {
    expect(() => createRateLimiter({ clock: createManualClock(start), ...options })).toThrow(message)
  })

  it.each([1, longestDurationMs])('takes a ban of %i ms, the shortest and the longest', (durationMs) => {
    expect(() => createRateLimiter({ clock: createManualClock(start), ban: { after: 0, durationMs } })).not.toThrow()
  })
})

describe('rate limiter: usage() and peek() across window boundaries (manual clock)', () => {
  const plan: Plan = { name: 'enterprise', perMinute: 5, perDay: 8 }
  // 23:59:50 UTC: ten seconds before both windows turn.
  const beforeMidnight = Date.parse('2031-03-01T23:59:50Z')

  it('usage() reports the new day and minute as empty once the clock crosses UTC midnight', () => {
    const clock = createManualClock(beforeMidnight)
    const limiter = createRateLimiter({ clock, ban: false })
    for (let index = 0; index < 3; index++) limiter.consume('caller', plan)
    expect(limiter.usage('caller', plan)).toEqual({
      minute: { limit: 5, used: 3, remaining: 2, resetAt: Date.parse('2031-03-02T00:00:00Z') },
      day: { limit: 8, used: 3, remaining: 5, resetAt: Date.parse('2031-03-02T00:00:00Z') },
      bannedUntil: undefined,
    })
    clock.advance(10_000)
    expect(limiter.usage('caller', plan)).toEqual({
      minute: { limit: 5, used: 0, remaining: 5, resetAt: Date.parse('2031-03-02T00:01:00Z') },
      day: { limit: 8, used: 0, remaining: 8, resetAt: Date.parse('2031-03-03T00:00:00Z') },
      bannedUntil: undefined,
    })
    // Reading counted nothing.
    expect(limiter.consume('caller', plan)).toMatchObject({ outcome: 'allowed', remaining: 4, window: 'minute' })
  })

  it('usage() keeps the day count over a minute boundary, and starts the minute afresh', () => {
    const clock = createManualClock(Date.parse('2031-03-01T12:00:58Z'))
    const limiter = createRateLimiter({ clock, ban: false })
    for (let index = 0; index < 4; index++) limiter.consume('caller', plan)
    clock.advance(2_000)
    const usage = limiter.usage('caller', plan)
    expect(usage.minute).toEqual({ limit: 5, used: 0, remaining: 5, resetAt: Date.parse('2031-03-01T12:02:00Z') })
    expect(usage.day).toEqual({ limit: 8, used: 4, remaining: 4, resetAt: Date.parse('2031-03-02T00:00:00Z') })
  })

  it('usage() shows a ban while it lasts, and not after', () => {
    const clock = createManualClock(beforeMidnight - 60_000)
    const limiter = createRateLimiter({ clock, ban: { after: 1, durationMs: 30_000 } })
    const small: Plan = { name: 'enterprise', perMinute: 1, perDay: 100 }
    limiter.consume('caller', small)
    limiter.consume('caller', small)
    expect(limiter.consume('caller', small)).toMatchObject({ outcome: 'banned', retryAfterSeconds: 30 })
    expect(limiter.usage('caller', small).bannedUntil).toBe(beforeMidnight - 60_000 + 30_000)
    clock.advance(30_000)
    expect(limiter.usage('caller', small).bannedUntil).toBeUndefined()
  })

  it('peek() tells the binding window without counting, and what a refusal would say', () => {
    const clock = createManualClock(Date.parse('2031-03-01T12:00:15Z'))
    const limiter = createRateLimiter({ clock, ban: false })
    const minuteEnd = Date.parse('2031-03-01T12:01:00Z') / 1000
    const dayEnd = Date.parse('2031-03-02T00:00:00Z') / 1000
    expect(limiter.peek('caller', plan)).toEqual({ outcome: 'allowed', window: 'minute', limit: 5, remaining: 5, resetAt: minuteEnd })
    expect(limiter.peek('caller', plan)).toEqual(limiter.peek('caller', plan))
    for (let index = 0; index < 5; index++) limiter.consume('caller', plan)
    expect(limiter.peek('caller', plan)).toEqual({
      outcome: 'limited',
      window: 'minute',
      limit: 5,
      remaining: 0,
      resetAt: minuteEnd,
      retryAfterSeconds: 45,
    })
    // The next minute: 3 left of the day is fewer than 5 of the minute, so the day binds.
    clock.advance(45_000)
    expect(limiter.peek('caller', plan)).toEqual({ outcome: 'allowed', window: 'day', limit: 8, remaining: 3, resetAt: dayEnd })
    for (let index = 0; index < 3; index++) limiter.consume('caller', plan)
    expect(limiter.peek('caller', plan)).toEqual({
      outcome: 'limited',
      window: 'day',
      limit: 8,
      remaining: 0,
      resetAt: dayEnd,
      retryAfterSeconds: Math.ceil((Date.parse('2031-03-02T00:00:00Z') - clock.now()) / 1000),
    })
    // A tie between the windows: the minute.
    const tie: Plan = { name: 'enterprise', perMinute: 4, perDay: 4 }
    expect(limiter.peek('other', tie)).toMatchObject({ window: 'minute', remaining: 4 })
    // Part of a minute spent: what is left of it.
    limiter.consume('third', plan)
    expect(limiter.peek('third', plan)).toMatchObject({ window: 'minute', remaining: 4 })
  })

  it('peek() and consume() end a ban at its last millisecond', () => {
    const clock = createManualClock(Date.parse('2031-03-01T12:00:00Z'))
    const limiter = createRateLimiter({ clock, ban: { after: 0, durationMs: 90_000 } })
    const small: Plan = { name: 'enterprise', perMinute: 1, perDay: 100 }
    limiter.consume('caller', small)
    expect(limiter.consume('caller', small).outcome).toBe('banned')
    clock.advance(89_999)
    expect(limiter.peek('caller', small).outcome).toBe('banned')
    expect(limiter.usage('caller', small).bannedUntil).toBe(Date.parse('2031-03-01T12:01:30Z'))
    clock.advance(1)
    expect(limiter.peek('caller', small)).toMatchObject({ outcome: 'allowed', remaining: 1 })
    expect(limiter.usage('caller', small).bannedUntil).toBeUndefined()
    expect(limiter.consume('caller', small).outcome).toBe('allowed')
  })

  it('peek() reports a ban with its end, counting nothing', () => {
    const clock = createManualClock(Date.parse('2031-03-01T12:00:00Z'))
    const limiter = createRateLimiter({ clock, ban: { after: 0, durationMs: 90_000 } })
    const small: Plan = { name: 'enterprise', perMinute: 1, perDay: 100 }
    limiter.consume('caller', small)
    expect(limiter.consume('caller', small).outcome).toBe('banned')
    clock.advance(500)
    expect(limiter.peek('caller', small)).toEqual({
      outcome: 'banned',
      window: 'ban',
      limit: 1,
      remaining: 0,
      resetAt: Date.parse('2031-03-01T12:01:30Z') / 1000,
      retryAfterSeconds: 90,
    })
  })
})
