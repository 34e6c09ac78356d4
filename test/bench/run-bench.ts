// `npm run bench`: the simulator against a bare node:http server on loopback.
// The server runs on core 0 and the load generator (autocannon, in this
// process) on core 1, so the ratio means something on a 2-core machine.
// Every load run is bounded in time; nothing here is asserted.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5)
const root = fileURLToPath(new URL('../../', import.meta.url))
const benchKey = 'bench-key'
const pinned = cpus().length >= 2
const clockTicks = 100 // USER_HZ on Linux

interface Started {
  child: ChildProcess
  apiUrl: string
  startupMs: number
}

/** `cores`: the CPU list for taskset (`0` for the load runs; all cores for startup, as a user starts it). */
async function startServerProcess(args: string[], cores = '0'): Promise<Started> {
  const command = pinned ? ['taskset', '-c', cores, process.execPath, ...args] : [process.execPath, ...args]
  const started = performance.now()
  const child = spawn(command[0]!, command.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  // Event-driven: the URL is read the moment the line arrives, not on a polling tick.
  const apiUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 10_000)
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
  }).catch((error: unknown) => {
    child.kill('SIGKILL')
    throw error
  })
  // The first answered API request marks the end of startup.
  const response = await fetch(`${apiUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${benchKey}` } })
  await response.arrayBuffer()
  return { child, apiUrl, startupMs: performance.now() - started }
}

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12]) // utime + stime, after the command name
}

function peakRssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith('VmHWM:'))!
  return Number(line.replace(/\D+/g, '')) / 1024
}

interface LoadResult {
  rps: number
  p50: number
  p99: number
  cpuUsPerRequest: number
  total: number
  errors: number
}

async function load(server: Started, method: 'GET' | 'POST', duration: number): Promise<LoadResult> {
  const pid = server.child.pid!
  const before = cpuTicks(pid)
  const result = await autocannon({
    url: method === 'GET' ? `${server.apiUrl}/pets?limit=20` : `${server.apiUrl}/pets`,
    method,
    connections,
    duration,
    headers: { authorization: `Bearer ${benchKey}`, 'content-type': 'application/json' },
    body: method === 'POST' ? '{"name":"Bench","categoryId":1}' : undefined,
  })
  const ticks = cpuTicks(pid) - before
  const total = result.requests.total
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUsPerRequest: total > 0 ? ((ticks / clockTicks) * 1e6) / total : Number.NaN,
    total,
    errors: result.errors + result.non2xx,
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

async function measure(name: string, args: string[]) {
  const server = await startServerProcess(args)
  // Warm-ups long enough for V8 to finish tiering up the hot paths.
  await load(server, 'GET', warmupSeconds)
  const get = await load(server, 'GET', seconds)
  await load(server, 'POST', warmupSeconds)
  const post = await load(server, 'POST', seconds)
  const memory = peakRssMiB(server.child.pid!)
  await stopProcess(server.child)
  return { name, startupMs: server.startupMs, get, post, memory }
}

async function medianStartup(args: string[], runs: number): Promise<number> {
  const times: number[] = []
  for (let run = 0; run < runs; run++) {
    // All cores: this process is pinned to core 1, and a child would inherit that.
    const server = await startServerProcess(args, `0-${cpus().length - 1}`)
    times.push(server.startupMs)
    await stopProcess(server.child)
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!
}

const simulatorArgs = ['bin/petstore-sim.js', '--port', '0', '--log', 'silent', '--ban-after', 'off', '--key', `${benchKey}=enterprise:1000000000/1000000000`]
const bareArgs = ['test/bench/bare-server.ts']

console.log(`petstore-sim benchmark: ${warmupSeconds}s warm-up and ${seconds}s per run, ${connections} connections, Node ${process.version}, ${pinned ? 'server on core 0, load on core 1' : 'unpinned (fewer than 2 cores)'}`)
// Startup first, on a quiet machine, then the load runs.
const startup = await medianStartup(simulatorArgs, 7)
const bareStartup = await medianStartup(bareArgs, 7)
const bare = await measure('bare node:http', bareArgs)
const simulator = await measure('petstore-sim', simulatorArgs)

const row = (label: string, value: (result: typeof bare) => string) => `${label.padEnd(30)}${value(bare).padStart(14)}${value(simulator).padStart(16)}`
const fixed = (digits: number) => (value: number) => value.toFixed(digits)
console.log(`\n${''.padEnd(30)}${'bare'.padStart(14)}${'petstore-sim'.padStart(16)}`)
for (const method of ['get', 'post'] as const) {
  const label = method === 'get' ? 'GET /v1/pets?limit=20' : 'POST /v1/pets'
  console.log(row(`${label} req/s`, (result) => fixed(0)(result[method].rps)))
  console.log(row('  latency p50 (ms)', (result) => fixed(1)(result[method].p50)))
  console.log(row('  latency p99 (ms)', (result) => fixed(1)(result[method].p99)))
  console.log(row('  CPU per request (µs)', (result) => fixed(1)(result[method].cpuUsPerRequest)))
  console.log(row('  requests / errors', (result) => `${result[method].total} / ${result[method].errors}`))
}
console.log(row('peak RSS (MiB)', (result) => fixed(1)(result.memory)))
console.log(`${'startup to first answer (ms)'.padEnd(30)}${fixed(0)(bareStartup).padStart(14)}${fixed(0)(startup).padStart(16)}   (median of 7, all cores)`)
console.log(`\nratios (petstore-sim / bare): GET ${(simulator.get.rps / bare.get.rps).toFixed(2)}x, POST ${(simulator.post.rps / bare.post.rps).toFixed(2)}x`)
console.log(`targets: GET >= 0.25x with p99 < 5 ms, POST >= 0.20x, startup < 200 ms`)
