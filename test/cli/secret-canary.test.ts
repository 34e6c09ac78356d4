import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fingerprint } from '../../src/core/access/fingerprint.ts'
import { runCli, startCli } from '../support/cli-process.ts'

// Issue 26, the secret canary: one unique secret, sent in every position a client or a user can put one, never
// appears in any output: the CLI's stdout and stderr (pretty and json logs, errors), the journal, HAR, the event
// stream, error bodies, a failed wait's message, and every `verify` report (also against a target that echoes it).
// Runs the built CLI (`npm run build` first). Loopback only, port 0.

const canary = 'canary-7c1f0e9b2d84a536'
/** A secret that is no key of the simulator: only the names it travels under say it is one. */
const stranger = 'stranger-4be19d0c6a7f2853'
const folder = mkdtempSync(join(tmpdir(), 'petstore-sim-canary-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Every name a secret travels under in a query: the credential-named ones, and the journal's `key` filter. */
const secretQueryNames = ['api_key', 'apikey', 'access_token', 'token', 'key', 'sig', 'code', 'password', 'client_secret', 'session']
/** Every header a secret travels in besides Authorization. */
const secretHeaders = ['X-API-Key', 'Api-Key', 'Ocp-Apim-Subscription-Key', 'X-JWT-Assertion', 'X-Auth-Token', 'X-Amz-Security-Token']

/** Sends the canary in every position a client can, through the API and the control plane; returns every body it got. */
async function sendEverywhere(origin: string): Promise<string[]> {
  const bodies: string[] = []
  const send = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${origin}${path}`, init)
    bodies.push(`${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`)
  }
  await send('/v1/pets?limit=1', { headers: { authorization: `Bearer ${canary}` } })
  await send('/v1/pets', { headers: { authorization: canary } })
  for (const secret of [canary, stranger]) {
    for (const header of secretHeaders) await send('/v1/pets', { headers: { [header]: secret } })
    await send('/v1/pets', { headers: { cookie: `session=${secret}; theme=dark` } })
    for (const name of secretQueryNames) await send(`/v1/pets?${name}=${secret}`)
    await send(`/nowhere?sig=${secret}&code=${secret}`)
  }
  await send(`/v1/pets?api_key=${encodeURIComponent(canary)}&limit=oops`)
  // Refused before routing, and in a path: the raw URL is what a log would print.
  await send(`/v1/pets/${canary}?sig=${canary}`, { headers: { authorization: `Bearer ${canary}` } })
  await send(`/nowhere?code=${canary}`)
  // In a body: a pet (the journal keeps request bodies), and a body the API refuses.
  await send('/v1/pets', {
    method: 'POST',
    headers: { authorization: `Bearer ${canary}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', tag: canary }),
  })
  await send('/v1/pets', {
    method: 'POST',
    headers: { authorization: `Bearer ${canary}`, 'content-type': 'application/json' },
    body: `{"name": ${canary}}`,
  })
  // The control plane's filters: listing, counting, a wait that times out (its message lists near misses), HAR.
  await send(`/__sim/requests?key=${canary}`)
  await send(`/__sim/requests/count?key=${canary}`)
  await send(`/__sim/requests/wait?key=${canary}&status=599&timeoutMs=50`)
  await send(`/__sim/requests/wait?key=${canary}&operation=getPet&timeoutMs=50`)
  await send('/__sim/requests')
  await send('/__sim/requests.har')
  await send('/__sim/faults')
  await send('/__sim/state')
  bodies.push(await readEvents(origin))
  return bodies
}

/** The event stream's first chunks (its state and the journal's summaries), read for a moment. */
async function readEvents(origin: string): Promise<string> {
  const controller = new AbortController()
  const response = await fetch(`${origin}/__sim/events`, { signal: controller.signal })
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + 1000
  while (Date.now() < deadline && !text.includes('event: requests')) {
    const { value, done } = await Promise.race([
      reader.read(),
      new Promise<{ value: undefined; done: true }>((resolve) => setTimeout(() => resolve({ value: undefined, done: true }), 300)),
    ])
    if (done) break
    text += decoder.decode(value, { stream: true })
  }
  controller.abort()
  expect(text).toContain('event: requests')
  return text
}

/** Each output with the canary's position in it, for a failure that says where it leaked. */
function leaks(outputs: Record<string, string>): string[] {
  return [canary, stranger].flatMap((secret) =>
    Object.entries(outputs)
      .filter(([, text]) => text.includes(secret))
      .map(([name, text]) => `${name}: …${text.slice(Math.max(0, text.indexOf(secret) - 120), text.indexOf(secret) + 40)}…`),
  )
}

describe('the secret canary', () => {
  const keysFile = join(folder, 'keys.json')
  const configFile = join(folder, 'petstore-sim.config.json')
  writeFileSync(keysFile, JSON.stringify({ [canary]: 'pro' }))
  writeFileSync(configFile, JSON.stringify({ keys: { [canary]: 'pro' }, log: 'json' }))

  const runs: [string, string[]][] = [
    ['--key, pretty log', ['--key', `${canary}=pro`, '--log', 'pretty', '--fault', `getPet 503 key=${canary}`]],
    ['--keys file, json log', ['--keys', keysFile, '--log', 'json']],
    ['config file, json log', ['--config', configFile]],
  ]
  for (const [name, args] of runs) {
    it(`never shows the secret: ${name}`, async () => {
      const cli = await startCli(['--port', '0', ...args])
      let bodies: string[]
      try {
        bodies = await sendEverywhere(cli.origin)
      } finally {
        await cli.stop()
      }
      const outputs = {
        stdout: cli.stdout(),
        stderr: cli.stderr(),
        ...Object.fromEntries(bodies.map((body, index) => [`answer ${index}`, body])),
      }
      expect(leaks(outputs)).toEqual([])
      // The outputs did see the secret's requests: as the key's fingerprint.
      expect(cli.stdout()).toContain(fingerprint(canary))
      expect(bodies.join('\n')).toContain(fingerprint(canary))
      expect(bodies.join('\n')).toContain('No request matched')
    })
  }

  it('never shows a key of a flag or a file that is refused', async () => {
    const badKeys = join(folder, 'bad-keys.json')
    writeFileSync(badKeys, JSON.stringify({ [canary]: 'platinum' }))
    const attempts = [
      ['--key', `${canary}=platinum`],
      [`--key=${canary}`],
      ['--keys', badKeys],
      ['--fault', `getPet 503 key=${canary} p=7`],
    ]
    for (const args of attempts) {
      const cli = runCli(args)
      expect(await cli.exited).toBe(2)
      expect(leaks({ stdout: cli.stdout(), stderr: cli.stderr() }), args.join(' ')).toEqual([])
      expect(cli.stderr()).toMatch(/^petstore-sim: /)
    }
    const fromEnv = runCli([], { PETSTORE_SIM_KEY: `${canary}=platinum` })
    expect(await fromEnv.exited).toBe(2)
    expect(fromEnv.stderr()).toContain(`${fingerprint(canary)}=platinum`)
    expect(leaks({ stderr: fromEnv.stderr() })).toEqual([])
  })

  it('never shows the key in a verify report, against the simulator or a target that echoes it', async () => {
    const cli = await startCli(['--port', '0', '--key', `${canary}=pro`, '--log', 'silent'])
    const echo: Server = createServer((request, response) => {
      response.writeHead(400, { 'content-type': 'application/json', 'x-ratelimit-limit': request.headers.authorization ?? '' })
      response.end(JSON.stringify({ code: 'echo', message: `${request.headers.authorization} ${request.url}`, status: 400 }))
    })
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
    try {
      const targets = [cli.apiUrl, `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`]
      for (const target of targets) {
        for (const reporter of ['pretty', 'json', 'junit']) {
          const out = join(folder, `report.${reporter}`)
          const run = runCli(['verify', target, '--key', canary, '--plan', 'pro', '--writes', '--reporter', reporter, '--out', out])
          await run.exited
          const report = readFileSync(out, 'utf8')
          expect(report.length).toBeGreaterThan(100)
          expect(leaks({ stdout: run.stdout(), stderr: run.stderr(), [reporter]: report }), `${target} ${reporter}`).toEqual([])
        }
        const fromEnv = runCli(['verify', target, '--plan', 'pro', '--reporter', 'json'], { PETSTORE_SIM_VERIFY_KEY: canary })
        await fromEnv.exited
        expect(leaks({ stdout: fromEnv.stdout(), stderr: fromEnv.stderr() })).toEqual([])
      }
      const usage = runCli(['verify', 'http://127.0.0.1:1/v1', '--key', canary, '--plan', canary])
      expect(await usage.exited).toBe(2)
      expect(leaks({ stderr: usage.stderr() })).toEqual([])
    } finally {
      echo.closeAllConnections()
      echo.close()
      await cli.stop()
    }
  })
})
