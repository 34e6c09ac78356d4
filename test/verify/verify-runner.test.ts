import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { createManualClock } from '../../src/core/time/clock.ts'
import { planVerification, verify, type VerifyOptions } from '../../src/verify/verify-runner.ts'

/**
 * The runner's promises to the target, on the web-standard app with a
 * manual clock: no more requests than announced, nothing sent before a
 * Retry-After has passed, and a target that does not answer reported, not
 * thrown.
 */
const start = '2030-06-15T10:00:30.000Z'

function appTarget(keys: Record<string, string> = { 'runner-key': 'free' }, pets = 40) {
  const clock = createManualClock(start)
  const app = createApp({ seed: 11, pets, keys, clock })
  const log: string[] = []
  const options = (extra: Partial<VerifyOptions> = {}): VerifyOptions => ({
    baseUrl: 'http://api.test/v1',
    key: Object.keys(keys)[0]!,
    clock,
    sleep: async (milliseconds) => {
      log.push(`sleep ${milliseconds}`)
      clock.advance(milliseconds)
    },
    fetch: async (input, init) => {
      log.push(`${init?.method ?? 'GET'} ${input}`)
      return app.fetch(new Request(input, init), { clientAddress: '127.0.0.1' })
    },
    ...extra,
  })
  return { clock, app, log, options, sends: () => log.filter((line) => !line.startsWith('sleep')) }
}

/** A 429 as a rate limiter sends it, with its headers and the Error body. */
function tooMany(retryAfter: string, nowMs: number): Response {
  return Response.json(
    { code: 'rate_limit_exceeded', message: 'Rate limit exceeded', status: 429 },
    {
      status: 429,
      headers: {
        'retry-after': retryAfter,
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil(nowMs / 1000) + 30),
      },
    },
  )
}

describe('verify(): requests and waits', () => {
  it('waits out a Retry-After it did not ask for, then sends the request again, and passes', async () => {
    const target = appTarget()
    const base = target.options()
    let calls = 0
    const report = await verify({
      ...base,
      fetch: async (input, init) => {
        calls++
        if (calls === 5) {
          target.log.push(`GET ${input} -> 429`)
          return tooMany('7', target.clock.now())
        }
        return base.fetch!(input, init)
      },
    })
    expect(report.failed).toBe(0)
    const refused = target.log.findIndex((line) => line.endsWith('-> 429'))
    expect(target.log[refused + 1]).toBe('sleep 7000')
    // The same request again, after the wait.
    expect(target.log[refused + 2]).toBe(target.log[refused]!.replace(' -> 429', ''))
    expect(report.requests).toBe(calls)
    expect(report.requests).toBeLessThanOrEqual(planVerification({}).requests)
  })

  it('sends nothing more when a Retry-After is longer than it may wait, and skips the rest with the reason', async () => {
    const target = appTarget()
    const base = target.options({ maxWaitMs: 60_000 })
    let calls = 0
    const report = await verify({
      ...base,
      // The 4th request is the auth probe's last, with the key.
      fetch: async (input, init) => {
        calls++
        return calls === 4 ? tooMany('3600', target.clock.now()) : base.fetch!(input, init)
      },
    })
    expect(calls).toBe(4)
    expect(report.requests).toBe(4)
    expect(target.log.filter((line) => line.startsWith('sleep'))).toEqual([])
    expect(report.checks.find((check) => check.id === 'auth.valid-key')).toMatchObject({ outcome: 'fail', actual: 'status 429' })
    const listed = report.checks.find((check) => check.id === 'limit.default')!
    expect(listed).toMatchObject({ outcome: 'skip' })
    expect(listed.reason).toContain('asked to wait 3600 s (Retry-After), longer than the run waits (60 s)')
  })

  it('never sends more than it announced, even to a target that never refuses', async () => {
    const target = appTarget({ 'unlimited-key': 'enterprise:100000/1000000' })
    let announced = 0
    const base = target.options({ plan: 'free', limits: true, onPlan: (plan) => (announced = plan.requests) })
    // It says it is a free key (X-RateLimit-Limit 60), so verify spends that minute (a key of another plan would be named
    // as the cause and the --limits checks not run), but never refuses.
    const report = await verify({
      ...base,
      fetch: async (input, init) => {
        const answer = await base.fetch!(input, init)
        const headers = new Headers(answer.headers)
        headers.set('x-ratelimit-limit', '60')
        return new Response(answer.body, { status: answer.status, headers })
      },
    })
    expect(announced).toBe(planVerification({ plan: 'free', limits: true }).requests)
    expect(target.sends().length).toBe(report.requests)
    expect(report.requests).toBeLessThanOrEqual(announced)
    const limit = report.checks.find((check) => check.id === 'limits.429')!
    expect(limit).toMatchObject({ outcome: 'fail', actual: 'every request answered 200' })
    expect(limit.expected).toContain('a 429 within 61 requests')
    expect(report.checks.find((check) => check.id === 'limits.recovers')).toMatchObject({ outcome: 'skip' })
  })

  it('reports a target that does not answer as failed checks, each request bounded by the timeout', async () => {
    const target = appTarget()
    const report = await verify(
      target.options({
        timeoutMs: 50,
        fetch: (_input, init) =>
          new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))),
      }),
    )
    const missing = report.checks.find((check) => check.id === 'auth.missing-key')!
    expect(missing).toMatchObject({ outcome: 'fail' })
    expect(missing.reason).toContain('no answer within 50 ms')
    expect(report.failed).toBeGreaterThan(0)
    expect(report.passed).toBe(0)
  })

  it('fails the checks that needed a malformed answer (a listed pet with a string id) instead of throwing', async () => {
    const target = appTarget()
    const base = target.options()
    const report = await verify({
      ...base,
      fetch: async (input, init) => {
        const response = await base.fetch!(input, init)
        if (!input.endsWith('/pets?limit=1') || response.status !== 200) return response
        return Response.json([{ id: 'seven', name: 'Rex', categoryId: 1 }], { headers: response.headers })
      },
    })
    const found = report.checks.find((check) => check.id === 'getPet.found')!
    expect(found).toMatchObject({ outcome: 'fail', expected: 'the listed pet: an integer id', actual: 'id "seven"' })
    expect(report.checks.find((check) => check.id === 'getPet.deprecation')).toMatchObject({ outcome: 'fail' })
    expect(report.checks.find((check) => check.id === 'getPet.not-found')).toMatchObject({ outcome: 'pass' })
  })

  it('skips the limit checks a small catalogue cannot show (a static mock answers one pet to everything) rather than pass them', async () => {
    const report = await verify(appTarget({ 'runner-key': 'free' }, 2).options())
    for (const id of ['limit.default', 'limit.honoured']) {
      const check = report.checks.find((result) => result.id === id)!
      expect(check.outcome, id).toBe('skip')
      expect(check.reason).toContain('the target lists only 2 pets')
    }
    expect(report.failed).toBe(0)
  })

  it('names the plan whose limit the target sent when --plan is another (a pro key checked as free)', async () => {
    const target = appTarget({ 'runner-key': 'pro' })
    const report = await verify(target.options())
    expect(report.checks.find((check) => check.id === 'rateLimit.plan-limit')).toMatchObject({
      outcome: 'fail',
      expected: "X-RateLimit-Limit 60 or 1000 (the free plan; set --plan: 300 is the pro plan's, --plan pro)",
      actual: '300',
    })
    expect(
      (await verify(appTarget({ 'runner-key': 'pro' }).options({ plan: 'pro' }))).checks.find(
        (check) => check.id === 'rateLimit.plan-limit',
      ),
    ).toMatchObject({ outcome: 'pass' })
  })

  it('refuses a base URL that is not http(s) before sending anything', async () => {
    const target = appTarget()
    await expect(verify(target.options({ baseUrl: 'ftp://api.test/v1' }))).rejects.toThrow('Not an http(s) URL: ftp://api.test/v1')
    expect(target.log).toEqual([])
  })
})
