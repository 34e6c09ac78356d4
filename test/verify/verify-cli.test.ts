import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { checkIds } from '../../src/verify/check-catalogue.ts'
import { runCli, startCli } from '../support/cli-process.ts'
import { startDriftProxy, type DriftName } from '../support/drift-proxy.ts'

/**
 * `petstore-sim verify` as a CI job runs it: the real CLI against the real
 * CLI simulator, directly and through a proxy that makes it drift from the
 * spec. Each drift must exit 1 and name the check it breaks.
 */
let simulator: Awaited<ReturnType<typeof startCli>>
let proxy: Awaited<ReturnType<typeof startDriftProxy>>
const key = 'verify-pro-key'

beforeAll(async () => {
  simulator = await startCli(['--port', '0', '--log', 'silent', '--key', `${key}=pro`])
  proxy = await startDriftProxy(simulator.origin, key)
})
afterAll(async () => {
  await proxy?.close()
  await simulator?.stop()
})
// A fresh minute for each run: every run spends about 30 requests of the Pro key's 300.
beforeEach(async () => {
  const response = await fetch(`${simulator.origin}/__sim/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } })
  expect(response.status).toBe(200)
})

async function verifyCli(args: string[], env: Record<string, string> = {}) {
  const cli = runCli(['verify', ...args], env)
  const code = await cli.exited
  return { code, stdout: cli.stdout(), stderr: cli.stderr() }
}

describe('petstore-sim verify <base-url>', () => {
  it('exits 0 against the simulator, announcing its requests first and grouping the checks by spec section', async () => {
    const run = await verifyCli([simulator.apiUrl, '--key', key, '--plan', 'pro', '--writes'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const lines = run.stdout.split('\n')
    expect(lines[0]).toMatch(new RegExp(`^petstore-sim verify: at most \\d+ requests to ${simulator.apiUrl} within 10m$`))
    expect(lines).toContain('Authentication')
    expect(lines).toContain('Limits: Rate limit headers')
    expect(run.stdout).toContain('  ✓ auth.missing-key')
    expect(run.stdout).toContain('0 failed')
    expect(run.stdout).toContain('OK: the target behaves as the spec says')
    expect(run.stdout).not.toContain(key)
    const [, sent, announced] = /(\d+) requests sent \(at most (\d+) announced\)/.exec(run.stdout)!
    expect(Number(sent)).toBeLessThanOrEqual(Number(announced))
  })

  it.each<[DriftName, string]>([
    ['no-reset-header', 'rateLimit.headers'],
    ['403-for-401', 'auth.missing-key'],
    ['error-without-status', 'errors.body-401'],
    ['pets-as-text', 'listPets.items'],
    ['get-pet-without-auth', 'auth.every-operation'],
    ['limit-ignored', 'limit.honoured'],
    ['sunset-moved', 'getPet.deprecation'],
    ['status-filter-ignored', 'listPets.status-filter'],
    // Issue 29: the drifts that escaped, each caught by the check made for it.
    ['status-filter-drops', 'listPets.status-complete'],
    ['limit-ignored-with-status', 'limit.with-status'],
    ['error-media-type', 'errors.media-type'],
  ])('exits 1 against a copy with the drift %s, naming %s', async (drift, check) => {
    proxy.use(drift)
    try {
      const run = await verifyCli([proxy.apiUrl, '--key', key, '--plan', 'pro'])
      expect(run.code, run.stdout).toBe(1)
      expect(run.stdout).toContain(`  ✗ ${check}`)
      expect(/^FAILED: (.*)$/m.exec(run.stdout)?.[1]?.split(', ')).toContain(check)
    } finally {
      proxy.use('none')
    }
  })

  // The spec names no deprecation header (issue 29): a missing one, or an older draft's form, is advisory.
  it.each<DriftName>(['deprecation-as-true', 'no-deprecation'])(
    'reports the advisory failure of %s without failing the run, and fails on it with --strict',
    async (drift) => {
      proxy.use(drift)
      try {
        const lenient = await verifyCli([proxy.apiUrl, '--key', key, '--plan', 'pro'])
        expect(lenient.code, lenient.stdout).toBe(0)
        expect(lenient.stdout).toContain('  ! getPet.deprecation-format')
        expect(lenient.stdout).toContain('advisory (the spec is silent: ')
        expect(lenient.stdout).toContain('1 advisory failed (pass --strict to fail on them)')
        const strict = await verifyCli([proxy.apiUrl, '--key', key, '--plan', 'pro', '--strict'])
        expect(strict.code).toBe(1)
        expect(/^FAILED: (.*)$/m.exec(strict.stdout)?.[1]).toBe('getPet.deprecation-format')
      } finally {
        proxy.use('none')
      }
    },
  )

  it('passes through the proxy when it does not drift (the drifts above are what fails)', async () => {
    const run = await verifyCli([proxy.apiUrl, '--key', key, '--plan', 'pro'])
    expect(run.code, run.stdout).toBe(0)
  })

  it.each([
    [[], 'missing <base-url>'],
    [['ftp://127.0.0.1/v1', '--key', key], 'ftp://127.0.0.1/v1 is not an http(s) URL'],
    [['127.0.0.1:4010/v1', '--key', key], '127.0.0.1:4010/v1 is not an http(s) URL'],
    [['http://127.0.0.1:9/v1', '--key', key, '--bogus'], "unknown option '--bogus'"],
    [['http://127.0.0.1:9/v1', '--key', key, '--reporter', 'tap'], "argument 'tap' is invalid"],
    [['http://127.0.0.1:9/v1', '--key', key, '--plan', 'gold'], 'Unknown plan "gold"'],
    [['http://127.0.0.1:9/v1'], 'missing --key'],
  ])('exits 2 with a one-line message for %j, sending nothing', async (args, message) => {
    const run = await verifyCli(args)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr.split('\n')).toHaveLength(2)
    expect(run.stderr).toMatch(/^petstore-sim verify: /)
    expect(run.stderr).toContain(message)
  })

  it('takes the key from PETSTORE_SIM_VERIFY_KEY, so a CI secret stays out of the command line', async () => {
    const run = await verifyCli([simulator.apiUrl, '--plan', 'pro'], { PETSTORE_SIM_VERIFY_KEY: key })
    expect(run.code, run.stdout).toBe(0)
    expect(run.stdout).toContain('  ✓ auth.valid-key')
  })

  it('has its own --help, and the main --help names it', async () => {
    const help = await verifyCli(['--help'])
    expect(help.code).toBe(0)
    for (const flag of [
      '--key <token>',
      '--plan <plan>',
      '--writes',
      '--limits',
      '--strict',
      '--reporter <format>',
      '--out <file>',
      '--timeout <duration>',
    ]) {
      expect(help.stdout).toContain(flag)
    }
    expect(help.stdout).toContain('PETSTORE_SIM_VERIFY_KEY')
    const main = runCli(['--help'])
    expect(await main.exited).toBe(0)
    expect(main.stdout()).toContain('petstore-sim verify <base-url> --key <token>')
  })

  it('--reporter json prints { target, checks, passed, failed, skipped, requests } alone on stdout', async () => {
    const run = await verifyCli([simulator.apiUrl, '--key', key, '--plan', 'pro', '--reporter', 'json'])
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/^petstore-sim verify: at most \d+ requests/)
    const report = JSON.parse(run.stdout) as Record<string, unknown>
    expect(report).toMatchObject({ target: simulator.apiUrl, failed: 0 })
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['target', 'checks', 'passed', 'failed', 'skipped', 'requests']))
    const checks = report.checks as { id: string; outcome: string; section: string; title: string }[]
    expect(checks.map((check) => check.id)).toEqual(checkIds)
    expect(checks.find((check) => check.id === 'createPet.created')).toMatchObject({
      outcome: 'skip',
      reason: expect.stringContaining('--writes'),
    })
  })

  it('--reporter junit --out writes JUnit XML a CI dashboard loads, a suite per spec section, the failure in it', async () => {
    proxy.use('sunset-moved')
    const out = join(mkdtempSync(join(tmpdir(), 'petstore-sim-verify-')), 'verify.xml')
    try {
      const run = await verifyCli([proxy.apiUrl, '--key', key, '--plan', 'pro', '--reporter', 'junit', '--out', out])
      expect(run.code).toBe(1)
      expect(run.stdout).toContain('  ✗ getPet.deprecation')
    } finally {
      proxy.use('none')
    }
    const text = readFileSync(out, 'utf8')
    expect(XMLValidator.validate(text)).toBe(true)
    const document = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase'].includes(name),
    }).parse(text)
    const suites = document.testsuites.testsuite as { name: string; tests: string; failures: string; testcase: Record<string, unknown>[] }[]
    expect(suites.map((suite) => suite.name)).toContain('Versioning')
    const cases = suites.flatMap((suite) => suite.testcase)
    expect(cases).toHaveLength(checkIds.length)
    expect(Number(document.testsuites.tests)).toBe(checkIds.length)
    const failed = cases.filter((testcase) => 'failure' in testcase)
    expect(failed.map((testcase) => testcase.name)).toEqual([expect.stringMatching(/^getPet\.deprecation: /)])
    expect(JSON.stringify(failed[0])).toContain('Sunset: Fri, 05 Dec 2031 00:00:00 GMT')
    expect(cases.filter((testcase) => 'skipped' in testcase).length).toBeGreaterThan(0)
  })
})

// Issue 29: a listing that is always empty passed the default run, every check needing pets skipped.
describe('petstore-sim verify on a copy whose listing is always empty', () => {
  it('without --writes, exits 0 but reports an advisory finding naming the checks the empty listing hid', async () => {
    proxy.use('always-empty')
    try {
      const run = await verifyCli([proxy.apiUrl, '--key', key, '--plan', 'pro'])
      expect(run.code, run.stdout).toBe(0)
      expect(run.stdout).toContain('  ! listPets.not-empty')
      expect(run.stdout).toMatch(/listed none: that hid listPets\.items, listPets\.status-filter/)
      expect(run.stdout).toContain('1 advisory failed')
    } finally {
      proxy.use('none')
    }
  })

  it('with --writes, exits 1 naming createPet.listed, after saying it gives the listing time to catch up', async () => {
    proxy.use('always-empty')
    try {
      const run = await verifyCli([proxy.apiUrl, '--key', key, '--plan', 'pro', '--writes'])
      expect(run.code, run.stdout).toBe(1)
      expect(/^FAILED: (.*)$/m.exec(run.stdout)?.[1]?.split(', ')).toContain('createPet.listed')
      expect(run.stdout).toMatch(
        /^petstore-sim verify: waiting 1 s for the created pet \d+ to show in GET \/pets \(a replica may lag; retry 3 of 3\)$/m,
      )
    } finally {
      proxy.use('none')
    }
  })
})
