// Issue #31, item 6: messages that name what to change. A bad fault rule or key named neither the flag nor the config
// file's key ("Scenario default: …"); a config file found in the working directory was applied without a word; a bare
// number in a duration flag was milliseconds (`--ban-for 10`: 10 ms); a page on a refused origin sees only "Failed to
// fetch", and the log line named neither the origin nor --cors-origin.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createProgram, type CliOptions } from '../../src/cli/cli-options.ts'
import { applyConfigFile } from '../../src/cli/config-file.ts'
import { createSimulator } from '../../src/index.ts'
import { runCli, startCli } from '../support/cli-process.ts'

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-messages-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const running: Array<{ stop(): Promise<unknown> }> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop()))
})

let files = 0
function file(content: unknown, name = `file-${files++}.json`): string {
  const path = join(directory, name)
  writeFileSync(path, JSON.stringify(content))
  return path
}

/** Runs the CLI to its exit: the exit code and stderr. */
async function refusal(args: readonly string[], env: Record<string, string> = {}) {
  const cli = runCli(['--port', '0', ...args], env)
  const code = await cli.exited
  return { code, stderr: cli.stderr() }
}

async function waitFor(read: () => string, pattern: RegExp) {
  const deadline = Date.now() + 5000
  while (!pattern.test(read()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  return read()
}

describe('a fault rule or a key the simulator refuses', () => {
  const badPlan = 'Unknown plan "gold": use free, pro, business or enterprise:<perMinute>/<perDay> (positive whole numbers)'

  it('names the --fault it came from', async () => {
    expect(await refusal(['--fault', 'listPets 503', '--fault', 'listPets 999'])).toEqual({
      code: 2,
      stderr: 'petstore-sim: --fault "listPets 999": Invalid fault rule: status: Too big: expected number to be <=599\n',
    })
  })

  it('names the --faults file and the rule', async () => {
    const faults = file([{ status: 503 }, { status: 999 }], 'faults.json')
    const { code, stderr } = await refusal(['--faults', faults, '--fault', 'listPets 503'])
    expect({ code, stderr }).toEqual({
      code: 2,
      stderr: `petstore-sim: --faults ${faults}, rule 2: Invalid fault rule: status: Too big: expected number to be <=599\n`,
    })
  })

  it("names the config file's faults and keys", async () => {
    const faults = file({ faults: [{ status: 999 }] })
    expect((await refusal(['--config', faults])).stderr).toBe(
      `petstore-sim: faults in --config ${faults}, rule 1: Invalid fault rule: status: Too big: expected number to be <=599\n`,
    )
    const keys = file({ keys: { 'my-key': 'gold' } })
    expect(await refusal(['--config', keys])).toEqual({ code: 2, stderr: `petstore-sim: keys in --config ${keys}: ${badPlan}\n` })
  })

  it('names the --keys file, and never prints the key', async () => {
    const keys = file({ 'secret-token-1': 'gold' }, 'keys.json')
    const { code, stderr } = await refusal(['--keys', keys])
    expect({ code, stderr }).toEqual({ code: 2, stderr: `petstore-sim: --keys ${keys}: ${badPlan}\n` })
    expect(stderr).not.toContain('secret-token-1')
  })

  it('names the option in-process, apart from a scenario of its own', () => {
    expect(() => createSimulator({ faults: [{ status: 999 }] })).toThrow(/^faults\[0\]: Invalid fault rule: status: Too big/)
    expect(() => createSimulator({ keys: { k: 'gold' } })).toThrow(/^keys: Unknown plan "gold"/)
    expect(() => createSimulator({ scenarios: { mine: { keys: { k: 'gold' } } }, scenario: 'mine' })).toThrow(
      /^Scenario mine: Unknown plan "gold"/,
    )
  })
})

describe('a config file found in the working directory', () => {
  const project = join(directory, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'petstore-sim.config.json'), JSON.stringify({ pets: 3 }))

  it('is named in the pretty banner', async () => {
    const cli = runCli(['--port', '0'], {}, project)
    running.push({ stop: async () => cli.child.kill('SIGTERM') })
    const out = await waitFor(cli.stdout, /Dashboard: /)
    expect(out).toContain(
      `\nConfig file: ${join(project, 'petstore-sim.config.json')} (found in the working directory; --config <file> names another)\n`,
    )
  })

  it('is a field of the json start line', async () => {
    const cli = runCli(['--port', '0', '--log', 'json'], {}, project)
    running.push({ stop: async () => cli.child.kill('SIGTERM') })
    const out = await waitFor(cli.stdout, /listening on/)
    expect(JSON.parse(out.split('\n')[0]!)).toMatchObject({ config: join(project, 'petstore-sim.config.json') })
  })

  it('is not mentioned when there is none', async () => {
    const cli = await startCli(['--port', '0'])
    running.push(cli)
    expect(await waitFor(cli.stdout, /Dashboard: /)).not.toContain('Config file')
  })
})

describe('a duration flag', () => {
  const needsUnit = (flag: string, value: string) =>
    `petstore-sim: option '${flag} <duration>' argument '${value}' is invalid. a duration needs a unit: ${value}ms, ${value}s or ${value}m (500ms, 30s, 10m, 1h).\n`

  it.each(['--ban-for', '--state-interval', '--headers-timeout', '--request-timeout'])('%s refuses a bare number', async (flag) => {
    expect(await refusal([flag, '10'])).toEqual({ code: 2, stderr: needsUnit(flag, '10') })
  })

  it('refuses one from the environment and as text in the config file, and says which', async () => {
    expect(await refusal([], { PETSTORE_SIM_BAN_FOR: '10' })).toEqual({
      code: 2,
      stderr:
        "petstore-sim: option '--ban-for <duration>' value '10' from env 'PETSTORE_SIM_BAN_FOR' is invalid. a duration needs a unit: 10ms, 10s or 10m (500ms, 30s, 10m, 1h).\n",
    })
    const config = file({ banFor: '10' })
    expect(await refusal(['--config', config])).toEqual({
      code: 2,
      stderr: `petstore-sim: --config ${config}: banFor: a duration needs a unit: 10ms, 10s or 10m (500ms, 30s, 10m, 1h).\n`,
    })
  })

  it("takes a unit, and a config file's JSON number as milliseconds, as its schema says", () => {
    const path = file({ banFor: 90_000, requestTimeout: '45s' })
    const program = createProgram().exitOverride()
    program.parse(['--config', path, '--state-interval', '2s'], { from: 'user' })
    applyConfigFile(program, path)
    expect(program.opts<CliOptions>()).toMatchObject({ banFor: 90_000, requestTimeout: 45_000, stateInterval: 2_000 })
  })

  it('verify --timeout refuses a bare number too', async () => {
    const cli = runCli(['verify', 'http://127.0.0.1:9/v1', '--key', 'k', '--timeout', '10'])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toContain('a duration needs a unit: 10ms, 10s or 10m')
  })
})

describe('a request from a page on a refused origin', () => {
  it('is logged with its Origin and the flag that allows it (pretty)', async () => {
    const cli = await startCli(['--port', '0', '--log', 'pretty'])
    running.push(cli)
    const refused = await fetch(`${cli.apiUrl}/pets?limit=1`, {
      headers: { Origin: 'https://app.example', Authorization: 'Bearer demo-pro-key' },
    })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('access-control-allow-origin')).toBeNull() // all the page sees: "Failed to fetch"
    await refused.arrayBuffer()
    expect(await waitFor(cli.stdout, /origin_not_allowed/)).toMatch(
      /\nGET \/v1\/pets\?limit=1 403 origin_not_allowed \d+\.\dms - - from a page on https:\/\/app\.example: allow it with --cors-origin https:\/\/app\.example\n/,
    )
  })

  it('carries the origin as a field (json), and only on that refusal', async () => {
    const cli = await startCli(['--port', '0', '--log', 'json'])
    running.push(cli)
    const headers = { Origin: 'https://app.example', Authorization: 'Bearer demo-pro-key' }
    await (await fetch(`${cli.apiUrl}/pets?limit=1`, { headers })).arrayBuffer()
    await (await fetch(`${cli.apiUrl}/pets?limit=1`, { headers: { Authorization: 'Bearer demo-pro-key' } })).arrayBuffer()
    const lines = (await waitFor(cli.stdout, /(?:\n[^\n]*"status"[^\n]*){2}\n/))
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map(({ status, code, origin }) => ({ status, code, origin }))).toEqual([
      { status: 403, code: 'origin_not_allowed', origin: 'https://app.example' },
      { status: 200, code: undefined, origin: undefined },
    ])
  })
})

// Issue 49: in the container (--host 0.0.0.0, no admin token) the banner advertised http://0.0.0.0:4010/__sim/, which
// answers 403 control_forbidden to the host through the published port, and even on the machine itself (its Host is
// no loopback name). The banner names a URL that answers, and how to open the dashboard to others.
describe('the dashboard the banner advertises, on every interface', () => {
  const advertised = (out: string) => /^Dashboard: (http:\/\/\S+)/m.exec(out)?.[1]

  it('answers where the banner says, and the banner names PETSTORE_SIM_ADMIN_TOKEN when only loopback is served', async () => {
    const cli = await startCli(['--port', '0', '--host', '0.0.0.0'])
    running.push(cli)
    const out = await waitFor(cli.stdout, /Dashboard: /)
    const url = advertised(out)!
    expect((await fetch(url)).status, url).toBe(200)
    expect(/^Dashboard: .*$/m.exec(out)![0]).toMatch(/loopback clients only.*PETSTORE_SIM_ADMIN_TOKEN/)
    const json = await startCli(['--port', '0', '--host', '0.0.0.0', '--log', 'json'])
    running.push(json)
    const line = JSON.parse((await waitFor(json.stdout, /listening on/)).split('\n')[0]!) as { dashboard: string }
    expect((await fetch(line.dashboard)).status, line.dashboard).toBe(200)
  })

  it('advertises the address it listens on once an admin token opens the dashboard to others', async () => {
    const cli = await startCli(['--port', '0', '--host', '0.0.0.0'], { PETSTORE_SIM_ADMIN_TOKEN: 'admin-secret' })
    running.push(cli)
    const url = advertised(await waitFor(cli.stdout, /Dashboard: /))!
    expect(url).toBe(`${cli.origin}/__sim/`)
    expect((await fetch(url)).status).toBe(200)
  })
})
