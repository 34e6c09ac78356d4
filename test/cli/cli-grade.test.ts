import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, startCli } from '../support/cli-process.ts'

// `petstore-sim grade <file.har>`: the simulator's own HAR export graded to the report GET /__sim/clients answered,
// the reporters, and verify's exit codes (0 pass, 1 fail, 2 usage, 3 a file that cannot be graded).

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-grade-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

async function grade(args: readonly string[]) {
  const cli = runCli(['grade', ...args])
  return { code: await cli.exited, stdout: cli.stdout(), stderr: cli.stderr() }
}

describe('petstore-sim grade', () => {
  it("grades the simulator's HAR export as GET /__sim/clients does, and exits 1 on a violation", async () => {
    const cli = await startCli(['--port', '0', '--log', 'silent', '--key', 'k-limited=enterprise:3/1000'])
    for (let index = 0; index < 5; index++) await fetch(`${cli.apiUrl}/pets?limit=1`, { headers: { authorization: 'Bearer k-limited' } })
    const served = await (await fetch(`${cli.origin}/__sim/clients`)).json()
    const file = join(directory, 'run.har')
    writeFileSync(file, await (await fetch(`${cli.origin}/__sim/requests.har`)).text())
    expect(await cli.stop()).toBe(0)
    const json = await grade([file, '--reporter', 'json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toEqual(served)
    const pretty = await grade([file])
    expect(pretty.code).toBe(1)
    expect(pretty.stdout).toMatch(
      /^FAIL key#[0-9a-f]{8} \(enterprise:3\/1000\): 5 requests; busiest minute 5, busiest day 5, fits free\n {2}violation retry-after-ignored: 1 request: /,
    )
    expect(pretty.stdout).toMatch(/\nfail: 1 caller, 1 violations, 0 advice\n$/)
    const out = join(directory, 'report.xml')
    const junit = await grade([file, '--reporter', 'junit', '--out', out])
    expect(junit.code).toBe(1)
    expect(readFileSync(out, 'utf8')).toContain('<failure type="client-rules" message="retry-after-ignored">')
    expect(junit.stdout).toMatch(/^FAIL /)
  })

  it('exits 0 for a recording that keeps the rules', async () => {
    const file = join(directory, 'clean.har')
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [] } }))
    expect(await grade([file])).toEqual({ code: 0, stdout: 'pass: 0 callers, 0 violations, 0 advice\n', stderr: '' })
  })

  it('exits 2 on a usage error and 3 on a file it cannot grade, with one line saying why', async () => {
    expect(await grade([])).toMatchObject({
      code: 2,
      stderr: 'petstore-sim grade: missing <file.har>, a HAR 1.2 recording (GET /__sim/requests.har saves one)\n',
    })
    expect((await grade(['x.har', '--reporter', 'xml'])).code).toBe(2)
    const missing = join(directory, 'missing.har')
    expect(await grade([missing])).toMatchObject({ code: 3, stderr: `petstore-sim grade: cannot grade ${missing}: ENOENT\n` })
    const cut = join(directory, 'cut.har')
    writeFileSync(cut, '{"log":{"entries":[{"startedDateTime"')
    const graded = await grade([cut])
    expect(graded.code).toBe(3)
    expect(graded.stderr).toMatch(
      /^petstore-sim grade: cannot grade .*cut\.har: not JSON \(.*\): a HAR file cut short, or not a HAR file\n$/,
    )
    const big = join(directory, 'big.har')
    writeFileSync(big, `{"log":{"entries":[]},"pad":"${'x'.repeat(2000)}"}`)
    expect(await grade([big, '--max-bytes', '1000'])).toMatchObject({ code: 3 })
    expect((await grade([big, '--max-bytes', '1000'])).stderr).toMatch(/cannot grade .*big\.har: .*1000/)
    expect((await grade(['/dev/zero'])).code).toBe(3)
  })
})
