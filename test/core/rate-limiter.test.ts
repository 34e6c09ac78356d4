import { describe, expect, it } from 'vitest'
import { createManualClock } from '../../src/core/clock.ts'
import { standardPlans, type Plan } from '../../src/core/plans.ts'
import { createRateLimiter } from '../../src/core/rate-limiter.ts'

const start = Date.parse('2031-03-01T08:15:20Z')

function useUp(limiter: ReturnType<typeof createRateLimiter>, plan: Plan, count: number) {
  let last
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
