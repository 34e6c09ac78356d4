import { XMLParser } from 'fast-xml-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createManualClock } from '../../src/core/time/clock.ts'
import { renderReport } from '../../src/verify/reporters.ts'
import type { VerifyReport } from '../../src/verify/verify-report.ts'
import { verify, type VerifyOptions } from '../../src/verify/verify-runner.ts'
import { runCli, startCli } from '../support/cli-process.ts'
import { createReferenceProvider } from '../support/reference-provider.ts'

// Issue 37, item 3: a base URL without /v1 gave 14 failed checks and a wrong key 11, none with the one-line cause the
// first answer already held. Now the cause is the report's first line, one check fails on it, and the checks it kept
// from running are "not run", in every reporter. Against the spec-only reference provider, and the real CLI simulator.

const key = 'reference-pro-key'

function againstReference(extra: Partial<VerifyOptions>) {
  const clock = createManualClock('2026-11-24T10:00:05.000Z')
  const provider = createReferenceProvider({}, { [key]: { perMinute: 300, perDay: 10_000 } }, () => clock.now())
  return verify({
    baseUrl: 'http://reference.test/v1',
    key,
    plan: 'pro',
    writes: true,
    limits: true,
    clock,
    sleep: async (milliseconds) => clock.advance(milliseconds),
    fetch: (input, init) => provider.fetch(new Request(input, init)),
    ...extra,
  })
}

const failedIds = (report: VerifyReport) => report.checks.filter((check) => check.outcome === 'fail').map((check) => check.id)
const notRun = (report: VerifyReport) => report.checks.filter((check) => check.reason?.startsWith('not run: '))

describe('verify names one cause first, against the reference provider', () => {
  it('a base URL without /v1: a 404 for the list route, and nothing more is sent', async () => {
    const report = await againstReference({ baseUrl: 'http://reference.test' })
    // This provider checks the key before the path: the three requests without a valid key are 401s wherever they go.
    expect(report.causes).toEqual([
      {
        kind: 'wrong-base-url',
        message:
          'GET http://reference.test/pets?limit=1 answered 404 not_found "No such resource"; the spec\'s base URL ends with the version segment: try http://reference.test/v1',
      },
    ])
    expect(report.requests).toBe(4)
    expect(failedIds(report)).toEqual(['auth.valid-key'])
    expect(report.failed).toBe(1)
    expect(notRun(report)).toHaveLength(report.checks.length - 5)
    const pretty = renderReport(report, 'pretty').split('\n')
    expect(pretty[0]).toBe(`WRONG BASE URL: ${report.causes![0]!.message}`)
    expect(pretty.at(-4)).toBe(`${report.checks.length} checks: 4 passed, 1 failed, 0 skipped, ${report.checks.length - 5} not run`)
  })

  it('a base URL that ends with /v1 but is not where the API is: no /v1 suggested again', async () => {
    const report = await againstReference({ baseUrl: 'http://reference.test/api/v1' })
    expect(report.causes).toEqual([
      {
        kind: 'wrong-base-url',
        message:
          'GET http://reference.test/api/v1/pets?limit=1 answered 404 not_found "No such resource"; its paths are not under this base URL: give the one the API\'s paths are under (the spec\'s ends with /v1)',
      },
    ])
    expect(report.failed).toBe(1)
  })

  it('a key the target refuses: the auth checks decided before it stand, the rest are not run', async () => {
    const report = await againstReference({ key: 'not-a-key-of-this-target' })
    expect(report.causes?.map((cause) => cause.kind)).toEqual(['key-refused'])
    expect(report.causes![0]!.message).toMatch(
      /^GET http:\/\/reference\.test\/v1\/pets\?limit=1 with the key given answered 401 unauthorized "A valid API key is required"; the target does not accept that key/,
    )
    expect(report.causes![0]!.message).not.toContain('not-a-key-of-this-target')
    expect(failedIds(report)).toEqual(['auth.valid-key'])
    expect(report.checks.find((check) => check.id === 'auth.missing-key')?.outcome).toBe('pass')
    expect(report.checks.find((check) => check.id === 'createPet.created')?.reason).toBe(`not run: ${report.causes![0]!.message}`)
    expect(report.requests).toBe(4)
    expect(renderReport(report, 'pretty').split('\n')[0]).toBe(`KEY REFUSED: ${report.causes![0]!.message}`)
  })

  it('a key of another plan: the limit it sends named, --limits not spent on the wrong plan', async () => {
    const report = await againstReference({ plan: 'free' })
    expect(report.causes).toEqual([
      {
        kind: 'plan-mismatch',
        message:
          "the target sends X-RateLimit-Limit 300 for the key, not the free plan's 60/min or 1000/day (--plan free); set --plan: 300 is the pro plan's, --plan pro",
      },
    ])
    expect(failedIds(report)).toEqual(['rateLimit.plan-limit'])
    expect(notRun(report).map((check) => check.id)).toEqual(['limits.429', 'limits.retry-after', 'limits.error-body', 'limits.recovers'])
    // The other checks ran: the writes and reads pass.
    expect(report.passed).toBeGreaterThan(25)
    expect(report.requests).toBeLessThan(60)
    expect(renderReport(report, 'pretty').split('\n')[0]).toBe(`WRONG PLAN: ${report.causes![0]!.message}`)
  })

  it('names no cause when there is none', async () => {
    const report = await againstReference({})
    expect(report.causes).toBeUndefined()
    expect(report.failed).toBe(0)
    expect(renderReport(report, 'pretty').split('\n')[0]).toBe('petstore-sim verify http://reference.test/v1')
  })

  it('every reporter shows the cause: JSON holds it first, JUnit as the failure and the skips', async () => {
    const report = await againstReference({ baseUrl: 'http://reference.test' })
    const json = renderReport(report, 'json')
    expect(json.split('\n')[1]).toBe('  "causes": [')
    expect(JSON.parse(json).causes).toEqual(report.causes)
    const junit = new XMLParser({ ignoreAttributes: false }).parse(renderReport(report, 'junit'))
    const cases = [junit.testsuites.testsuite].flat().flatMap((suite: { testcase: unknown }) => [suite.testcase].flat()) as {
      failure?: { '@_message': string }
      skipped?: { '@_message': string }
    }[]
    const line = `WRONG BASE URL: ${report.causes![0]!.message}`
    expect(cases.filter((test) => test.failure !== undefined).map((test) => test.failure!['@_message'])).toEqual([line])
    expect(
      cases
        .filter((test) => test.skipped !== undefined)
        .every((test) => test.skipped!['@_message'].includes('try http://reference.test/v1')),
    ).toBe(true)
  })
})

describe('petstore-sim verify against the simulator', () => {
  let simulator: Awaited<ReturnType<typeof startCli>>
  beforeAll(async () => {
    simulator = await startCli(['--port', '0', '--log', 'silent', '--key', 'diagnosis-pro-key=pro'])
  })
  afterAll(async () => {
    await simulator?.stop()
  })

  async function verifyCli(args: string[]) {
    const cli = runCli(['verify', ...args])
    const code = await cli.exited
    // What a CI log shows from its top: the cause first, alone on its line; then the announcement of the requests
    // (held until the authentication checks have shown whether there is a cause); then the report, without the cause again.
    expect(cli.stderr()).toBe('')
    const [first, announcement, ...report] = cli.stdout().split('\n')
    expect(announcement).toMatch(/^petstore-sim verify: at most \d+ requests to /)
    expect(report.join('\n')).not.toContain(first)
    return { code, first: first!, report: report.join('\n') }
  }

  it('a base URL without /v1: the cause in the first line, exit 1, one failed check', async () => {
    const run = await verifyCli([simulator.origin, '--key', 'diagnosis-pro-key', '--plan', 'pro'])
    expect(run.code).toBe(1)
    expect(run.first).toBe(
      `WRONG BASE URL: GET ${simulator.origin}/pets answered 404 route_not_found "No route GET /pets: the API is under /v1"; the spec's base URL ends with the version segment: try ${simulator.origin}/v1`,
    )
    expect(run.report).toMatch(/\d+ checks: 0 passed, 1 failed, 0 skipped, \d+ not run/)
    expect(run.report).toContain('FAILED: auth.missing-key')
  })

  it('a wrong key: the cause in the first line, exit 1, one failed check', async () => {
    const run = await verifyCli([simulator.apiUrl, '--key', 'no-such-key', '--plan', 'pro'])
    expect(run.code).toBe(1)
    expect(run.first).toMatch(/^KEY REFUSED: GET \S+\/v1\/pets\?limit=1 with the key given answered 401 invalid_api_key /)
    expect(run.report).toMatch(/\d+ checks: 4 passed, 1 failed, 0 skipped, \d+ not run/)
    expect(run.report).not.toContain('no-such-key')
  })

  it('a wrong plan: the cause in the first line, exit 1, one failed check', async () => {
    const run = await verifyCli([simulator.apiUrl, '--key', 'diagnosis-pro-key', '--plan', 'business'])
    expect(run.code).toBe(1)
    expect(run.first).toBe(
      "WRONG PLAN: the target sends X-RateLimit-Limit 300 for the key, not the business plan's 1000/min or 100000/day (--plan business); set --plan: 300 is the pro plan's, --plan pro",
    )
    expect(run.report).toContain('FAILED: rateLimit.plan-limit\n')
  })

  it('with a JSON report on stdout, says the cause on stderr in one line, its first', async () => {
    const cli = runCli(['verify', simulator.origin, '--key', 'diagnosis-pro-key', '--plan', 'pro', '--reporter', 'json'])
    expect(await cli.exited).toBe(1)
    const report = JSON.parse(cli.stdout()) as VerifyReport
    expect(report.causes?.map((cause) => cause.kind)).toEqual(['wrong-base-url'])
    const [first, announcement, ...rest] = cli.stderr().split('\n')
    expect(first).toBe(`petstore-sim verify: WRONG BASE URL: ${report.causes![0]!.message}`)
    expect(announcement).toMatch(/^petstore-sim verify: at most \d+ requests to /)
    expect(rest).toEqual([''])
  })
})
