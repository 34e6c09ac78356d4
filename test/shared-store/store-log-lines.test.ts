// Issue 46: an operator is told when the store is lost, when it is back, and when a world the store lost is seeded
// again, with what is gone (re-seeding silently dropped created pets and a frozen clock): one line each, as a JSON
// line with `--log json`, on stderr with the pretty log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import {
  callApi,
  controlOk,
  freezeClock,
  pollUntil,
  startInstances,
  stopInstances,
  storeArgs,
  type StoreInstance,
} from '../support/store-fleet.ts'

const key = 'store-log-key'
const frozenAt = '2031-05-06T07:08:09.000Z'

let server: RedisServer
let json: StoreInstance
let pretty: StoreInstance

beforeAll(async () => {
  server = await startRedisServer()
  const args = (log: string) => storeArgs(server, 'store-log', { [key]: 'enterprise:1000/100000' }, ['--log', log], 500)
  json = (await startInstances(1, args('json')))[0]!
  pretty = (await startInstances(1, args('pretty')))[0]!
}, 60_000)

afterAll(async () => {
  await stopInstances([json, pretty].filter(Boolean))
  await server?.stop()
})

/** The JSON lines of the store's events the instance printed (its request lines left out). */
const events = (instance: StoreInstance) =>
  instance.cli
    .stdout()
    .split('\n')
    .filter((line) => line.includes('"event"'))
    .map((line) => JSON.parse(line) as { level: string; message: string; event: string; time: string })

describe('log lines of the store', () => {
  it('says the store is lost, back, and that the world was seeded again, naming the pets created and the frozen clock', {
    timeout: 30_000,
  }, async () => {
    expect((await callApi(json, '/pets', { key, method: 'POST', body: { name: 'Lost Rex', categoryId: 1 } })).status).toBe(201)
    await freezeClock(json, frozenAt)
    await controlOk(pretty, '/health')
    expect(events(json)).toEqual([])
    await server.kill()
    await pollUntil(
      async () => events(json),
      (lines) => lines.some((line) => line.event === 'store_lost'),
    )
    await server.restart()
    await pollUntil(
      async () => events(json),
      (lines) => lines.some((line) => line.event === 'store_back'),
    )
    // The next request finds the world gone: seeded again from the options.
    await pollUntil(
      async () => (await callApi(json, '/pets?limit=1', { key })).status,
      (status) => status === 200,
    )
    const lines = events(json)
    expect(lines.map((line) => [line.event, line.level])).toEqual([
      ['store_lost', 'warn'],
      ['store_back', 'info'],
      ['world_reseeded', 'warn'],
    ])
    for (const line of lines) expect(line.message).toContain(`the shared store at unix://${server.socketPath}`)
    expect(lines[0]!.message).toMatch(/is unreachable .*503 store_unavailable/)
    expect(lines[2]!.message).toContain('lost the world default')
    expect(lines[2]!.message).toContain('1 pet created since the last reset')
    expect(lines[2]!.message).toContain(`the frozen clock (${frozenAt})`)
    // The pretty log: the same lines on stderr.
    await pollUntil(
      async () => (await callApi(pretty, '/pets?limit=1', { key })).status,
      (status) => status === 200,
    )
    const stderr = pretty.cli.stderr()
    expect(stderr).toMatch(/^petstore-sim: the shared store at \S+ is unreachable .*503 store_unavailable until it is back$/m)
    expect(stderr).toMatch(/^petstore-sim: the shared store at \S+ answers again$/m)
    expect(stderr).toMatch(
      /^petstore-sim: the shared store at \S+ lost the world default .*lost: .*the frozen clock \(2031-05-06T07:08:09\.000Z\)/m,
    )
  })
})
