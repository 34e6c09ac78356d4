// --workers N: the primary's side (src/cli/worker-pool.ts), with a stand-in worker that speaks its protocol and serves
// its pid (fixtures/fake-cluster-worker.mjs): the fleet shares one port (--port 0 too), prints one banner, restarts a
// worker that dies, and ends with one line when workers cannot start. The CLI's own --workers runs against a real
// store in cli-store.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { startWorkerPool, type WorkerPool, type WorkerPoolOptions } from '../../src/cli/worker-pool.ts'

const fakeWorker = fileURLToPath(new URL('fixtures/fake-cluster-worker.mjs', import.meta.url))
const quickRestarts = { firstDelayMs: 10, maxDelayMs: 40, stableMs: 60_000, maxStartFailures: 2 }

let pool: WorkerPool | undefined
afterEach(async () => {
  pool?.stop('SIGTERM')
  pool?.stop('SIGTERM')
  await pool?.ended
  pool = undefined
})

function start(mode: string, overrides: Partial<WorkerPoolOptions> = {}) {
  const warnings: string[] = []
  pool = startWorkerPool({
    count: 2,
    exec: fakeWorker,
    args: [mode],
    restart: quickRestarts,
    warn: (line) => warnings.push(line),
    ...overrides,
  })
  return { pool, warnings }
}

/** The pids that answer on `url`, over `count` fresh connections (round robin hands each to the next worker). */
async function pidsAt(url: string, count = 8): Promise<Set<number>> {
  const pids = new Set<number>()
  for (let index = 0; index < count; index++) {
    const answer = (await (await fetch(url, { headers: { Connection: 'close' } })).json()) as { pid: number }
    pids.add(answer.pid)
  }
  return pids
}

describe('a pool of workers', () => {
  it('serves one port from every worker (port 0 too), reports slot 0 once all listen, and stops with exit code 0', async () => {
    const { pool } = start('serve')
    const listening = await pool.ready
    expect(listening.banner).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/v1 \(slot 0\)$/)
    expect(await pidsAt(listening.url)).toHaveProperty('size', 2)
    pool.stop('SIGTERM')
    expect(await pool.ended).toEqual({ exitCode: 0, message: undefined })
  })

  it('restarts a worker that dies, on the same port, and says so', async () => {
    const { pool, warnings } = start('serve')
    const { url } = await pool.ready
    const before = await pidsAt(url)
    await fetch(`${url}/crash`).catch(() => {})
    await expect.poll(() => warnings.join('\n'), { timeout: 10_000 }).toMatch(/worker \d is back \(pid \d+\)/)
    expect(warnings[0]).toMatch(/^worker \d \(pid \d+\) exited with code 3; restarting it in 10 ms$/)
    const after = await pidsAt(url)
    expect(after.size).toBe(2)
    expect([...after].filter((pid) => !before.has(pid))).toHaveLength(1)
  })

  it('keeps the port when the only worker dies and comes back (--port 0: the port it was given, not a new one)', async () => {
    const { pool, warnings } = start('serve', { count: 1 })
    const { url } = await pool.ready
    const [before] = await pidsAt(url, 1)
    await fetch(`${url}/crash`).catch(() => {})
    await expect.poll(() => warnings.join('\n'), { timeout: 10_000 }).toMatch(/worker 1 is back/)
    const [after] = await pidsAt(url, 1)
    expect(after).not.toBe(before)
  })

  it('ends with the first start failure, one line, and its exit code, when a worker cannot start', async () => {
    const { pool, warnings } = start('fail', { count: 3 })
    await expect(pool.ready).rejects.toThrow('--store redis://127.0.0.1:1: cannot connect (ECONNREFUSED)')
    expect(await pool.ended).toEqual({ exitCode: 1, message: '--store redis://127.0.0.1:1: cannot connect (ECONNREFUSED)' })
    expect(warnings).toEqual([])
  })

  it('gives up when restarted workers keep failing at start, after restarting them with a growing delay', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-sim-pool-'))
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    const marker = join(folder, 'failing')
    const { pool, warnings } = start('fail-once', { args: ['fail-once', marker] })
    const { url } = await pool.ready
    writeFileSync(marker, '')
    await fetch(`${url}/crash`).catch(() => {})
    expect(await pool.ended).toEqual({
      exitCode: 1,
      message: '--store redis://127.0.0.1:1: cannot connect (ECONNREFUSED) (2 restarts in a row failed)',
    })
    expect(warnings.map((line) => line.replace(/pid \d+/, 'pid N').replace(/worker \d/, 'worker W'))).toEqual([
      'worker W (pid N) exited with code 3; restarting it in 10 ms',
      'worker W (pid N) exited with code 1; restarting it in 20 ms',
    ])
  })
})
