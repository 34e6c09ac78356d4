// `--workers 2` end to end, on a real Redis (test/support/redis-server.ts): one banner, the ready file once every
// worker listens, one rate limit for the fleet however connections are spread, a pet created through one worker read
// through the other, and a clean stop. (The worker machinery alone is tested in worker-pool.test.ts.)
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli } from '../support/cli-process.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-workers-'))
let redis: RedisServer
beforeAll(async () => {
  redis = await startRedisServer()
}, 30_000)
afterAll(async () => {
  await redis?.stop()
  rmSync(directory, { recursive: true, force: true })
})

/** A request on a connection of its own: round robin hands each new connection to the next worker. */
function fresh(url: string, init: RequestInit = {}) {
  return fetch(url, { ...init, headers: { Authorization: 'Bearer fleet-key', Connection: 'close', ...init.headers } })
}

describe('--workers 2 with --store', () => {
  it('serves as one API from two processes, with one banner, one ready file and one limit', async () => {
    const readyFile = join(directory, 'sim.url')
    const args = ['--port', '0', '--store', redis.socketUrl, '--workers', '2', '--key', 'fleet-key=enterprise:20/1000']
    const cli = await startCli([...args, '--ban-after', 'off', '--ready-file', readyFile], {}, 30_000)
    try {
      expect(cli.stdout().match(/listening on/g)).toHaveLength(1)
      expect(cli.stdout()).toContain('Workers: 2 processes serve the port')
      expect(cli.stdout()).toMatch(/Shared store: unix:\/\/\S+ \(namespace petstore-sim\)/)
      expect(readFileSync(readyFile, 'utf8')).toBe(`${cli.apiUrl}\n`)
      const workers = spawnSync('pgrep', ['-P', String(cli.child.pid)], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
      expect(workers).toHaveLength(2)

      const created = await fresh(`${cli.apiUrl}/pets`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Fleet', categoryId: 1 }),
      })
      expect(created.status).toBe(201)
      const { id } = (await created.json()) as { id: number }
      // Two reads on two new connections: one of them is the other worker's.
      for (const _read of [1, 2]) expect((await fresh(`${cli.apiUrl}/pets/${id}`)).status).toBe(200)

      // 17 more requests make 20 (the limit); then 10 past it: exactly 17 more successes whichever worker answers.
      const statuses: number[] = []
      for (let index = 0; index < 27; index++) statuses.push((await fresh(`${cli.apiUrl}/pets?limit=1`)).status)
      expect(statuses.filter((status) => status === 200)).toHaveLength(17)
      expect(statuses.filter((status) => status === 429)).toHaveLength(10)
    } finally {
      expect(await cli.stop()).toBe(0)
    }
    expect(existsSync(readyFile)).toBe(false)
    expect(cli.stdout().match(/SIGTERM: finishing requests in flight/g)).toHaveLength(1)
  }, 60_000)
})
