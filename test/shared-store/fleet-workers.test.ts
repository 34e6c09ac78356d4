// Issue 40: every core. One process with `--workers 2` on a store answers as one API: the same exact limits as a
// fleet of processes, whichever worker each connection reaches, and one journal.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import {
  callApi,
  controlOk,
  freezeClock,
  limitHeaders,
  startInstances,
  stopInstances,
  storeArgs,
  type StoreInstance,
} from '../support/store-fleet.ts'

const frozenAt = '2030-06-15T10:00:30.000Z'
const key = 'workers-key'
const writer = 'workers-writer-key'

let server: RedisServer
let workers: StoreInstance

beforeAll(async () => {
  server = await startRedisServer()
  ;[workers] = (await startInstances(
    1,
    storeArgs(server, 'fleet-workers', { [key]: 'enterprise:50/100000', [writer]: 'business' }, ['--workers', '2']),
  )) as [StoreInstance]
  await freezeClock(workers, frozenAt)
}, 60_000)

afterAll(async () => {
  if (workers !== undefined) await stopInstances([workers])
  await server?.stop()
})

it('gives exactly 50 successes of 200 concurrent requests for a limit of 50, over two workers', async () => {
  // Each request on a connection of its own (the default dispatcher opens one per request in flight): the workers share them.
  const answers = await Promise.all(Array.from({ length: 200 }, () => callApi(workers, '/pets?limit=1', { key })))
  const statuses = answers.map((answer) => answer.status)
  expect({ ok: statuses.filter((status) => status === 200).length, refused: statuses.filter((status) => status === 429).length }).toEqual({
    ok: 50,
    refused: 150,
  })
  const remaining = answers.filter((answer) => answer.status === 200).map((answer) => limitHeaders(answer).remaining)
  expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index))
  for (const refused of answers.filter((answer) => answer.status === 429)) {
    expect(['rate_limit_exceeded', 'api_key_banned']).toContain(refused.body.code)
    expect(limitHeaders(refused)).toMatchObject({ limit: 50, remaining: 0 })
  }
  // One journal: every read, whichever worker answers it, counts the 200.
  const counts = await Promise.all(Array.from({ length: 6 }, () => controlOk(workers, `/requests/count?key=${key}`)))
  expect(counts).toEqual(Array(6).fill({ count: 200 }))
})

it('reads on every connection a pet created on one, and one id sequence for pets created at once', async () => {
  const created = await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      callApi(workers, '/pets', { key: writer, method: 'POST', body: { name: `Worker pet ${index}`, categoryId: 1 } }),
    ),
  )
  expect(created.map((answer) => answer.status)).toEqual(Array(20).fill(201))
  const ids = created.map((answer) => answer.body.id as number).sort((a, b) => a - b)
  expect(new Set(ids).size).toBe(20)
  expect(ids.at(-1)! - ids[0]!).toBe(19)
  const reads = await Promise.all(created.map((answer) => callApi(workers, `/pets/${answer.body.id}`, { key: writer })))
  expect(reads.map((answer) => answer.body)).toEqual(created.map((answer) => answer.body))
})

it('answers the health probe ready', async () => {
  expect(await controlOk(workers, '/health')).toMatchObject({ status: 'ok', store: { ready: true } })
})
