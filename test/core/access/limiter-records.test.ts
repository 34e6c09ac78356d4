import { describe, expect, it } from 'vitest'
import { anonymousCallerPrefix } from '../../../src/core/access/caller-buckets.ts'
import type { Plan } from '../../../src/core/access/plans.ts'
import { createRateLimiter } from '../../../src/core/access/rate-limiter.ts'
import { createManualClock } from '../../../src/core/time/clock.ts'

// A limiter's records (what a state snapshot keeps, docs/state-and-scenarios.md) and their load into another
// limiter: counts, refusal streaks and bans carry over exactly, anonymous callers at most the cap, and a reset or a
// new load forgets what was there.

const start = Date.parse('2031-03-01T08:15:20Z')
const tiny: Plan = { name: 'enterprise', perMinute: 2, perDay: 100 }
const ban = { after: 1, durationMs: 60_000 }
const anon = (address: string) => `${anonymousCallerPrefix}${address}`

describe('rate limiter: records and load', () => {
  it('keeps each caller counts, its refusals in a row and its ban, and a loaded limiter decides the same', () => {
    const clock = createManualClock(start)
    const limiter = createRateLimiter({ clock, ban })
    limiter.consume('key:a', tiny)
    for (let count = 0; count < 4; count++) limiter.consume('key:b', tiny)
    limiter.consume(anon('1.2.3.4'), tiny)
    const records = limiter.records()
    const minute = Math.floor(start / 60_000)
    const day = Math.floor(start / 86_400_000)
    expect(records).toEqual([
      { caller: 'key:a', minute, minuteCount: 1, day, dayCount: 1, refusedInARow: 0 },
      // 2 allowed, 1 refused (the streak a ban counts), then banned: the ban ends a minute after the 4th request.
      { caller: 'key:b', minute, minuteCount: 2, day, dayCount: 2, refusedInARow: 1, bannedUntil: start + 60_000 },
      { caller: anon('1.2.3.4'), minute, minuteCount: 1, day, dayCount: 1, refusedInARow: 0 },
    ])

    const restored = createRateLimiter({ clock, ban })
    restored.load(records)
    expect(restored.records()).toEqual(records)
    expect(restored.size).toBe(3)
    expect(restored.consume('key:b', tiny)).toMatchObject({ outcome: 'banned', retryAfterSeconds: 60 })
    expect(restored.consume('key:a', tiny)).toMatchObject({ outcome: 'allowed', remaining: 0 })
    expect(restored.usage('key:b', tiny)).toMatchObject({ bannedUntil: start + 60_000 })
    expect(restored.anonymousUsage()).toMatchObject({ buckets: 1, banned: 0 })
  })

  it('replaces what the limiter held, and reset forgets everything', () => {
    const clock = createManualClock(start)
    const limiter = createRateLimiter({ clock, ban })
    for (let count = 0; count < 4; count++) limiter.consume('key:old', tiny)
    limiter.load([{ caller: 'key:new', minute: 0, minuteCount: 0, day: 0, dayCount: 0, refusedInARow: 0 }])
    expect(limiter.records().map((record) => record.caller)).toEqual(['key:new'])
    expect(limiter.consume('key:old', tiny).outcome).toBe('allowed')
    limiter.reset()
    expect(limiter.records()).toEqual([])
    expect(limiter.size).toBe(0)
  })

  it('loads at most maxAnonymousBuckets anonymous callers, and every key caller', () => {
    const clock = createManualClock(start)
    const limiter = createRateLimiter({ clock, ban, maxAnonymousBuckets: 2 })
    const day = Math.floor(start / 86_400_000)
    const record = (caller: string) => ({ caller, minute: 0, minuteCount: 0, day, dayCount: 1, refusedInARow: 0 })
    limiter.load([record(anon('1')), record('key:a'), record(anon('2')), record(anon('3')), record('key:b')])
    expect(limiter.records().map((entry) => entry.caller)).toEqual(['key:a', 'key:b', anon('1'), anon('2')])
    expect(limiter.anonymousUsage()).toMatchObject({ buckets: 2 })
  })

  it('keeps a loaded ban of an anonymous caller, counted as banned while it lasts', () => {
    const clock = createManualClock(start)
    const limiter = createRateLimiter({ clock, ban })
    const day = Math.floor(start / 86_400_000)
    limiter.load([{ caller: anon('9'), minute: 0, minuteCount: 0, day, dayCount: 3, refusedInARow: 2, bannedUntil: start + 1_000 }])
    expect(limiter.anonymousUsage()).toMatchObject({ buckets: 1, banned: 1 })
    expect(limiter.consume(anon('9'), tiny)).toMatchObject({ outcome: 'banned', retryAfterSeconds: 1 })
    clock.advance(1_000)
    expect(limiter.anonymousUsage()).toMatchObject({ banned: 0 })
    expect(limiter.consume(anon('9'), tiny).outcome).toBe('allowed')
  })
})
