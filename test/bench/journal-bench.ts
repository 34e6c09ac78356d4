// The journal's costs, for `npm run bench` (issue #16): recording the whole
// exchange on GET and POST, in-process through the app (the journal on
// against a journal that keeps nothing), reading it back, and the memory a
// full journal of 64 KiB bodies holds against its budget (a child process
// with --expose-gc). Bounded: a fixed number of calls per measurement.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createApp } from '../../src/app/app.ts'
import type { PlainRequest } from '../../src/core/http/plain-http.ts'

const key = 'journal-bench-key'
const rawHeaders = ['Host', '127.0.0.1:4010', 'Authorization', `Bearer ${key}`, 'Accept', '*/*', 'User-Agent', 'autocannon']
const createBody = new TextEncoder().encode(JSON.stringify({ name: 'Bench', categoryId: 1 }))

function plain(method: string, path: string, query: string): PlainRequest {
  const headers = ['Content-Type', 'application/json', ...rawHeaders]
  return {
    method,
    path,
    query,
    authority: '127.0.0.1:4010',
    header: (name) => (name === 'authorization' ? `Bearer ${key}` : name === 'content-type' ? 'application/json' : undefined),
    headerList: () => headers,
    readBody: async () => createBody,
    transport: {},
  }
}

/**
 * CPU µs (this process's user and system time) per call of `calls` calls,
 * awaited one by one: on a machine shared with other work, CPU time varies
 * far less than wall time.
 */
async function microsPerCall(run: () => unknown, calls: number): Promise<number> {
  const started = process.cpuUsage()
  for (let index = 0; index < calls; index++) await run()
  const used = process.cpuUsage(started)
  return (used.user + used.system) / calls
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * GET and POST with the journal keeping nothing (`journalSize: 0`) and with
 * its default: rounds alternate between the two, so that the machine's
 * noise and the JIT's warm-up fall on both alike; medians of the rounds.
 */
async function recordingCost(rounds = 15, calls = 1000) {
  const apps = [0, 1000].map((journalSize) => createApp({ keys: { [key]: 'enterprise:1000000000/1000000000' }, ban: false, journalSize }))
  const get = plain('GET', '/v1/pets', 'limit=20')
  const post = plain('POST', '/v1/pets', '')
  const results = apps.map(() => ({ get: [] as number[], post: [] as number[] }))
  for (let round = 0; round < rounds; round++) {
    // Each goes first in every other round.
    for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const app = apps[index]!
      results[index]!.get.push(await microsPerCall(() => app.respond(get), calls))
      results[index]!.post.push(await microsPerCall(() => app.respond(post), calls))
    }
  }
  const [off, on] = results.map((result) => ({ getUs: median(result.get), postUs: median(result.post) }))
  return { off: off!, on: on!, app: apps[1]! }
}

export async function runJournalBench(): Promise<void> {
  console.log(
    '\njournal (in-process through the app, CPU µs per request, median of 15 alternated rounds of 1000; journal on vs keeping nothing):',
  )
  const { off, on, app } = await recordingCost()
  const cost = (without: number, journaled: number) =>
    `${journaled.toFixed(2)} vs ${without.toFixed(2)} (${journaled >= without ? '+' : ''}${(journaled - without).toFixed(2)} µs)`
  console.log(`  GET /v1/pets?limit=20: ${cost(off.getUs, on.getUs)}`)
  console.log(`  POST /v1/pets: ${cost(off.postUs, on.postUs)}`)
  const started = performance.now()
  const entries = app.simulator.journal.entries()
  console.log(`  reading ${entries.length} entries as JSON views: ${(performance.now() - started).toFixed(1)} ms`)
  const script = fileURLToPath(new URL('./journal-memory.ts', import.meta.url))
  for (const budget of [16 * 1024 * 1024, 64 * 1024 * 1024]) {
    const line = execFileSync(process.execPath, ['--expose-gc', script, String(budget)], { encoding: 'utf8', timeout: 120_000 })
    const memory = JSON.parse(line) as { measuredBytes: number; bytes: number; maxBytes: number; entries: number; evicted: number }
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
    console.log(
      `  full journal of 64 KiB bodies, budget ${mib(memory.maxBytes)} MiB: ${memory.entries} entries held (${memory.evicted} evicted), estimate ${mib(memory.bytes)} MiB, measured ${mib(memory.measuredBytes)} MiB (heap + buffers after GC)`,
    )
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runJournalBench()
