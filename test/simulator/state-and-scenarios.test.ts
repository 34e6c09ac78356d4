import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { parseSnapshot } from '../../src/core/state/state-snapshot.ts'
import { runCli, startCli } from '../support/cli-process.ts'

const proKey = 'demo-pro-key'
const json = { 'content-type': 'application/json' }
const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-state-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

type Send = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>

/** The two ways to reach the control plane over HTTP: the app's own fetch, and the real CLI on a port. */
const lanes: Record<string, () => Promise<{ send: Send; close(): Promise<unknown> }>> = {
  'app.fetch': async () => {
    const app = createApp({ seed: 3, pets: 12 })
    const send: Send = async (method, path, body) => {
      const request = new Request(`http://localhost:4010${path}`, {
        method,
        headers: { ...json, authorization: `Bearer ${proKey}` },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      })
      const response = await app.fetch(request, { clientAddress: '127.0.0.1' })
      return { status: response.status, body: await response.json() }
    }
    return { send, close: async () => {} }
  },
  CLI: async () => {
    const cli = await startCli(['--port', '0', '--log', 'silent', '--seed', '3', '--pets', '12'])
    const send: Send = async (method, path, body) => {
      const response = await fetch(`${cli.origin}${path}`, {
        method,
        headers: { ...json, authorization: `Bearer ${proKey}` },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      })
      return { status: response.status, body: await response.json() }
    }
    return { send, close: () => cli.stop() }
  },
}

for (const [name, start] of Object.entries(lanes)) {
  describe(`snapshots and scenarios over HTTP [${name}]`, () => {
    let lane: Awaited<ReturnType<(typeof lanes)[string]>> | undefined
    const send: Send = (...args) => lane!.send(...args)
    afterEach(async () => {
      await lane?.close()
      lane = undefined
    })

    it('GET /__sim/snapshot gives the state; PUT restores it, and a bad one is a 400 that changes nothing', async () => {
      lane = await start()
      expect((await send('POST', '/v1/pets', { name: 'Persisted Rex', categoryId: 2 })).status).toBe(201)
      const snapshot = await send('GET', '/__sim/snapshot')
      expect(snapshot.status).toBe(200)
      expect(snapshot.body).toMatchObject({ format: 1, scenario: 'default', catalogue: { nextId: 14 } })
      expect(JSON.stringify(snapshot.body)).not.toContain(proKey)

      expect((await send('POST', '/__sim/reset')).status).toBe(200)
      expect((await send('GET', '/v1/pets/13')).status).toBe(404)
      const restored = await send('PUT', '/__sim/snapshot', snapshot.body)
      expect(restored).toEqual({ status: 200, body: { status: 'restored', scenario: 'default', pets: 13 } })
      expect((await send('GET', '/v1/pets/13')).body).toEqual({ id: 13, name: 'Persisted Rex', categoryId: 2, status: 'available' })

      const refused = await send('PUT', '/__sim/snapshot', {
        ...snapshot.body,
        catalogue: { nextId: 1, pets: snapshot.body.catalogue.pets },
      })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ code: 'invalid_body', status: 400 })
      expect(refused.body.message).toMatch(/not below nextId 1/)
      expect((await send('GET', '/v1/pets/13')).status).toBe(200)
      expect((await send('PUT', '/__sim/snapshot', '{"format":')).status).toBe(400)
    })

    it('lists scenarios, switches to sunset (getPet 410) and empty, and 404s an unknown one', async () => {
      lane = await start()
      const listed = await send('GET', '/__sim/scenario')
      expect(listed.status).toBe(200)
      expect(listed.body.active).toBe('default')
      expect(listed.body.available.map((scenario: { name: string }) => scenario.name)).toEqual([
        'default',
        'empty',
        'all-sold',
        'sunset',
        'rate-limited',
        'degraded',
      ])
      expect((await send('GET', '/v1/pets/1')).status).toBe(200)
      expect(await send('POST', '/__sim/scenario', { name: 'sunset' })).toEqual({ status: 200, body: { active: 'sunset', pets: 12 } })
      expect((await send('GET', '/v1/pets/1')).body).toMatchObject({ status: 410, code: 'endpoint_removed' })
      expect((await send('GET', '/__sim/scenario')).body.active).toBe('sunset')

      expect((await send('POST', '/__sim/scenario', { name: 'empty' })).body).toEqual({ active: 'empty', pets: 0 })
      expect((await send('GET', '/v1/pets')).body).toEqual([])
      await send('POST', '/v1/pets', { name: 'Solo', categoryId: 1 })
      expect((await send('POST', '/__sim/reset')).status).toBe(200)
      expect((await send('GET', '/v1/pets')).body).toEqual([])

      const unknown = await send('POST', '/__sim/scenario', { name: 'mars' })
      expect(unknown.status).toBe(404)
      expect(unknown.body).toMatchObject({ code: 'scenario_not_found', status: 404 })
      expect((await send('POST', '/__sim/scenario', { nom: 'empty' })).status).toBe(400)
      expect((await send('GET', '/__sim/scenario')).body.active).toBe('empty')
    })

    it('rate-limited answers 429 at once', async () => {
      lane = await start()
      await send('POST', '/__sim/scenario', { name: 'rate-limited' })
      expect((await send('GET', '/v1/pets')).body).toMatchObject({ status: 429, code: 'rate_limit_exceeded' })
    })
  })
}

describe('the CLI: --scenario and --state', () => {
  it('--scenario empty lists no pets; an unknown scenario exits 2 naming it', async () => {
    const cli = await startCli(['--port', '0', '--log', 'silent', '--scenario', 'empty'])
    try {
      const response = await fetch(`${cli.apiUrl}/pets`, { headers: { authorization: `Bearer ${proKey}` } })
      expect(await response.json()).toEqual([])
    } finally {
      await cli.stop()
    }
    const unknown = runCli(['--port', '0', '--scenario', 'mars'])
    expect(await unknown.exited).toBe(2)
    expect(unknown.stderr()).toMatch(/No scenario "mars"/)
  })

  it('keeps a pet created before SIGTERM across a restart with the same --state file', async () => {
    const file = join(directory, 'restart.json')
    const first = await startCli(['--port', '0', '--log', 'silent', '--state', file])
    const created = await fetch(`${first.apiUrl}/pets`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${proKey}` },
      body: JSON.stringify({ name: 'Survivor', categoryId: 4 }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    expect(await first.stop()).toBe(0)
    expect(parseSnapshot(JSON.parse(readFileSync(file, 'utf8'))).catalogue.pets.some((pet) => pet.name === 'Survivor')).toBe(true)

    const second = await startCli(['--port', '0', '--log', 'silent', '--state', file])
    try {
      const response = await fetch(`${second.apiUrl}/pets/${id}`, { headers: { authorization: `Bearer ${proKey}` } })
      expect(await response.json()).toEqual({ id, name: 'Survivor', categoryId: 4, status: 'available' })
    } finally {
      await second.stop()
    }
  })

  it('refuses at start, with exit code 2 and one line, a --state whose folder does not exist', async () => {
    const cli = runCli(['--port', '0', '--state', join(directory, 'no-such-folder', 'state.json')])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr().trim()).toMatch(
      /^petstore-sim: --state: \S+state\.json cannot be written: the folder \S+no-such-folder does not exist$/,
    )
    expect(cli.stdout()).toBe('')
  })

  it('reports a failed save once, saves again when it can, and exits 1 with one line when the last save fails', async () => {
    const folder = join(directory, 'comes-and-goes')
    mkdirSync(folder)
    const file = join(folder, 'state.json')
    const cli = await startCli(['--port', '0', '--log', 'silent', '--state', file, '--state-interval', '20ms'])
    const create = (name: string) =>
      fetch(`${cli.apiUrl}/pets`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${proKey}` },
        body: JSON.stringify({ name, categoryId: 1 }),
      })
    const waitFor = async (done: () => boolean) => {
      const deadline = Date.now() + 10_000
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    rmSync(folder, { recursive: true })
    for (let index = 0; index < 5; index++) {
      expect((await create(`Unsaved ${index}`)).status).toBe(201)
      await new Promise((resolve) => setTimeout(resolve, 40))
    }
    await waitFor(() => cli.stderr().includes('cannot write'))
    expect(cli.stderr().match(/cannot write/g)).toHaveLength(1)
    mkdirSync(folder)
    expect((await create('Saved again')).status).toBe(201)
    await waitFor(() => existsSync(file) && readFileSync(file, 'utf8').includes('Saved again'))
    expect(
      JSON.parse(readFileSync(file, 'utf8')).catalogue.pets.filter((pet: { name: string }) => pet.name.startsWith('Unsaved')),
    ).toHaveLength(5)
    expect(cli.stderr()).toMatch(/is saved again/)
    // The folder goes for good: the save at SIGTERM fails, said in one line, with exit code 1 and no stack trace.
    rmSync(folder, { recursive: true })
    expect(await cli.stop()).toBe(1)
    const lines = cli.stderr().trim().split('\n')
    expect(lines.at(-1)).toMatch(/^petstore-sim: --state: cannot write \S+ \(ENOENT: [^)]*\); the state of this run is not saved$/)
    expect(cli.stderr()).not.toMatch(/^\s+at /m)
  })

  it('never leaves a torn file when killed (SIGKILL) while it writes', { timeout: 60_000 }, async () => {
    const file = join(directory, 'killed.json')
    const rounds = 3
    for (let round = 0; round < rounds; round++) {
      // 200,000 pets: a 13 MB file, long enough to write that the kill lands during a write.
      const cli = await startCli(
        ['--port', '0', '--log', 'silent', '--pets', '200000', '--state', file, '--state-interval', '50ms'],
        {},
        30_000,
      )
      // Temporary files are `.killed.json.<pid>.<random>.tmp`.
      const temporaryPrefix = `.killed.json.${cli.child.pid}.`
      const writing = () => readdirSync(directory).some((name) => name.startsWith(temporaryPrefix) && name.endsWith('.tmp'))
      const create = () =>
        fetch(`${cli.apiUrl}/pets`, {
          method: 'POST',
          headers: { ...json, authorization: 'Bearer demo-enterprise-key' },
          body: JSON.stringify({ name: `Round ${round}`, categoryId: 1 }),
        })
      const roundStart = Date.now()
      const deadline = roundStart + 15_000
      // First one whole write in this round, so that there is a file to tear.
      while (!(existsSync(file) && statSync(file).mtimeMs >= roundStart) && Date.now() < deadline) {
        await create()
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      // Each request changes the state (a created pet), so every interval writes; the kill comes as soon as a write has begun.
      let caught = false
      while (!caught && Date.now() < deadline) {
        await create()
        for (let poll = 0; poll < 50 && !caught; poll++) {
          if (writing()) {
            cli.child.kill('SIGKILL')
            caught = true
          } else await new Promise((resolve) => setTimeout(resolve, 2))
        }
      }
      if (!caught) cli.child.kill('SIGKILL')
      expect(await cli.exited).toBe('SIGKILL')
      expect(caught, 'the kill landed during a write').toBe(true)
      expect(() => parseSnapshot(JSON.parse(readFileSync(file, 'utf8')))).not.toThrow()
    }
    // What the kills left starts a simulator.
    const after = await startCli(['--port', '0', '--log', 'silent', '--state', file], {}, 30_000)
    try {
      const health = (await (await fetch(`${after.origin}/__sim/health`)).json()) as { pets: number }
      expect(health.pets).toBeGreaterThanOrEqual(200_000)
    } finally {
      await after.stop()
    }
  })

  it.each([
    ['not JSON', '{"format": 1, "catalogue": ['],
    ['not a snapshot', '{"format": 2}'],
  ])('stops with exit 2 on a --state file that is %s, naming it, and leaves it untouched', async (_kind, text) => {
    const file = join(directory, 'corrupt.json')
    writeFileSync(file, text)
    const before = statSync(file).mtimeMs
    const cli = runCli(['--port', '0', '--state', file])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toContain(file)
    expect(cli.stderr()).toMatch(/left as it is/)
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(statSync(file).mtimeMs).toBe(before)
  })
})
