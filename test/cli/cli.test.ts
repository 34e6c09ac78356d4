import { request as httpRequest } from 'node:http'
import { writeFileSync, mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli, startCli } from '../support/cli-process.ts'
import { checkedFetch } from '../support/checked-fetch.ts'
import { rawExchange, statusAndCode } from '../support/raw-http.ts'
import { parsePlan, planNames } from '../../src/core/access/plans.ts'
import { transportFaults } from '../../src/core/http/fault-kinds.ts'
import { parseFaultText } from '../../src/core/faults/fault-text.ts'

type Started = Awaited<ReturnType<typeof startCli>>
const running: Started[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop()))
})

async function start(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const cli = await startCli(['--port', '0', ...args], env)
  running.push(cli)
  return cli
}

const auth = (key = 'demo-pro-key') => ({ authorization: `Bearer ${key}` })
const scratch = mkdtempSync(join(tmpdir(), 'petstore-sim-cli-'))
function scratchFile(name: string, content: string): string {
  const path = join(scratch, name)
  writeFileSync(path, content)
  return path
}

describe('petstore-sim --help and --version', () => {
  it('shows every flag with its default, its environment variable and examples', async () => {
    const cli = runCli(['--help'])
    expect(await cli.exited).toBe(0)
    const help = cli.stdout()
    for (const [flag, env, fallback] of [
      ['--port <n>', 'PETSTORE_SIM_PORT', 'default: 4010'],
      ['--host <addr>', 'PETSTORE_SIM_HOST', 'default: "127.0.0.1"'],
      ['--seed <n>', 'PETSTORE_SIM_SEED', 'default: 20301205'],
      ['--pets <n>', 'PETSTORE_SIM_PETS', 'default: 50'],
      ['--fixtures <file>', 'PETSTORE_SIM_FIXTURES', ''],
      ['--key <token=plan>', 'PETSTORE_SIM_KEY', 'default: the demo keys'],
      ['--keys <file>', 'PETSTORE_SIM_KEYS', ''],
      ['--latency <ms>', 'PETSTORE_SIM_LATENCY', ''],
      ['--base-path <path>', 'PETSTORE_SIM_BASE_PATH', 'default: "/v1"'],
      ['--ban-after <n>', 'PETSTORE_SIM_BAN_AFTER', 'default: 10'],
      ['--ban-for <duration>', 'PETSTORE_SIM_BAN_FOR', 'default: 10m'],
      ['--body-limit <bytes>', 'PETSTORE_SIM_BODY_LIMIT', 'default: 1048576'],
      ['--log <format>', 'PETSTORE_SIM_LOG', 'default: "pretty"'],
      ['--admin-token <token>', 'PETSTORE_SIM_ADMIN_TOKEN', ''],
      ['--default-status <status>', 'PETSTORE_SIM_DEFAULT_STATUS', 'default: "available"'],
      ['--headers-timeout <duration>', 'PETSTORE_SIM_HEADERS_TIMEOUT', 'default: 10s'],
      ['--request-timeout <duration>', 'PETSTORE_SIM_REQUEST_TIMEOUT', 'default: 30s'],
      ['--max-pipelined <n>', 'PETSTORE_SIM_MAX_PIPELINED', 'default: 16'],
    ]) {
      const start = help.indexOf(flag!)
      expect(start, flag).toBeGreaterThanOrEqual(0)
      const entry = help.slice(start, help.indexOf('\n  -', start + 1))
      expect(entry.replace(/\s+/g, ' '), flag).toContain(`env: ${env}`)
      if (fallback) expect(entry.replace(/\s+/g, ' '), flag).toContain(fallback)
    }
    expect(help).toContain('Examples:')
    expect(help).toContain('$ petstore-sim --port 0')
  })

  it('lists exactly the plans of core/access/plans.ts for --key, each one a plan parsePlan reads', async () => {
    const cli = runCli(['--help'])
    expect(await cli.exited).toBe(0)
    const help = cli.stdout().replace(/\s+/g, ' ')
    const listed = /--key <token=plan>.*? its plan \(([^)]*)\)/.exec(help)?.[1]?.split(', ')
    expect(listed?.map((form) => form.split(':')[0])).toEqual([...planNames])
    for (const form of listed!) expect(parsePlan(form.replace('<perMinute>/<perDay>', '5/50')).name).toBe(form.split(':')[0])
  })

  it('lists exactly the transport fault kinds of core/http/fault-kinds.ts for --fault, each one a rule parseFaultText reads', async () => {
    const cli = runCli(['--help'])
    expect(await cli.exited).toBe(0)
    const help = cli.stdout().replace(/\s+/g, ' ')
    const listed = /--fault <rule>.*? <status \| ([^>]*)>/.exec(help)?.[1]?.split(' | ')
    expect(listed).toEqual([...transportFaults])
    for (const kind of listed!) expect(parseFaultText(`listPets ${kind}`, '/v1').fault).toBe(kind)
  })

  it('prints its version', async () => {
    const cli = runCli(['--version'])
    expect(await cli.exited).toBe(0)
    expect(cli.stdout().trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })
})

describe('bad input: a one-line error and exit code 2', () => {
  it.each([
    [['--port', 'abc'], /--port must be a whole number/],
    [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--seed', '-1'], /--seed/],
    [['--pets', 'many'], /--pets/],
    [['--key', 'nope'], /expected <token>=<plan>/],
    [['--key', 'k=gold'], /Unknown plan "gold"/],
    [['--latency', 'slow'], /min-max/],
    [['--base-path', 'v1'], /such as \/v1/],
    [['--base-path', '/__sim'], /reserved/],
    [['--ban-after', 'x'], /--ban-after/],
    [['--ban-for', 'forever'], /duration/],
    [['--body-limit', '0'], /--body-limit/],
    [['--log', 'loud'], /Allowed choices are pretty, json, silent/],
    [['--default-status', 'lost'], /Allowed choices are available, pending, sold/],
    [['--fixtures', '/nonexistent/pets.json'], /--fixtures: cannot read/],
    [['--fixtures', '<bad json>'], /is not valid JSON/],
    [['--fixtures', '<bad pet>'], /Pet fixture #1 .*categoryId/],
    [['--keys', '<bad keys>'], /--keys .* must hold a JSON object/],
    [['--frobnicate'], /unknown option '--frobnicate'/],
    [['--headers-timeout', 'soon'], /duration/],
    [['--request-timeout', '0s'], /duration/],
    [
      ['--headers-timeout', '20s', '--request-timeout', '10s'],
      /--headers-timeout \(20000 ms\) must not be longer than --request-timeout \(10000 ms\)/,
    ],
    [['--max-pipelined', '-1'], /--max-pipelined/],
  ])('%j', async (args, message) => {
    const resolved = args.map((arg) =>
      arg === '<bad json>'
        ? scratchFile('bad.json', '[{')
        : arg === '<bad pet>'
          ? scratchFile('bad-pet.json', '[{"name":"Rex","categoryId":1},{"name":"Tom","categoryId":"two"}]')
          : arg === '<bad keys>'
            ? scratchFile('bad-keys.json', '["a"]')
            : arg,
    )
    const cli = runCli(['--port', '0', ...resolved])
    expect(await cli.exited).toBe(2)
    const stderr = cli.stderr().trim()
    expect(stderr).toMatch(message)
    expect(stderr.split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/^petstore-sim: /)
    expect(cli.stdout()).toBe('')
  })

  // An empty token compared equal to the empty token of a request without Authorization: the control plane was open.
  it.each([
    [['--admin-token', ''], {}, /^petstore-sim: --admin-token must not be empty: /],
    [['--admin-token', '   '], {}, /^petstore-sim: --admin-token must not be empty: /],
    [['--admin-token', ' s3cret'], {}, /^petstore-sim: --admin-token must not start or end with white space: /],
    [[], { PETSTORE_SIM_ADMIN_TOKEN: '' }, /^petstore-sim: PETSTORE_SIM_ADMIN_TOKEN must not be empty: /],
    [['--config', '<empty token config>'], {}, /^petstore-sim: adminToken in --config \S+ must not be empty: /],
  ])('refuses an admin token that protects nothing: %j %j', async (args, env, message) => {
    const resolved = args.map((arg) => (arg === '<empty token config>' ? scratchFile('empty-token.json', '{"adminToken": ""}') : arg))
    const cli = runCli(['--port', '0', '--host', '0.0.0.0', ...resolved], env)
    expect(await cli.exited).toBe(2)
    const stderr = cli.stderr().trim()
    expect(stderr).toMatch(message)
    expect(stderr).not.toContain('s3cret')
    expect(stderr.split('\n')).toHaveLength(1)
    expect(cli.stdout()).toBe('')
  })

  it('names a port already in use', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const cli = runCli(['--port', String(port)])
      expect(await cli.exited).toBe(2)
      expect(cli.stderr().trim()).toBe(`petstore-sim: port ${port} on 127.0.0.1 is already in use (try --port 0 for a free port)`)
    } finally {
      blocker.close()
    }
  })
})

describe('flags and environment variables', () => {
  it('prints the URL, then the demo keys with their plans', async () => {
    const cli = await start([])
    const lines = cli.stdout().split('\n')
    expect(lines[0]).toMatch(/^petstore-sim listening on http:\/\/127\.0\.0\.1:\d+\/v1$/)
    for (const [key, plan] of [
      ['demo-free-key', 'free'],
      ['demo-pro-key', 'pro'],
      ['demo-business-key', 'business'],
      ['demo-enterprise-key', 'enterprise:5000/1000000'],
    ]) {
      expect(cli.stdout()).toMatch(new RegExp(`${key}\\s+${plan}`))
    }
  })

  it('serves the seed and pet count asked for', async () => {
    const cli = await start(['--seed', '7', '--pets', '3'])
    const pets = await (await checkedFetch(`${cli.apiUrl}/pets`, { headers: auth() })).json()
    const { generatePets } = await import('../../src/core/catalogue/seed-pets.ts')
    expect(pets).toEqual(generatePets({ seed: 7, count: 3 }))
  })

  it('takes flags from PETSTORE_SIM_* variables, flags winning', async () => {
    const cli = await start(['--pets', '5'], {
      PETSTORE_SIM_PETS: '3',
      PETSTORE_SIM_BASE_PATH: '/api/v2',
      PETSTORE_SIM_KEY: 'env-a=pro, env-b=enterprise:7/70',
    })
    expect(cli.apiUrl).toMatch(/\/api\/v2$/)
    const response = await checkedFetch(`${cli.apiUrl}/pets?limit=100`, { headers: auth('env-b') })
    expect(response.headers.get('x-ratelimit-limit')).toBe('7')
    expect(await response.json()).toHaveLength(5)
    expect((await checkedFetch(`${cli.apiUrl}/pets`, { headers: auth('env-a') })).headers.get('x-ratelimit-limit')).toBe('300')
    expect((await checkedFetch(`${cli.apiUrl}/pets`, { headers: auth('demo-pro-key') })).status).toBe(401)
  })

  it('serves --fixtures and uses --keys and repeated --key, printing fingerprints instead of the keys', async () => {
    const fixtures = scratchFile('pets.json', '[{"id":3,"name":"Rex","categoryId":1,"status":"sold"}]')
    const keys = scratchFile('keys.json', '{"file-key-123": "business"}')
    const cli = await start(['--fixtures', fixtures, '--keys', keys, '--key', 'flag-key-456=free', '--key', 'flag-key-789=enterprise:9/99'])
    expect(await (await checkedFetch(`${cli.apiUrl}/pets`, { headers: auth('file-key-123') })).json()).toEqual([
      { id: 3, name: 'Rex', categoryId: 1, status: 'sold' },
    ])
    expect((await checkedFetch(`${cli.apiUrl}/pets`, { headers: auth('flag-key-789') })).headers.get('x-ratelimit-limit')).toBe('9')
    expect(cli.stdout()).toMatch(/key#[0-9a-f]{8}\s+business/)
    for (const secret of ['file-key-123', 'flag-key-456', 'flag-key-789']) expect(cli.stdout()).not.toContain(secret)
  })

  it('delays API responses by --latency', async () => {
    const cli = await start(['--latency', '150'])
    const started = performance.now()
    expect((await checkedFetch(`${cli.apiUrl}/pets`, { headers: auth() })).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
  })

  it('bans with --ban-after and --ban-for, or never with --ban-after off', async () => {
    const banning = await start(['--key', 'k=enterprise:1/100', '--ban-after', '1', '--ban-for', '2s'])
    const codes = []
    for (let index = 0; index < 3; index++) {
      const response = await checkedFetch(`${banning.apiUrl}/pets`, { headers: auth('k') })
      codes.push(`${response.status} ${(await response.json()).code ?? ''} ${response.headers.get('retry-after') ?? ''}`.trim())
    }
    expect(codes[1]).toMatch(/^429 rate_limit_exceeded \d+$/)
    expect(codes[2]).toBe('429 api_key_banned 2')
    const lenient = await start(['--key', 'k=enterprise:1/100', '--ban-after', 'off'])
    const seen = new Set<string>()
    for (let index = 0; index < 20; index++)
      seen.add((await (await checkedFetch(`${lenient.apiUrl}/pets`, { headers: auth('k') })).json()).code ?? 'ok')
    expect([...seen].sort()).toEqual(['ok', 'rate_limit_exceeded'])
  })

  it('answers 413 over --body-limit', async () => {
    const cli = await start(['--body-limit', '64'])
    const response = await checkedFetch(`${cli.apiUrl}/pets`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(100), categoryId: 1 }),
    })
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request body is over the limit of 64 bytes',
      status: 413,
    })
  })

  it('creates pets with --default-status', async () => {
    const cli = await start(['--default-status', 'pending'])
    const response = await checkedFetch(`${cli.apiUrl}/pets`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    })
    expect((await response.json()).status).toBe('pending')
  })
})

describe('slow clients', () => {
  it('--request-timeout and PETSTORE_SIM_HEADERS_TIMEOUT bound a lying Content-Length and dribbled headers with 408', async () => {
    const cli = await start(['--request-timeout', '700ms', '--log', 'silent'], { PETSTORE_SIM_HEADERS_TIMEOUT: '300ms' })
    const port = Number(new URL(cli.origin).port)
    const started = performance.now()
    const [lying, dribbled] = await Promise.all([
      rawExchange(
        port,
        'POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer demo-pro-key\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
        3000,
      ).then((reply) => [reply, performance.now() - started] as const),
      rawExchange(port, 'GET /v1/pets HTTP/1.1\r\nHost: localhost\r\n', 3000).then(
        (reply) => [reply, performance.now() - started] as const,
      ),
    ])
    expect(statusAndCode(lying[0])).toEqual({ status: 408, code: 'request_timeout' })
    expect(lying[1]).toBeGreaterThanOrEqual(650)
    expect(lying[1]).toBeLessThan(1600)
    expect(statusAndCode(dribbled[0])).toEqual({ status: 408, code: 'request_timeout' })
    expect(dribbled[1]).toBeLessThan(1000)
  })
})

describe('logs', () => {
  it('--log json: one object per line, with the plan and a fingerprint, never the key', async () => {
    const cli = await start(['--log', 'json', '--key', 'secret-token-123=pro'])
    await checkedFetch(`${cli.apiUrl}/pets?limit=1`, { headers: auth('secret-token-123') })
    await checkedFetch(`${cli.apiUrl}/pets`, { headers: auth('wrong-secret') })
    await new Promise((resolve) => setTimeout(resolve, 50))
    const lines = cli
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines[0].message).toMatch(/^petstore-sim listening on /)
    expect(lines.slice(1).map(({ method, path, status, plan }) => ({ method, path, status, plan }))).toEqual([
      { method: 'GET', path: '/v1/pets?limit=1', status: 200, plan: 'pro' },
      { method: 'GET', path: '/v1/pets', status: 401, plan: 'anonymous' },
    ])
    expect(lines[1].caller).toMatch(/^key#[0-9a-f]{8}$/)
    expect(typeof lines[1].durationMs).toBe('number')
    expect(cli.stdout()).not.toContain('secret-token-123')
    expect(cli.stdout()).not.toContain('wrong-secret')
  })

  it('--log pretty: one human line per request', async () => {
    const cli = await start(['--log', 'pretty'])
    await checkedFetch(`${cli.apiUrl}/pets/1`, { headers: auth('demo-business-key') })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(cli.stdout()).toMatch(/\nGET \/v1\/pets\/1 200 \d+\.\dms business key#[0-9a-f]{8}\n/)
    expect(
      cli
        .stdout()
        .split('\n')
        .filter((line) => line.includes('demo-business-key')),
    ).toHaveLength(1) // the banner only
  })

  it('--log silent: the URL line and nothing else', async () => {
    const cli = await start(['--log', 'silent'])
    await checkedFetch(`${cli.apiUrl}/pets`, { headers: auth() })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(cli.stdout().trim().split('\n')).toEqual([`petstore-sim listening on ${cli.apiUrl}`])
  })
})

describe('control endpoints and admin token', () => {
  it('needs the admin token when one is given (but for the health probe, issue #37)', async () => {
    const cli = await start(['--admin-token', 'let-me-in'])
    const refused = await checkedFetch(`${cli.origin}/__sim/clock`)
    expect(refused.status).toBe(401)
    expect((await refused.json()).code).toBe('admin_unauthorized')
    expect((await checkedFetch(`${cli.origin}/__sim/clock`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
    expect((await checkedFetch(`${cli.origin}/__sim/clock`, { headers: { authorization: 'Bearer let-me-in' } })).status).toBe(200)
    expect((await checkedFetch(`${cli.origin}/__sim/health`)).status).toBe(200)
  })
})

describe('shutdown', () => {
  it('on SIGTERM, finishes the request in flight and exits 0', async () => {
    const cli = await startCli(['--port', '0', '--latency', '700', '--log', 'silent'])
    const inFlight = checkedFetch(`${cli.apiUrl}/pets?limit=1`, { headers: auth() })
    await new Promise((resolve) => setTimeout(resolve, 250))
    const signalled = performance.now()
    cli.child.kill('SIGTERM')
    const response = await inFlight
    expect(response.status).toBe(200)
    expect(await response.json()).toHaveLength(1)
    expect(await cli.exited).toBe(0)
    expect(performance.now() - signalled).toBeLessThan(5000)
  })

  it('on SIGINT with nothing in flight, exits 0 at once', async () => {
    const cli = await startCli(['--port', '0', '--log', 'silent'])
    await checkedFetch(`${cli.apiUrl}/pets`, { headers: auth() }) // leaves a keep-alive connection open
    cli.child.kill('SIGINT')
    expect(await cli.exited).toBe(0)
  })

  it('on a second signal, exits at once', async () => {
    const cli = await startCli(['--port', '0', '--latency', '4000', '--log', 'silent'])
    const inFlight = checkedFetch(`${cli.apiUrl}/pets`, { headers: auth() }).catch((error: unknown) => error)
    await new Promise((resolve) => setTimeout(resolve, 200))
    cli.child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 200))
    const signalled = performance.now()
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(143)
    expect(performance.now() - signalled).toBeLessThan(1000)
    expect(await inFlight).toBeInstanceOf(Error)
  })
})

describe('control endpoints, checked per request', () => {
  it('serves loopback clients under a loopback or allowed Host name, and refuses another name (DNS rebinding)', async () => {
    const cli = await start(['--log', 'silent', '--allowed-host', 'sim.internal'])
    const port = new URL(cli.origin).port
    const status = (path: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        httpRequest(`${cli.origin}${path}`, { headers: { host } }, (response) => {
          response.resume()
          resolve(response.statusCode!)
        })
          .on('error', reject)
          .end()
      })
    expect(await status('/__sim/clock', `127.0.0.1:${port}`)).toBe(200)
    expect(await status('/__sim/clock', `localhost:${port}`)).toBe(200)
    expect(await status('/__sim/clock', `sim.internal:${port}`)).toBe(200)
    expect(await status('/__sim/clock', `attacker.example:${port}`)).toBe(403)
    // The health probe answers under any name: a probe from outside uses whatever name reaches the machine (issue #37).
    expect(await status('/__sim/health', `attacker.example:${port}`)).toBe(200)
  })

  it('with --admin-token, wants the token from every client (but for the health probe)', async () => {
    const cli = await start(['--log', 'silent', '--admin-token', 's3cret'])
    expect((await fetch(`${cli.origin}/__sim/clock`)).status).toBe(401)
    expect((await fetch(`${cli.origin}/__sim/clock`, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200)
    expect((await fetch(`${cli.origin}/__sim/health`)).status).toBe(200)
  })
})

describe('error states on demand from the command line', () => {
  it('applies --fault rules in the short form, and puts them back after a reset', async () => {
    const cli = await start(['--log', 'silent', '--fault', 'GET /v1/pets 503 times=1', '--fault', 'getPet 404 key=demo-free-key'])
    const failed = await fetch(`${cli.apiUrl}/pets`, { headers: auth() })
    expect(failed.status).toBe(503)
    expect(failed.headers.get('petstore-sim-fault')).toBe('f1')
    expect((await fetch(`${cli.apiUrl}/pets`, { headers: auth() })).status).toBe(200)
    expect((await fetch(`${cli.apiUrl}/pets/1`, { headers: { authorization: 'Bearer demo-free-key' } })).status).toBe(404)
    expect((await fetch(`${cli.apiUrl}/pets/1`, { headers: auth() })).status).toBe(200)
    await fetch(`${cli.origin}/__sim/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } })
    const { faults } = await (await fetch(`${cli.origin}/__sim/faults`)).json()
    expect(faults.map((rule: { id: string }) => rule.id)).toEqual(['f1', 'f2'])
  })

  it('reads --faults from a JSON file, and PETSTORE_SIM_FAULT from the environment', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'petstore-faults-'))
    const file = join(directory, 'faults.json')
    writeFileSync(file, JSON.stringify([{ operation: 'createPet', status: 500 }]))
    const cli = await start(['--log', 'silent', '--faults', file], { PETSTORE_SIM_FAULT: 'listOrders 503; getPet delay=1' })
    const created = await fetch(`${cli.apiUrl}/pets`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    })
    expect(created.status).toBe(500)
    expect((await fetch(`${cli.apiUrl}/store/orders`, { headers: auth() })).status).toBe(503)
    expect(((await (await fetch(`${cli.origin}/__sim/faults`)).json()).faults as unknown[]).length).toBe(3)
  })

  it('ignores Prefer with --no-prefer', async () => {
    const cli = await start(['--log', 'silent', '--no-prefer'])
    expect((await fetch(`${cli.apiUrl}/pets/1`, { headers: { ...auth(), prefer: 'code=404' } })).status).toBe(200)
  })

  it.each([
    [['--fault', 'listPets teapot'], /--fault: .*cannot read "teapot"/],
    [['--fault', 'listPets 404'], /listPets never answers 404/],
    [['--fault', 'feedPets 503'], /no operation feedPets/],
    [['--fault', 'listPets 503 times=0x10'], /cannot read "times=0x10"/],
    [['--fault', 'listPets 503 times=1 times=2'], /says times a second time/],
  ])('refuses %j with exit code 2 and one line', async (args, message) => {
    const cli = runCli(['--port', '0', ...args])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toMatch(message)
    expect(cli.stderr().trim().split('\n')).toHaveLength(1)
  })
})
