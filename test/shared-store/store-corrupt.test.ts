// Issue 45 (Medium 4, and the class "nothing read from the store is trusted"): another process writes into the
// store's namespace while two instances run. Whatever it writes, each instance stays up, answers a valid answer or
// `503 store_corrupt` naming the key (with Retry-After and the rate-limit headers), says not ready on /__sim/health
// while it lasts, never loops, and serves again once the bad value is removed or the world is reset.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { contractViolations } from '../support/contract.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import {
  apiBase,
  control,
  pollUntil,
  seededRandom,
  startInstances,
  stopInstances,
  storeArgs,
  type StoreAnswer,
  type StoreInstance,
} from '../support/store-fleet.ts'

const namespace = 'corrupt'
const world = `${namespace}:{default}:`
const meta = `${world}meta`
const keys = { 'corrupt-key': 'enterprise:100000/1000000' }
const key = 'corrupt-key'

let server: RedisServer
let fleet: StoreInstance[]

/**
 * One API request: a 503 store_corrupt is outside the contract (as store_unavailable is: the spec knows no shared
 * store), every other answer is contract-checked.
 */
async function callApi(
  instance: StoreInstance,
  path: string,
  options: { key?: string; method?: string; body?: unknown } = {},
): Promise<StoreAnswer> {
  const method = options.method ?? 'GET'
  const headers: Record<string, string> = options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${instance.origin}${apiBase()}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await response.text()
  const body = JSON.parse(text)
  if (response.status !== 503 || body.code !== 'store_corrupt') {
    const violations = contractViolations({ method, apiPath: path, status: response.status, headers: response.headers, bodyText: text })
    expect(violations, `${method} ${path} -> ${response.status} ${text.slice(0, 300)}`).toEqual([])
  }
  return { status: response.status, headers: response.headers, body }
}

beforeAll(async () => {
  server = await startRedisServer()
  fleet = await startInstances(2, storeArgs(server, namespace, keys, [], 1000))
}, 60_000)

afterAll(async () => {
  await stopInstances(fleet ?? [])
  await server?.stop()
})

/** The namespace cleared but for its format mark: the fleet seeds the world again at its next request. */
async function cleared(): Promise<void> {
  const held = server.cli('--scan', '--pattern', `${namespace}:{*`).split('\n').filter(Boolean)
  for (const name of [...held, `${namespace}:sandboxes`]) server.cli('DEL', name)
  await expectServing()
}

async function expectServing(): Promise<void> {
  for (const instance of fleet) {
    const health = await pollUntil(
      () => control(instance, '/health'),
      (answer) => answer.status === 200,
    )
    expect(health.status, JSON.stringify(health.body)).toBe(200)
    const listed = await pollUntil(
      () => callApi(instance, '/pets?limit=2', { key }),
      (answer) => answer.status === 200,
    )
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
  }
}

const epochOf = () => server.cli('HGET', meta, 'epoch')

/** The answer to a value the store holds that this version did not write: 503 store_corrupt, naming the key. */
function expectCorrupt(answer: StoreAnswer, named: string): void {
  expect({ status: answer.status, code: answer.body?.code }, JSON.stringify(answer.body)).toEqual({ status: 503, code: 'store_corrupt' })
  expect(Object.keys(answer.body).sort()).toEqual(['code', 'message', 'status'])
  expect(answer.body.message).toContain(named)
  expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
}

async function expectApiCorrupt(named: string): Promise<void> {
  for (const instance of fleet) {
    const answer = await callApi(instance, '/pets?limit=2', { key })
    expectCorrupt(answer, named)
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(answer.headers.get(name), name).toMatch(/^\d+$/)
    }
  }
}

async function expectNotReady(): Promise<void> {
  for (const instance of fleet) {
    const health = await control(instance, '/health')
    expect(health.status, JSON.stringify(health.body)).toBe(503)
    expect(health.body).toMatchObject({ status: 'unavailable', store: { ready: false } })
    expect(health.body.store.cause).toMatch(/corrupt|holds/)
  }
}

const expectAlive = () => {
  for (const instance of fleet) expect(instance.alive(), instance.cli.stderr()).toBe(true)
}

beforeEach(async () => {
  await cleared()
}, 30_000)

describe('hostile data in the namespace', () => {
  it('a journal entry that is not JSON: no instance ends, the journal says store_corrupt, and XDEL brings it back', async () => {
    // Written while a bounded load runs on both instances: their requests' replies and their tails meet it.
    let id = ''
    const answers: StoreAnswer[] = []
    const worker = async (lane: number) => {
      for (let index = lane; index < 160; index += 8) {
        if (index === 40) id = server.cli('XADD', `${world}journal`, '*', 's', '999999', 'o', 'intruder:1', 'p', 'not json{')
        answers.push(
          await callApi(fleet[index % 2]!, '/pets', { key, method: 'POST', body: { name: `under-load-${index}`, categoryId: 1 } }),
        )
      }
    }
    await Promise.all(Array.from({ length: 8 }, (_, lane) => worker(lane)))
    expect(id).not.toBe('')
    for (const answer of answers) expect([201, 503], JSON.stringify(answer.body)).toContain(answer.status)
    expectAlive()
    for (const instance of fleet) expectCorrupt(await control(instance, '/requests'), `${world}journal`)
    await expectNotReady()
    server.cli('XDEL', `${world}journal`, id)
    await expectServing()
    const listed = await control(fleet[1]!, '/requests?limit=100')
    expect(listed.status).toBe(200)
    expectAlive()
  })

  it('a new instance starts while a bad journal entry is there (not ready), and serves once it is gone', async () => {
    const id = server.cli('XADD', `${world}journal`, '*', 's', '1', 'o', 'intruder:1', 'p', '[1,2')
    const [late] = await startInstances(1, storeArgs(server, namespace, keys, [], 1000))
    try {
      expect((await control(late!, '/health')).status).toBe(503)
      server.cli('XDEL', `${world}journal`, id)
      const health = await pollUntil(
        () => control(late!, '/health'),
        (answer) => answer.status === 200,
      )
      expect(health.status).toBe(200)
    } finally {
      await stopInstances(late === undefined ? [] : [late])
    }
  }, 30_000)

  it('a created pet that is not a pet: 503 store_corrupt naming the list, health not ready, and a reset repairs it', async () => {
    server.cli('RPUSH', `${world}e${epochOf()}:created`, '{"name":42}')
    await expectApiCorrupt(`${world}e${epochOf()}:created`)
    await expectNotReady()
    const reset = await control(fleet[0]!, '/reset', { method: 'POST' })
    expect(reset.status, JSON.stringify(reset.body)).toBe(200)
    await expectServing()
  })

  it("an epoch whose snapshot is not the simulator's: store_corrupt naming the snapshot", async () => {
    server.cli('SET', `${world}e77:snapshot`, '{"pets":"many"}')
    server.cli('HSET', meta, 'epoch', '77')
    // A change of epoch comes with a new version: every copy then reads the world again.
    server.cli('HINCRBY', meta, 'version', '1')
    await expectApiCorrupt(`${world}e77:snapshot`)
    await expectNotReady()
    expect((await control(fleet[1]!, '/reset', { method: 'POST' })).status).toBe(200)
    await expectServing()
  })

  it('a clock field that is not a number: store_corrupt naming the field', async () => {
    server.cli('HSET', meta, 'clockOffsetMs', 'soon')
    await expectApiCorrupt('clockOffsetMs')
    await expectNotReady()
    server.cli('HSET', meta, 'clockOffsetMs', '0')
    await expectServing()
  })

  it('a key of the wrong type (a string where a list is): store_corrupt, not a 500', async () => {
    const created = `${world}e${epochOf()}:created`
    server.cli('DEL', created)
    server.cli('SET', created, 'a string')
    await expectApiCorrupt(world)
    await expectNotReady()
    server.cli('DEL', created)
    await expectServing()
  })

  it('the created pets emptied under the fleet: no loop, and the next createPet is never answered as another pet', async () => {
    for (let index = 0; index < 3; index++) {
      const made = await callApi(fleet[index % 2]!, '/pets', { key, method: 'POST', body: { name: `p${index}`, categoryId: 1 } })
      expect(made.status).toBe(201)
    }
    server.cli('DEL', `${world}e${epochOf()}:created`)
    const before = Number(/total_commands_processed:(\d+)/.exec(server.cli('INFO', 'stats'))![1])
    const rex = await callApi(fleet[0]!, '/pets', { key, method: 'POST', body: { name: 'Rex', categoryId: 1 } })
    if (rex.status === 201) expect(rex.body.name).toBe('Rex')
    else expectCorrupt(rex, `${world}e${epochOf()}:created`)
    const listed = await callApi(fleet[1]!, '/pets?limit=2', { key })
    expectCorrupt(listed, `${world}e${epochOf()}:created`)
    // Idle for half a second: a bounded catch-up sends a handful of commands (the pings, the tails), not thousands.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const after = Number(/total_commands_processed:(\d+)/.exec(server.cli('INFO', 'stats'))![1])
    expect(after - before).toBeLessThan(500)
    expect((await control(fleet[0]!, '/reset', { method: 'POST' })).status).toBe(200)
    await expectServing()
  })

  it('an epoch changed without a new version, its list longer than a reply carries: no loop, store_corrupt naming the epoch', async () => {
    server.cli('HSET', meta, 'epoch', '9')
    for (let index = 0; index < 60; index++)
      server.cli('RPUSH', `${world}e9:created`, JSON.stringify({ name: `intruder-${index}`, categoryId: 1 }))
    const before = Number(/total_commands_processed:(\d+)/.exec(server.cli('INFO', 'stats'))![1])
    for (const instance of fleet) expectCorrupt(await callApi(instance, '/pets?limit=2', { key }), `${meta}, field epoch`)
    await expectNotReady()
    // Bounded: the two refusals and the health checks' reads took some commands, not a loop of them.
    const after = Number(/total_commands_processed:(\d+)/.exec(server.cli('INFO', 'stats'))![1])
    expect(after - before).toBeLessThan(500)
    const listed = await callApi(fleet[0]!, '/pets?limit=100', { key })
    if (listed.status === 200) expect(listed.body.some((pet: { name: string }) => pet.name.startsWith('intruder'))).toBe(false)
    expect((await control(fleet[1]!, '/reset', { method: 'POST' })).status).toBe(200)
    await expectServing()
  })
})

/** A value of a random kind: text, JSON of the wrong shape, a number, or a key of another type. */
function corruptValue(random: () => number): { readonly kind: string; write(name: string, field?: string): void } {
  const texts = ['', 'x', '{', '[]', 'null', '{"a":1}', '-1', 'NaN', '1e999', '"s"', '{"name":{}}', '9007199254740993']
  const text = texts[Math.floor(random() * texts.length)]!
  const kinds = ['text', 'list', 'set', 'hash'] as const
  const kind = kinds[Math.floor(random() * kinds.length)]!
  return {
    kind: `${kind} ${JSON.stringify(text)}`,
    write(name, field) {
      if (kind === 'text' && field !== undefined) server.cli('HSET', name, field, text)
      else if (kind === 'text') server.cli('SET', name, text)
      else {
        server.cli('DEL', name)
        if (kind === 'list') server.cli('RPUSH', name, text)
        if (kind === 'set') server.cli('SADD', name, text)
        if (kind === 'hash') server.cli('HSET', name, 'f', text)
      }
    },
  }
}

describe('a random corrupt value in each kind of key', () => {
  it('leaves every instance up, answering valid answers or 503 store_corrupt, its health agreeing', { timeout: 120_000 }, async () => {
    const random = seededRandom(45)
    const targets: ((epoch: string) => { name: string; field?: string })[] = [
      () => ({ name: meta, field: 'epoch' }),
      () => ({ name: meta, field: 'version' }),
      () => ({ name: meta, field: 'clockOffsetMs' }),
      () => ({ name: meta, field: 'clockFrozenAt' }),
      () => ({ name: meta, field: 'faults' }),
      () => ({ name: meta, field: 'nextId' }),
      (epoch) => ({ name: `${world}e${epoch}:snapshot` }),
      (epoch) => ({ name: `${world}e${epoch}:created` }),
      (epoch) => ({ name: `${world}e${epoch}:callers` }),
      (epoch) => ({ name: `${world}e${epoch}:rl:key:${key}` }),
      () => ({ name: `${world}journal` }),
      () => ({ name: `${world}journal-seq` }),
      () => ({ name: `${world}fault-times` }),
      (epoch) => ({ name: `${world}e${epoch}:anonymous` }),
      (epoch) => ({ name: `${world}e${epoch}:rl:anonymous:127.0.0.1` }),
      () => ({ name: `${namespace}:sandboxes` }),
      () => ({ name: `${namespace}:{sandbox:s1}:meta`, field: 'epoch' }),
    ]
    for (let run = 0; run < 2 * targets.length; run++) {
      // Each run with a sandbox and an anonymous caller in the store, for their keys to be there to corrupt.
      expect((await callApi(fleet[run % 2]!, '/pets?limit=1')).status).toBe(401)
      expect((await control(fleet[run % 2]!, '/sandboxes/s1', { method: 'PUT' })).status).toBeLessThan(300)
      const target = targets[run % targets.length]!(epochOf())
      const value = corruptValue(random)
      const what = `run ${run}: ${target.name} ${target.field ?? ''} <- ${value.kind}`
      value.write(target.name, target.field)
      const answers = [
        await callApi(fleet[run % 2]!, '/pets?limit=2', { key }),
        await callApi(fleet[(run + 1) % 2]!, '/pets', { key, method: 'POST', body: { name: 'Rex', categoryId: 1 } }),
        await control(fleet[run % 2]!, '/state'),
        await control(fleet[(run + 1) % 2]!, '/requests?limit=5'),
        await callApi(fleet[run % 2]!, '/pets?limit=1'),
        await control(fleet[(run + 1) % 2]!, '/sandboxes'),
        await control(fleet[run % 2]!, '/state', { sandbox: 's1' }),
      ]
      expectAlive()
      for (const [index, answer] of answers.entries()) {
        expect(answer.status, `${what}: answer ${index} ${JSON.stringify(answer.body)}`).not.toBe(500)
        if (answer.status === 503) expect(answer.body?.code, what).toBe('store_corrupt')
        if (index === 1 && answer.status === 201) expect(answer.body.name, what).toBe('Rex')
      }
      const corruptOn = new Set(
        answers.flatMap((answer, index) => (answer.status === 503 ? [index % 2 === 0 ? run % 2 : (run + 1) % 2] : [])),
      )
      for (const index of corruptOn) expect((await control(fleet[index]!, '/health')).status, `${what}: health`).toBe(503)
      await cleared()
    }
  })
})
