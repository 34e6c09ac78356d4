import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, expect, it } from 'vitest'
import { startCli } from '../support/cli-process.ts'

// Issue 37: after a restart with --state, a fault rule of the last run made GET /v1/pets/51 answer 404 for a pet that
// exists, while the banner named only the file and the log marked neither forced nor faulted answers.

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-restored-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const running: Array<{ stop(): Promise<unknown> }> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop()))
})
const headers = { Authorization: 'Bearer demo-pro-key' }

async function start(args: string[]) {
  const cli = await startCli(['--port', '0', ...args])
  running.push(cli)
  return cli
}

/** Waits (bounded) until stdout holds `text`. */
async function logged(cli: { stdout(): string }, text: string): Promise<string> {
  const deadline = Date.now() + 5000
  while (!cli.stdout().includes(text) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  return cli.stdout()
}

it('a restart with --state announces what it restored: pets, keys used, the clock, the fault rules left', async () => {
  const state = join(directory, 'restart.json')
  const first = await start(['--state', state, '--fault', 'getPet 404 times=3'])
  expect(first.stdout()).toContain('\n  no file there yet: a fresh start\n')
  const moved = await fetch(`${first.origin}/__sim/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ freeze: true, set: '2030-01-02T03:04:05.000Z' }),
  })
  expect(moved.status).toBe(200)
  await (await fetch(`${first.apiUrl}/pets/1`, { headers })).arrayBuffer()
  const created = await fetch(`${first.apiUrl}/pets`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Kept', categoryId: 1 }),
  })
  expect(created.status).toBe(201)
  await first.stop()
  running.splice(0)

  const second = await start(['--state', state])
  const banner = second.stdout()
  expect(banner).toContain(`State file: ${state} (saved on exit`)
  expect(banner).toContain('\n  restored: 51 pets (1 created by earlier runs)\n')
  expect(banner).toContain('\n  keys used today: demo-pro-key 2\n')
  expect(banner).toContain('\n  clock: frozen at 2030-01-02T03:04:05.000Z\n')
  expect(banner).toContain('\n  fault rules: f1: getPet 404 (2 left) (DELETE /__sim/faults removes them)\n')

  const json = await start(['--state', state, '--log', 'json'])
  const line = JSON.parse(json.stdout().split('\n')[0]!) as { state: unknown }
  expect(line.state).toEqual({
    path: state,
    found: 'state',
    pets: 51,
    createdPets: 1,
    keysUsed: [{ key: 'demo-pro-key', today: 2, bannedUntil: null }],
    clock: { offsetMs: expect.any(Number), frozenAt: '2030-01-02T03:04:05.000Z' },
    faults: ['f1: getPet 404 (2 left)'],
  })
})

it('an empty (0-byte) --state file is a fresh start, and the banner says so', async () => {
  const state = join(directory, 'empty.json')
  writeFileSync(state, '')
  const cli = await start(['--state', state])
  expect(cli.stdout()).toContain('\n  the file is empty (0 bytes): a fresh start; it is written at the first save\n')
  expect((await fetch(`${cli.apiUrl}/pets/1`, { headers })).status).toBe(200)
  await cli.stop()
  running.splice(0)
  expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ format: 1 })
})

it('the pretty log marks forced and faulted answers, and the JSON log has the fields', async () => {
  const pretty = await start(['--log', 'pretty', '--fault', 'getPet 503 times=1'])
  await (await fetch(`${pretty.apiUrl}/pets/1`, { headers })).arrayBuffer()
  await (await fetch(`${pretty.apiUrl}/pets/2`, { headers: { ...headers, Prefer: 'code=404' } })).arrayBuffer()
  const out = await logged(pretty, 'GET /v1/pets/2')
  expect(out).toMatch(/\nGET \/v1\/pets\/1 503 \S+ \d+\.\dms pro key#[0-9a-f]{8} \(fault: f1\)\n/)
  expect(out).toMatch(/\nGET \/v1\/pets\/2 404 pet_not_found \d+\.\dms pro key#[0-9a-f]{8} \(forced\)\n/)

  const json = await start(['--log', 'json', '--fault', 'getPet 503 times=1'])
  await (await fetch(`${json.apiUrl}/pets/1`, { headers })).arrayBuffer()
  await (await fetch(`${json.apiUrl}/pets/2`, { headers: { ...headers, Prefer: 'code=404' } })).arrayBuffer()
  await (await fetch(`${json.apiUrl}/pets/3`, { headers })).arrayBuffer()
  const lines = (await logged(json, '/v1/pets/3'))
    .trim()
    .split('\n')
    .slice(1)
    .map((text) => JSON.parse(text) as Record<string, unknown>)
  expect(lines.map(({ path, fault, forced }) => ({ path, fault, forced }))).toEqual([
    { path: '/v1/pets/1', fault: 'f1', forced: undefined },
    { path: '/v1/pets/2', fault: undefined, forced: true },
    { path: '/v1/pets/3', fault: undefined, forced: undefined },
  ])
})

it('an empty PETSTORE_SIM_STATE is no state file: the image’s default taken back, as compose files do', async () => {
  const cli = await startCli(['--port', '0'], { PETSTORE_SIM_STATE: '' })
  running.push(cli)
  expect((await fetch(`${cli.origin}/v1/pets?limit=1`, { headers })).status).toBe(200)
  await cli.stop()
  // Read as a path, '' was a state file named nothing: a banner line for it, and a failed save at exit.
  expect(cli.stdout()).toMatch(/^petstore-sim listening on /)
  expect(cli.stdout() + cli.stderr()).not.toMatch(/state file|--state/i)
})
