// Issue 40: rate limits exact across a fleet. Three simulator processes on one store answer as one API: a key
// limited to 50 a minute gets exactly 50 successes out of 200 concurrent requests, however they are split across
// the instances, and a ban set through one instance is enforced by every other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import {
  callApi,
  controlOk,
  freezeClock,
  limitHeaders,
  seededRandom,
  startInstances,
  stopInstances,
  storeArgs,
  type StoreAnswer,
  type StoreInstance,
} from '../support/store-fleet.ts'

/** Thirty seconds into a UTC minute: every request of a split falls in one minute window. */
const frozenAt = '2030-06-15T10:00:30.000Z'
const frozenMs = Date.parse(frozenAt)
const nextMinute = Math.ceil(frozenMs / 60_000) * 60_000
const banMs = 10 * 60_000

/** The splits of 200 requests over three instances: which instance each request goes to. */
const requestCount = 200
const random = seededRandom(40)
const splits: Record<string, number[]> = {
  'all on one instance': Array.from({ length: requestCount }, () => 0),
  'round robin over three': Array.from({ length: requestCount }, (_, index) => index % 3),
  'half and half over two': Array.from({ length: requestCount }, (_, index) => (index < requestCount / 2 ? 1 : 2)),
  'at random (seed 40)': Array.from({ length: requestCount }, () => Math.floor(random() * 3)),
}
/** One key per split, each limited to 50 a minute (and far more a day): the splits never share a count. */
const splitKeys = Object.fromEntries(Object.keys(splits).map((name, index) => [name, `split-key-${index}`]))
const keys = {
  ...Object.fromEntries(Object.values(splitKeys).map((token) => [token, 'enterprise:50/100000'])),
  'ban-key': 'enterprise:3/1000',
  'spread-ban-key': 'enterprise:3/1000',
}

let server: RedisServer
let fleet: StoreInstance[]

beforeAll(async () => {
  server = await startRedisServer()
  fleet = await startInstances(3, storeArgs(server, 'fleet-limits', keys))
  // Set through the first instance: the clock is the fleet's (the splits below send to all three).
  await freezeClock(fleet[0]!, frozenAt)
}, 60_000)

afterAll(async () => {
  await stopInstances(fleet ?? [])
  await server?.stop()
})

const codes = (answers: readonly StoreAnswer[]) => answers.map((answer) => (answer.status === 200 ? 200 : answer.body.code))
const count = (values: readonly unknown[], value: unknown) => values.filter((candidate) => candidate === value).length

describe('a limit of 50 a minute across three instances on one store', () => {
  it.each(Object.keys(splits))('gives exactly 50 successes of 200 concurrent requests sent %s', async (split) => {
    const key = splitKeys[split]!
    const answers = await Promise.all(splits[split]!.map((instance) => callApi(fleet[instance]!, '/pets?limit=1', { key })))
    const statuses = answers.map((answer) => answer.status)
    expect({ 200: count(statuses, 200), 429: count(statuses, 429) }).toEqual({ 200: 50, 429: 150 })

    // Exact, not merely bounded: each of the 50 successes had its own place in the one count (remaining 49 down to 0).
    const remaining = answers.filter((answer) => answer.status === 200).map((answer) => limitHeaders(answer).remaining)
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index))

    // The refusals as the in-memory limiter gives them: 10 in a row are rate_limit_exceeded, then the ban (the
    // default policy) answers the other 140, whichever instance each reached.
    const refusedCodes = codes(answers).filter((code) => code !== 200)
    expect({ limited: count(refusedCodes, 'rate_limit_exceeded'), banned: count(refusedCodes, 'api_key_banned') }).toEqual({
      limited: 10,
      banned: 140,
    })
    for (const answer of answers.filter((candidate) => candidate.status === 429)) {
      expect(Object.keys(answer.body).sort()).toEqual(['code', 'message', 'status'])
      const banned = answer.body.code === 'api_key_banned'
      expect(limitHeaders(answer)).toEqual({
        limit: 50,
        remaining: 0,
        // The minute window ends at the next minute (30 s on); a ban set at the frozen instant ends 10 minutes on.
        reset: (banned ? frozenMs + banMs : nextMinute) / 1000,
        retryAfter: banned ? banMs / 1000 : (nextMinute - frozenMs) / 1000,
      })
    }
  })
})

describe('bans across instances', () => {
  it('enforces on every instance a ban set through one (10 429s in a row, the default policy)', async () => {
    const key = 'ban-key'
    const [first, second, third] = fleet as [StoreInstance, StoreInstance, StoreInstance]
    for (let index = 0; index < 3; index++) expect((await callApi(first, '/pets?limit=1', { key })).status).toBe(200)
    const refused = []
    for (let index = 0; index < 10; index++) refused.push(await callApi(first, '/pets?limit=1', { key }))
    expect(codes(refused)).toEqual(Array(10).fill('rate_limit_exceeded'))

    for (const other of [second, third]) {
      const banned = await callApi(other, '/pets?limit=1', { key })
      expect({ status: banned.status, code: banned.body.code }).toEqual({ status: 429, code: 'api_key_banned' })
      expect(limitHeaders(banned)).toEqual({ limit: 3, remaining: 0, reset: (frozenMs + banMs) / 1000, retryAfter: 600 })
    }
    // Ten minutes on, moved through the second instance: the ban is over on the first.
    await controlOk(second, '/clock', { method: 'POST', body: { advance: '10m' } })
    expect((await callApi(first, '/pets?limit=1', { key })).status).toBe(200)
    // Back to the instant the other tests use.
    await freezeClock(third, frozenAt)
  })

  it('counts 429s in a row across instances: refusals spread over two make the ban the third enforces', async () => {
    const key = 'spread-ban-key'
    const [first, second, third] = fleet as [StoreInstance, StoreInstance, StoreInstance]
    for (let index = 0; index < 3; index++) expect((await callApi(fleet[index]!, '/pets?limit=1', { key })).status).toBe(200)
    const refused = []
    for (let index = 0; index < 10; index++) refused.push(await callApi(index % 2 === 0 ? first : second, '/pets?limit=1', { key }))
    expect(codes(refused)).toEqual(Array(10).fill('rate_limit_exceeded'))
    const banned = await callApi(third, '/pets?limit=1', { key })
    expect({ status: banned.status, code: banned.body.code }).toEqual({ status: 429, code: 'api_key_banned' })
  })
})
