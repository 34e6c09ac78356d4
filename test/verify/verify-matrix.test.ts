import { beforeEach, expect, it } from 'vitest'
import { standardPlans } from '../../src/core/access/plans.ts'
import { checkCatalogue, checkIds } from '../../src/verify/check-catalogue.ts'
import { verify, type VerifyOptions, type VerifyPlan } from '../../src/verify/verify-runner.ts'
import { scenarioStart, testKeys, type ApiTarget } from '../support/api-target.ts'
import { checkedFetch } from '../support/checked-fetch.ts'
import { describeMatrix } from '../support/matrix.ts'

/**
 * The simulator passes its own provider checks, on every lane: the same
 * checks `petstore-sim verify` runs against the real API, sent through each
 * target's fetch, every response contract-checked. Time is the target's:
 * waiting out a Retry-After moves its clock.
 */
describeMatrix('petstore-sim verify against the simulator', (target: () => ApiTarget) => {
  beforeEach(() => target().reset())

  function options(extra: Partial<VerifyOptions> = {}): VerifyOptions & { sent: string[]; plans: VerifyPlan[] } {
    let now = Date.parse(scenarioStart)
    const sent: string[] = []
    const plans: VerifyPlan[] = []
    return {
      baseUrl: target().apiUrl,
      key: testKeys.free,
      fetch: (input, init) => {
        sent.push(`${init?.method ?? 'GET'} ${new URL(input).pathname}`)
        return checkedFetch(input, init, '/v1', target().fetch)
      },
      clock: { now: () => now },
      sleep: async (milliseconds) => {
        now += milliseconds
        await target().advanceClock(milliseconds)
      },
      onPlan: (plan) => {
        expect(sent, 'the cost is announced before anything is sent').toEqual([])
        plans.push(plan)
      },
      sent,
      plans,
      ...extra,
    }
  }

  it('passes every check, --writes and --limits included, within the requests it announced', async () => {
    const run = options({ writes: true, limits: true, strict: true })
    const report = await verify(run)
    const notPassed = report.checks.filter((check) => check.outcome !== 'pass')
    expect(notPassed).toEqual([])
    expect(report.checks.map((check) => check.id)).toEqual(checkIds)
    expect(report).toMatchObject({ failed: 0, skipped: 0, advisoryFailed: 0, passed: checkIds.length })
    expect(run.plans).toHaveLength(1)
    expect(report.requests).toBe(run.sent.length)
    expect(report.requests).toBeLessThanOrEqual(run.plans[0]!.requests)
    // Reaching the 429 spent the Free minute: at least its 60 requests and the refused one.
    expect(report.requests).toBeGreaterThan(standardPlans.free.perMinute)
  })

  it('without --writes and --limits sends no POST and stays within the Free minute, skipping what they allow with the reason', async () => {
    const run = options()
    const report = await verify(run)
    expect(run.sent.filter((request) => request.startsWith('POST'))).toEqual([])
    expect(report.requests).toBeLessThan(standardPlans.free.perMinute)
    expect(report.failed).toBe(0)
    const skipped = report.checks.filter((check) => check.outcome === 'skip')
    expect(skipped.map((check) => check.id).sort()).toEqual(checkIds.filter((id) => 'needs' in checkCatalogue[id]).sort())
    for (const check of skipped) expect(check.reason).toMatch(/^needs --(writes|limits)/)
    expect(skipped.find((check) => check.id === 'limits.429')?.reason).toContain('62 requests for a free key')
    const journal = await target().journal()
    expect(journal.filter((entry) => entry.method === 'POST')).toEqual([])
  })

  it('fails rateLimit.plan-limit, naming the plan, when the key is not of the plan given', async () => {
    const report = await verify(options({ key: testKeys.pro, plan: 'free' }))
    const check = report.checks.find((result) => result.id === 'rateLimit.plan-limit')!
    expect(check).toMatchObject({ outcome: 'fail', actual: '300' })
    expect(check.expected).toContain('the free plan')
    expect(check.request).toContain('Bearer <key>')
    expect(check.request).not.toContain(testKeys.pro)
    expect(report.failed).toBe(1)
  })
})
