// The garbage collector's work per request, standalone (issue #28, item 1): the bare server and the simulator (the
// CLI, with its shebang's V8 flags) under V8's `--trace-gc-nvp`, 100,000 requests after a 50,000 warm-up, each route
// in a fresh process. Each collection prints one line: its kind (`gc=s` a scavenge, `gc=mc` a mark-compact of the old
// generation), its pause, and the bytes allocated since the one before, promoted to the old generation and surviving
// in the young one. Nothing is asserted: the figures are printed with the target next to them.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'
import { listeningUrl } from './server-process.ts'

const requests = Number(process.env.BENCH_GC_REQUESTS ?? 100_000)
const warmupRequests = Number(process.env.BENCH_GC_WARMUP ?? 50_000)

/** What the collector did over a run, per request where it is bytes. */
interface GcFigures {
  scavenges: number
  markCompacts: number
  pauseMs: number
  allocatedPerRequest: number
  promotedPerRequest: number
  survivedPerRequest: number
}

/** Sums the `--trace-gc-nvp` lines (`name=value` pairs) printed over a run. */
function sumTraceLines(lines: readonly string[], requestCount: number): GcFigures {
  const figures = { scavenges: 0, markCompacts: 0, pauseMs: 0, allocated: 0, promoted: 0, survived: 0 }
  for (const line of lines) {
    const kind = /\bgc=(\w+)/.exec(line)?.[1]
    if (kind === undefined) continue
    if (kind === 's') figures.scavenges++
    else if (kind === 'mc' || kind === 'mmc') figures.markCompacts++
    const value = (name: string) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0)
    figures.pauseMs += value('pause')
    figures.allocated += value('allocated')
    figures.promoted += value('promoted')
    figures.survived += value('new_space_survived')
  }
  return {
    scavenges: figures.scavenges,
    markCompacts: figures.markCompacts,
    pauseMs: figures.pauseMs,
    allocatedPerRequest: figures.allocated / requestCount,
    promotedPerRequest: figures.promoted / requestCount,
    survivedPerRequest: figures.survived / requestCount,
  }
}

/** The flags of the bin's shebang (`#!/usr/bin/env -S node --max-semi-space-size=16`): the simulator as users launch it. */
function shebangFlags(bin: string): string[] {
  return readFileSync(bin, 'utf8')
    .split('\n', 1)[0]!
    .split(' ')
    .filter((part) => part.startsWith('--'))
}

type Route = 'list' | 'create'

async function tracedRun(command: readonly string[], route: Route, apiKey: string): Promise<GcFigures> {
  const child = spawn('taskset', ['-c', '0', ...command], { stdio: ['ignore', 'pipe', 'inherit'] })
  let traced = ''
  let counting = false
  const url = await listeningUrl(child, 10_000)
  child.stdout!.on('data', (chunk: string) => {
    if (counting) traced += chunk
  })
  const run = async (amount: number) => {
    const result = await autocannon({
      url: `${url}${route === 'list' ? '/pets?limit=20' : '/pets'}`,
      method: route === 'list' ? 'GET' : 'POST',
      connections: 32,
      amount,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: route === 'create' ? '{"name":"Bench","categoryId":1}' : undefined,
    })
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${route}: ${result.non2xx} answers not 2xx, ${result.errors} errors`)
    return result.requests.total
  }
  await run(warmupRequests)
  counting = true
  const answered = await run(requests)
  counting = false
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
  return sumTraceLines(traced.split('\n'), answered)
}

export async function runGcBench(bareCommand: readonly string[], simulatorArguments: readonly string[], apiKey: string): Promise<void> {
  const simulator = [
    process.execPath,
    ...shebangFlags('bin/petstore-sim.js'),
    '--trace-gc-nvp',
    'bin/petstore-sim.js',
    ...simulatorArguments,
  ]
  const bare = [bareCommand[0]!, '--trace-gc-nvp', ...bareCommand.slice(1)]
  console.log(`\ngarbage collection (--trace-gc-nvp), ${requests} requests after ${warmupRequests}, each route in a fresh process:`)
  for (const route of ['list', 'create'] as const) {
    const base = await tracedRun(bare, route, apiKey)
    const own = await tracedRun(simulator, route, apiKey)
    const summary = (figures: GcFigures) =>
      `${figures.scavenges} scavenges, ${figures.markCompacts} mark-compacts, pauses ${figures.pauseMs.toFixed(0)} ms; per request ${figures.allocatedPerRequest.toFixed(0)} B allocated, ${figures.survivedPerRequest.toFixed(0)} B surviving a scavenge, ${figures.promotedPerRequest.toFixed(0)} B promoted`
    console.log(`  ${route === 'list' ? 'GET /v1/pets?limit=20' : 'POST /v1/pets'}`)
    console.log(`    bare node:http  ${summary(base)}`)
    console.log(`    petstore-sim    ${summary(own)}`)
    console.log(
      `    scavenges and mark-compacts within 1.1x bare's: ${(own.scavenges / Math.max(1, base.scavenges)).toFixed(2)}x, ${own.markCompacts} against ${base.markCompacts} ${own.scavenges <= 1.1 * base.scavenges && own.markCompacts <= Math.ceil(1.1 * base.markCompacts) ? 'met' : 'NOT met'}; pauses ${(own.pauseMs / Math.max(1, base.pauseMs)).toFixed(1)}x bare's`,
    )
  }
}
