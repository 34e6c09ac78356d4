import { describe, expect, it } from 'vitest'
import { constantTimeEqual, createKeyRing } from '../../../src/core/access/api-keys.ts'
import { formatPlan, parsePlan, toPlan, standardPlans } from '../../../src/core/access/plans.ts'

describe('key ring', () => {
  const keyRing = createKeyRing({ alpha: 'free', 'alpha-2': 'pro', beta: 'enterprise:9/99' })

  it.each([
    ['alpha', 'free'],
    ['alpha-2', 'pro'],
    ['beta', 'enterprise:9/99'],
    ['alph', undefined],
    ['alphax', undefined],
    ['Alpha', undefined],
    ['', undefined],
    ['beta ', undefined],
  ])('authenticates %j as %s', (token, plan) => {
    const key = keyRing.authenticate(token)
    expect(key === undefined ? undefined : formatPlan(key.plan)).toBe(plan)
  })

  it('fingerprints keys without revealing them', () => {
    for (const key of keyRing.keys) {
      expect(key.fingerprint).toMatch(/^key#[0-9a-f]{8}$/)
      expect(key.fingerprint).not.toContain(key.token)
    }
    expect(new Set(keyRing.keys.map((key) => key.fingerprint)).size).toBe(3)
  })

  it.each(['', 'two words', 'tab\tkey'])('refuses the token %j', (token) => {
    expect(() => createKeyRing({ [token]: 'free' })).toThrow(/non-empty and contain no white space/)
  })

  it.each([
    ['a', 'a', true],
    ['abc', 'abd', false],
    ['abc', 'ab', false],
    ['ab', 'abc', false],
    ['', '', true],
    ['', 'a', false],
  ])('constantTimeEqual(%j, %j) is %s', (a, b, equal) => {
    expect(constantTimeEqual(a, b)).toBe(equal)
  })
})

describe('plans', () => {
  it.each([
    ['free', standardPlans.free],
    ['pro', standardPlans.pro],
    ['business', standardPlans.business],
    ['enterprise:5000/2000000', { name: 'enterprise', perMinute: 5000, perDay: 2_000_000 }],
  ])('parses %s', (text, plan) => {
    expect(parsePlan(text)).toEqual(plan)
    expect(formatPlan(parsePlan(text))).toBe(text)
  })

  it.each(['gold', 'enterprise', 'enterprise:0/10', 'enterprise:10', 'enterprise:-1/5', 'Free', 'enterprise:1.5/3'])(
    'refuses %j naming the accepted forms',
    (text) => {
      expect(() => parsePlan(text)).toThrow(
        new RangeError(`Unknown plan "${text}": use free, pro, business or enterprise:<perMinute>/<perDay> (positive whole numbers)`),
      )
    },
  )

  it.each([
    ['enterprise:1/1', { name: 'enterprise', perMinute: 1, perDay: 1 }],
    [' pro ', standardPlans.pro],
    ['\tenterprise:2/3\n', { name: 'enterprise', perMinute: 2, perDay: 3 }],
  ])('parses %j: limits of 1, white space around', (text, plan) => {
    expect(parsePlan(text)).toEqual(plan)
  })

  it.each(['enterprise:10/0', 'enterprise:0/0', 'enterprise:99999999999999999/1'])('refuses %j', (text) => {
    expect(() => parsePlan(text)).toThrow(RangeError)
  })

  it('takes plan objects with limits of 1, and names what is wrong with the others', () => {
    expect(toPlan({ name: 'enterprise', perMinute: 1, perDay: 1 })).toEqual({ name: 'enterprise', perMinute: 1, perDay: 1 })
    expect(() => toPlan({ name: 'gold' as never, perMinute: 1, perDay: 1 })).toThrow(
      new RangeError('Unknown plan name "gold": use free, pro, business or enterprise'),
    )
    expect(() => toPlan({ name: 'enterprise', perMinute: 5, perDay: 0 })).toThrow(
      new RangeError("A plan's perMinute and perDay must be positive whole numbers (got 5/0)"),
    )
    expect(() => toPlan({ name: 'enterprise', perMinute: 0, perDay: 5 })).toThrow(RangeError)
  })
})
