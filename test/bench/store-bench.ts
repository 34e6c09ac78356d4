// The shared store (issue 40), measured as users run it: the CLI with `--store` on one worker and with `--workers 2`,
// against the in-memory CLI, in one run. The simulator and Redis share core 0 (one machine, as a developer or a CI job
// runs them), the load generator is on core 1; `--workers 2` gets both cores, so it shares core 1 with the load
// generator: on a 2-core machine that row says what a second worker costs, not how far it scales. Figures: req/s, p99,
// CPU per request of the simulator's processes (all workers) and of Redis, and the store's round trips per request
// (Redis's own counts, before and after: script calls and journal reads from `INFO commandstats`, and the reads of its
// clients' sockets from `INFO stats`, `total_reads_processed`: one per batch of commands that arrive together, so
// auto-pipelined scripts of concurrent requests count once). Nothing is asserted:
// the figures are printed. `BENCH_STORE_ONLY=1 npm run bench` runs this part alone.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { cpuTicks as processTicks, listeningUrl, workloads, type Workload } from './server-process.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const clockTicks = 100 // USER_HZ on Linux
const pinned = cpus().length >= 2

interface StoreLoadResult {
  rps: number
  p99: number
  simulatorCpuUs: number
  redisCpuUs: number
  /** Script calls per request: the request's own round trips. */
  scripts: number
  /** Journal reads per request: the instances following the fleet's journal, off the request's path. */
  reads: number
  /**
   * Round trips per request: the server's socket reads (one per batch of commands arriving together), every client's
   * (the pings and the journal's tail included, a few a second): what auto-pipelining lowers below `scripts`.
   */
  roundTrips: number
  total: number
  failed: number
}

/** utime + stime of a process and of its children's threads, in clock ticks: a cluster's primary and its workers. */
function cpuTicks(pids: readonly number[]): number {
  let ticks = 0
  for (const pid of pids) {
    try {
      ticks += processTicks(pid)
    } catch {
      // A worker that ended: its ticks are lost, which only lowers the figure; the run's failures say if one did.
    }
  }
  return ticks
}

/** The process and its children (a cluster's workers), read from /proc. */
function processTree(pid: number): number[] {
  const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.trim() !== '')
    .map(Number)
  return [pid, ...children.flatMap(processTree)]
}

/**
 * The store's round trips so far: its script calls (`EVALSHA`, `EVAL`) and its blocking journal reads (`XREAD`), the
 * only commands the simulator sends on its API path. Not every command of `INFO commandstats`: Redis counts the commands
 * a script runs inside it there too (and in `total_commands_processed`), which are no round trips.
 */
function roundTripCount(redis: RedisServer): { scripts: number; reads: number; socketReads: number } {
  const counts = { scripts: 0, reads: 0, socketReads: 0 }
  counts.socketReads = Number(/^total_reads_processed:(\d+)/m.exec(redis.cli('INFO', 'stats'))?.[1] ?? Number.NaN)
  for (const line of redis.cli('INFO', 'commandstats').split('\n')) {
    const match = /^cmdstat_(\w+):calls=(\d+)/.exec(line.trim())
    if (match?.[1] === 'evalsha' || match?.[1] === 'eval') counts.scripts += Number(match[2])
    if (match?.[1] === 'xread') counts.reads += Number(match[2])
  }
  return counts
}

async function start(command: readonly string[], cores: string): Promise<{ child: ChildProcess; apiUrl: string }> {
  const argv = pinned ? ['taskset', '-c', cores, ...command] : [...command]
  const child = spawn(argv[0]!, argv.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  return { child, apiUrl: await listeningUrl(child, 30_000) }
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

async function load(
  apiUrl: string,
  pids: readonly number[],
  redis: RedisServer,
  workload: Workload,
  options: { seconds: number; connections: number; key: string },
): Promise<StoreLoadResult> {
  const { method, path } = workloads[workload]
  const before = { simulator: cpuTicks(pids), redis: cpuTicks([redis.pid]), trips: roundTripCount(redis) }
  const result = await autocannon({
    url: `${apiUrl}${path}`,
    method,
    connections: options.connections,
    duration: options.seconds,
    headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
    body: method === 'POST' ? '{"name":"Bench","categoryId":1}' : undefined,
  })
  const total = result.requests.total
  const trips = roundTripCount(redis)
  const perRequest = (ticks: number) => (total > 0 ? ((ticks / clockTicks) * 1e6) / total : Number.NaN)
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    simulatorCpuUs: perRequest(cpuTicks(pids) - before.simulator),
    redisCpuUs: perRequest(cpuTicks([redis.pid]) - before.redis),
    scripts: total > 0 ? (trips.scripts - before.trips.scripts) / total : Number.NaN,
    reads: total > 0 ? (trips.reads - before.trips.reads) / total : Number.NaN,
    roundTrips: total > 0 ? (trips.socketReads - before.trips.socketReads) / total : Number.NaN,
    total,
    failed: result.errors + result.non2xx,
  }
}

/** Runs the in-memory CLI, the CLI on the store with one worker, and with two, and prints one table. */
export async function runStoreBench(simulatorFlags: readonly string[], key: string): Promise<void> {
  const seconds = Number(process.env.BENCH_STORE_SECONDS ?? process.env.BENCH_SECONDS ?? 10)
  const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5)
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
  const redis = await startRedisServer()
  if (pinned) spawnSync('taskset', ['-p', '-c', '0', String(redis.pid)])
  const modes = [
    { name: 'in-memory', args: [], cores: '0' },
    { name: '--store, 1 worker', args: ['--store', redis.socketUrl, '--store-namespace', 'bench-1'], cores: '0' },
    { name: '--store, --workers 2', args: ['--store', redis.socketUrl, '--store-namespace', 'bench-2', '--workers', '2'], cores: '0-1' },
  ]
  const rows: { name: string; results: Record<Workload, StoreLoadResult> }[] = []
  try {
    for (const mode of modes) {
      const server = await start(['bin/petstore-sim.js', ...simulatorFlags, ...mode.args], mode.cores)
      const results = {} as Record<Workload, StoreLoadResult>
      // Stopped whatever a run throws: a simulator left running would hold its port and its workers.
      try {
        const pids = processTree(server.child.pid!)
        for (const workload of Object.keys(workloads) as Workload[]) {
          const warmup = await load(server.apiUrl, pids, redis, workload, { seconds: warmupSeconds, connections, key })
          const run = await load(server.apiUrl, pids, redis, workload, { seconds, connections, key })
          results[workload] = { ...run, failed: run.failed + warmup.failed }
        }
      } finally {
        await stop(server.child)
      }
      rows.push({ name: mode.name, results })
    }
  } finally {
    await redis.stop()
  }
  const width = 22
  const fixed = (digits: number) => (value: number) => value.toFixed(digits)
  const line = (label: string, value: (result: StoreLoadResult) => string, workload: Workload) =>
    `${label.padEnd(34)}${rows.map((row) => value(row.results[workload]).padStart(width)).join('')}`
  console.log(
    `\nthe shared store (${redis.version.split(' ').slice(0, 3).join(' ')} on a Unix socket, core 0 with the simulator; ${warmupSeconds}s warm-up, ${seconds}s per run, ${connections} connections):`,
  )
  console.log(`${''.padEnd(34)}${rows.map((row) => row.name.padStart(width)).join('')}`)
  for (const workload of Object.keys(workloads) as Workload[]) {
    console.log(line(workloads[workload].label, (result) => `${fixed(0)(result.rps)}/s`, workload))
    console.log(line('  ratio to in-memory', (result) => `${(result.rps / rows[0]!.results[workload].rps).toFixed(2)}x`, workload))
    console.log(line('  latency p99 (ms)', (result) => fixed(1)(result.p99), workload))
    console.log(line('  simulator CPU per request (µs)', (result) => fixed(1)(result.simulatorCpuUs), workload))
    console.log(line('  Redis CPU per request (µs)', (result) => fixed(1)(result.redisCpuUs), workload))
    console.log(line('  store scripts per request', (result) => fixed(2)(result.scripts), workload))
    console.log(line('  journal reads per request', (result) => fixed(2)(result.reads), workload))
    console.log(line('  round trips per request (reads)', (result) => fixed(2)(result.roundTrips), workload))
    console.log(line('  requests / not 2xx', (result) => `${result.total} / ${result.failed}`, workload))
  }
  if (rows.some((row) => Object.values(row.results).some((result) => result.failed > 0))) {
    console.log('\nFAILED: some answers of the store runs were not 2xx: their figures are not the operations')
    process.exitCode = 1
  }
}
