import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaults } from '../../src/core/defaults.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { callApi, controlOk, pollUntil, startInstances, stopInstances, storeArgs } from '../support/store-fleet.ts'
import { startFleet } from './fleet.ts'

// Issue 45, High 1: the store's journal stream kept each request's whole body (up to --body-limit) and the answer,
// capped at 1,000 entries and no bytes: 1,000 createPets of 1 MiB took Redis to 1.5 GiB, and a new instance could no
// longer start (one XRANGE of the whole stream within --store-timeout), nor could a killed worker of --workers 2. The
// stream keeps each body as the journal does (at most journalBodyCapBytes, marked truncated) and at most
// journalMaxBytes per world; a starting instance reads it in pages.
const kib = 1024
const bodyBytes = 256 * kib
const floods = 200
/** The stream's budget, with Redis's own overhead per entry (its radix tree and listpacks) on top. */
const streamBudget = defaults.journalMaxBytes * 1.25

let redis: RedisServer
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(async () => {
  await redis?.stop()
})

/** A createPet of about `bytes`, whatever the API answers it (a body of this size is journaled either way). */
const bigPet = (bytes: number) => JSON.stringify({ name: 'Rex', categoryId: 1, note: 'x'.repeat(bytes) })

function streamMemory(namespace: string): number {
  return Number(redis.cli('MEMORY', 'USAGE', `${namespace}:{default}:journal`, 'SAMPLES', '0'))
}

/** A createPet with the public enterprise demo key; its status. */
async function createAt(origin: string, body: string): Promise<number> {
  const answer = await fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer demo-enterprise-key', 'content-type': 'application/json' },
    body,
  })
  await answer.arrayBuffer()
  return answer.status
}

const workerPids = (parent: number | undefined) =>
  spawnSync('pgrep', ['-P', String(parent)], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .filter((pid) => pid !== '')

/** Sends `count` large createPets, 8 at a time; each answer's status. */
async function flood(send: (body: string) => Promise<number>, count: number): Promise<number[]> {
  const statuses: number[] = []
  for (let sent = 0; sent < count; sent += 8) {
    statuses.push(...(await Promise.all(Array.from({ length: Math.min(8, count - sent) }, () => send(bigPet(bodyBytes))))))
  }
  return statuses
}

describe('the journal stream is bounded in bytes (issue 45, High 1)', () => {
  it('holds capped bodies within the world budget, and a new instance starts and shows them truncated', async () => {
    const namespace = 'budget-in-process'
    const options = { bodyLimit: 512 * kib }
    const fleet = await startFleet(1, { url: redis.socketUrl, namespace, timeoutMs: 1000 }, options)
    try {
      const statuses = await flood((body) => createAt(fleet.origins[0]!, body), floods)
      // Every one answered by the API (none refused by a limit before its body was read).
      expect(statuses.filter((status) => status === 429 || status === 413 || status >= 500)).toEqual([])
      expect(streamMemory(namespace)).toBeLessThan(streamBudget)
      // A new instance starts on the flooded store (before: its one read of the whole stream, 79 MB, did not answer
      // within 500 ms), and shows what the stream holds as the journal does in memory.
      const late = await startFleet(1, { url: redis.socketUrl, namespace, timeoutMs: 2000 }, options)
      try {
        const { requests } = (await (await late.control(0, '/__sim/requests?limit=1')).json()) as {
          requests: { request: { body: { size: number; truncated: boolean; text: string } } }[]
        }
        expect(requests).toHaveLength(1)
        const body = requests[0]!.request.body
        expect(body.truncated).toBe(true)
        expect(body.size).toBe(bigPet(bodyBytes).length)
        expect(body.text).toBe(bigPet(bodyBytes).slice(0, defaults.journalBodyCapBytes))
        // The pact and coverage of the late instance count what the stream still holds, not nothing.
        const coverage = (await (await late.control(0, '/__sim/coverage')).json()) as { operations: { operation: string; calls: number }[] }
        expect(coverage.operations.find((operation) => operation.operation === 'createPet')!.calls).toBeGreaterThan(0)
      } finally {
        await late.close()
      }
    } finally {
      await fleet.close()
    }
  })

  it('keeps --workers 2 serving when a worker is killed after a flood, and a new instance starts', async () => {
    const namespace = 'budget-workers'
    const args = storeArgs(redis, namespace, {}, ['--body-limit', String(512 * kib)], 2000)
    const [workers] = await startInstances(1, [...args, '--workers', '2'])
    try {
      const statuses = await flood((body) => createAt(workers!.origin, body), floods)
      expect(statuses.filter((status) => status === 429 || status === 413 || status >= 500)).toEqual([])
      expect(streamMemory(namespace)).toBeLessThan(streamBudget)
      const children = workerPids(workers!.cli.child.pid)
      expect(children).toHaveLength(2)
      process.kill(Number(children[0]), 'SIGKILL')
      // The worker comes back (it reads the flooded stream to start): two workers again, the killed one replaced.
      const after = await pollUntil(
        async () => workerPids(workers!.cli.child.pid),
        (pids) => pids.length === 2 && !pids.includes(children[0]!),
        200,
        100,
      )
      expect(after).toHaveLength(2)
      expect(after).not.toContain(children[0])
      for (let index = 0; index < 8; index++) {
        expect((await callApi(workers!, '/pets?limit=1', { key: 'demo-enterprise-key' })).status).toBe(200)
      }
      expect(await controlOk(workers!, '/health')).toMatchObject({ status: 'ok', store: { ready: true } })
      expect(workers!.alive()).toBe(true)
      const [late] = await startInstances(1, args)
      try {
        expect(await controlOk(late!, '/health')).toMatchObject({ status: 'ok', store: { ready: true } })
      } finally {
        await stopInstances([late!])
      }
    } finally {
      await stopInstances([workers!])
    }
  }, 120_000)
})
