import { describe, expect, it } from 'vitest'
import { createKeyRing, type ApiKey } from '../../../src/core/access/api-keys.ts'
import { anonymousPlan, parsePlan, standardPlans, type Plan } from '../../../src/core/access/plans.ts'

/** Writes through the `readonly` types, as plain JavaScript (or a cast) can. */
type Writable<T> = { -readonly [K in keyof T]: T[K] }

describe('shared plans cannot be changed by one simulator for the others', () => {
  it.each([
    ['standardPlans.free', () => standardPlans.free],
    ['standardPlans.pro', () => standardPlans.pro],
    ['standardPlans.business', () => standardPlans.business],
    ['anonymousPlan', () => anonymousPlan],
    ['parsePlan("free")', () => parsePlan('free')],
    ['parsePlan("enterprise:5/50")', () => parsePlan('enterprise:5/50')],
  ])('%s refuses writes (ESM is strict mode: a write throws)', (_name, get) => {
    const plan = get() as Writable<Plan>
    const before = { ...plan }
    expect(() => {
      plan.perMinute = 2
    }).toThrow(TypeError)
    expect(() => {
      plan.perDay = 2
    }).toThrow(TypeError)
    expect({ ...get() }).toEqual(before)
  })

  it('standardPlans itself refuses new or replaced plans', () => {
    const plans = standardPlans as unknown as Record<string, Plan>
    expect(() => {
      plans.free = { name: 'free', perMinute: 2, perDay: 2 }
    }).toThrow(TypeError)
    expect(() => {
      plans.gold = { name: 'free', perMinute: 2, perDay: 2 }
    }).toThrow(TypeError)
    expect(standardPlans.free.perMinute).toBe(60)
  })

  it('a key ring hands out frozen keys, plans and key list; a second key ring is unaffected', () => {
    const first = createKeyRing({ a: 'free', b: 'enterprise:9/99' })
    const firstFree = first.keys[0]!.plan as Writable<Plan>
    expect(() => {
      firstFree.perMinute = 2
    }).toThrow(TypeError)
    expect(() => {
      ;(first.keys as ApiKey[]).push({ ...first.keys[0]!, token: 'intruder' })
    }).toThrow(TypeError)
    expect(() => {
      ;(first.keys as ApiKey[])[0] = { ...first.keys[1]! }
    }).toThrow(TypeError)
    expect(first.authenticate('intruder')).toBeUndefined()

    const second = createKeyRing({ c: 'free' })
    expect(second.keys[0]!.plan).toEqual({ name: 'free', perMinute: 60, perDay: 1_000 })
    expect(anonymousPlan).toEqual({ name: 'free', perMinute: 60, perDay: 1_000 })
  })

  it('a key ring keeps its own frozen copy of a plan given as an object', () => {
    const mine: Writable<Plan> = { name: 'enterprise', perMinute: 5, perDay: 50 }
    const keyRing = createKeyRing({ k: mine })
    mine.perMinute = 1_000_000
    const plan = keyRing.authenticate('k')!.plan
    expect(plan).toEqual({ name: 'enterprise', perMinute: 5, perDay: 50 })
    expect(Object.isFrozen(plan)).toBe(true)
  })

  it.each([
    [{ name: 'enterprise', perMinute: 0, perDay: 10 }],
    [{ name: 'enterprise', perMinute: 1.5, perDay: 10 }],
    [{ name: 'enterprise', perMinute: 10, perDay: Number.NaN }],
    [{ name: 'gold', perMinute: 10, perDay: 10 }],
  ])('a key ring refuses the plan object %j', (plan) => {
    expect(() => createKeyRing({ k: plan as Plan })).toThrow(RangeError)
  })
})
