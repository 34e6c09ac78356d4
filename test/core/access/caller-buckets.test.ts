import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { anonymousCallerPrefix, callerBucketBytes, callersMaxBytes, createCallerBuckets } from '../../../src/core/access/caller-buckets.ts'

// What the limiter keeps per caller is bounded (docs/journal.md, "Memory budgets"): at most `maxAnonymousBuckets`
// anonymous callers, the least recently used dropped first (as nginx's limit_req zone), and a ban only for a caller
// that still has a bucket.

const isAnonymous = (caller: string) => caller.startsWith(anonymousCallerPrefix)
const minuteMs = 60_000
const at = (now: number) => [now, Math.floor(now / minuteMs), Math.floor(now / 86_400_000)] as const
// A request counted, as the limiter counts one: a bucket that counted nothing today is swept.
const count = (buckets: ReturnType<typeof createCallerBuckets>, caller: string, now: number) => {
  buckets.take(caller, ...at(now)).dayCount++
}

describe("the limiter's callers", () => {
  it('count one bucket per anonymous caller of the cap and per key in the budget', () => {
    expect(callersMaxBytes(100, 3)).toBe(103 * callerBucketBytes)
    expect(callersMaxBytes(0, 0)).toBe(0)
  })

  it('drop the least recently used anonymous caller when full, not the oldest', () => {
    const buckets = createCallerBuckets(2, isAnonymous)
    count(buckets, 'anonymous:a', 0)
    count(buckets, 'anonymous:b', 1)
    count(buckets, 'anonymous:a', 2)
    count(buckets, 'anonymous:c', 3)
    expect(buckets.find('anonymous:a')).toBeDefined()
    expect(buckets.find('anonymous:b')).toBeUndefined()
    expect(buckets.anonymousSize).toBe(2)
  })

  it('keep every key caller, whatever the cap on anonymous ones', () => {
    const buckets = createCallerBuckets(1, isAnonymous)
    for (let index = 0; index < 5; index++) count(buckets, `key#${index}`, index)
    count(buckets, 'anonymous:a', 10)
    expect(buckets.size).toBe(6)
    expect(buckets.anonymousSize).toBe(1)
  })

  it('hold bans only for callers with a bucket, and no more buckets than the cap and the keys, on any traffic', () => {
    const step = fc.record({
      caller: fc.oneof(
        fc.integer({ min: 0, max: 30 }).map((n) => `anonymous:10.0.0.${n}`),
        fc.integer({ min: 0, max: 3 }).map((n) => `key#${n}`),
      ),
      advanceMs: fc.constantFrom(0, 1, 1000, minuteMs, 86_400_000),
      ban: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(step, { maxLength: 200 }), (cap, steps) => {
        const buckets = createCallerBuckets(cap, isAnonymous)
        let now = 1_900_000_000_000
        for (const { caller, advanceMs, ban } of steps) {
          now += advanceMs
          const bucket = buckets.take(caller, ...at(now))
          bucket.dayCount++
          if (ban) buckets.bannedUntil.set(caller, now + 5 * minuteMs)
          expect(buckets.anonymousSize).toBeLessThanOrEqual(cap)
          expect(buckets.size).toBeLessThanOrEqual(cap + 4)
          for (const banned of buckets.bannedUntil.keys()) expect(buckets.find(banned), banned).toBeDefined()
        }
        const records = buckets.records()
        expect(records).toHaveLength(buckets.size)
        for (const record of records) expect('bannedUntil' in record).toBe(buckets.bannedUntil.has(record.caller))
      }),
    )
  })
})
