import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startCli } from '../support/cli-process.ts'

// `--client-report <file>` and `--fail-on-client-violations`: the client report written at shutdown (JSON, or JUnit
// for .xml), the same report GET /__sim/clients answered, and exit code 1 when a caller broke a rule.

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-client-report-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const limited = { authorization: 'Bearer k-limited' }
const keys = ['--key', 'k-limited=enterprise:3/1000', '--key', 'k-pro=pro']

describe('--client-report <file>', () => {
  it('writes at shutdown the report GET /__sim/clients answers, and says so in one line', async () => {
    const file = join(directory, 'clients.json')
    const cli = await startCli(['--port', '0', '--log', 'silent', ...keys, '--client-report', file])
    for (let index = 0; index < 5; index++) await fetch(`${cli.apiUrl}/pets?limit=1`, { headers: limited })
    const served = await (await fetch(`${cli.origin}/__sim/clients`)).json()
    expect(await cli.stop()).toBe(0)
    const written = JSON.parse(readFileSync(file, 'utf8'))
    expect(written).toEqual(served)
    expect(written.verdict).toBe('fail')
    expect(written.callers[0].findings.map((finding: { rule: string }) => finding.rule)).toEqual(['retry-after-ignored'])
    expect(cli.stdout()).toContain(`client report: fail, 1 caller, 1 violation, written: ${file}\n`)
    expect(readFileSync(file, 'utf8')).not.toContain('k-limited')
  })

  it('writes JUnit XML for a name ending in .xml', async () => {
    const file = join(directory, 'clients.xml')
    const cli = await startCli(['--port', '0', '--log', 'silent', ...keys, '--client-report', file])
    expect((await fetch(`${cli.apiUrl}/pets?limit=500`, { headers: { authorization: 'Bearer k-pro' } })).status).toBe(400)
    expect(await cli.stop()).toBe(0)
    const xml = readFileSync(file, 'utf8')
    expect(xml).toMatch(/<testsuites name="petstore-sim client report" tests="1" failures="1">/)
    expect(xml).toContain('message="invalid-request"')
  })
})

describe('--fail-on-client-violations', () => {
  it('exits 1 at shutdown when a caller broke a rule, with one line saying so, and 0 when none did', async () => {
    const failing = await startCli(['--port', '0', '--log', 'silent', ...keys, '--fail-on-client-violations'])
    expect((await fetch(`${failing.apiUrl}/pets`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
    expect(await failing.stop()).toBe(1)
    expect(failing.stderr()).toMatch(
      /^petstore-sim: --fail-on-client-violations: 1 of 1 callers broke the spec's rules for clients \(1 violations; GET \/__sim\/clients lists them\)\n$/,
    )
    expect(failing.stderr()).not.toContain('wrong')
    const passing = await startCli(['--port', '0', '--log', 'silent', ...keys, '--fail-on-client-violations'])
    expect((await fetch(`${passing.apiUrl}/pets?limit=1`, { headers: limited })).status).toBe(200)
    expect(await passing.stop()).toBe(0)
    expect(passing.stderr()).toBe('')
  })
})
