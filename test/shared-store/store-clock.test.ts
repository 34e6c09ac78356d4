// Issue 40: the fleet's one clock is the store's. An instance reads it as the store's TIME plus the monotonic time
// since, so a step of its machine's wall clock changes nothing: read as `Date.now()` plus a skew measured at start, a
// step back past --store-timeout put every script's deadline in the store's past, and every request was a 503 for
// good while the instance's health said ready (the hostile review of issue 40).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { fileURLToPath } from 'node:url'
import { startCli } from '../support/cli-process.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(async () => server?.stop())

it('serves on after its machine clock steps back by more than --store-timeout', async () => {
  const preload = fileURLToPath(new URL('./fixtures/clock-step-back.mjs', import.meta.url))
  const cli = await startCli(
    ['--port', '0', '--log', 'silent', '--store', server.socketUrl, '--store-namespace', 'clock-step', '--store-timeout', '1000'],
    { NODE_OPTIONS: `--import ${preload}` },
  )
  try {
    const get = () => fetch(`${cli.apiUrl}/pets/1`, { headers: { authorization: 'Bearer demo-pro-key' } })
    expect((await get()).status).toBe(200)
    // Past the fixture's step (1 s after the process started): polled, bounded, until its Date.now() has stepped back.
    const stepped = Date.now() + 1500
    while (Date.now() < stepped) await new Promise((resolve) => setTimeout(resolve, 100))
    const statuses = []
    for (let index = 0; index < 5; index++) statuses.push((await get()).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    const health = await fetch(`${cli.origin}/__sim/health`)
    expect(health.status).toBe(200)
  } finally {
    await cli.stop()
  }
})
