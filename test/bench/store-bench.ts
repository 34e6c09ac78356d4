import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { startRedisServer } from '../support/redis-server.ts'

// One instance on the shared store (`--store`, issue 40) against the same in memory: the store's commands per request
// (`INFO commandstats` before and after), then req/s, p99 and the server process's CPU per request (utime + stime of
// the server alone: it runs in a child process of its own, Redis in another). Nothing is asserted.
//   node test/bench/store-bench.ts   (STORE_REQUESTS, STORE_WARMUP, STORE_CONNECTIONS)
// The child mode (`serve <store url | memory>`) starts the server and prints its URL.

const key = 'bench-key'
const appOptions = { keys: { [key]: 'enterprise:1000000000/1000000000' }, ban: false as const, maxPets: 100_000_000 }

if (process.argv[2] === 'serve') {
  const { createNodeApp, startServer } = await import('../../src/node.ts')
  const url = process.argv[3]!
  let options = {}
  if (url !== 'memory') {
    const { connectStore } = await import('../../src/node/shared-store/connect-store.ts')
    const store = await connectStore({ url })
    options = store.appOptions
    const app = createNodeApp({ ...options, ...appOptions })
    await store.attach(app)
    const running = await startServer({ app, port: 0, host: '127.0.0.1', log: 'silent' })
    console.log(running.url)
  } else {
    const running = await startServer({ app: createNodeApp(appOptions), port: 0, host: '127.0.0.1', log: 'silent' })
    console.log(running.url)
  }
} else {
  const requests = Number(process.env.STORE_REQUESTS ?? 20_000)
  const warmup = Number(process.env.STORE_WARMUP ?? 5_000)
  const connections = Number(process.env.STORE_CONNECTIONS ?? 32)
  const redis = await startRedisServer()
  const routes = {
    list: { method: 'GET', path: '/v1/pets?limit=20', body: undefined },
    get: { method: 'GET', path: '/v1/pets/1', body: undefined },
    create: { method: 'POST', path: '/v1/pets', body: '{"name":"Bench","categoryId":1}' },
  } as const
  const commands = () => {
    const stats = redis.cli('INFO', 'commandstats')
    const counts: Record<string, number> = {}
    for (const [, name, calls] of stats.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) counts[name!] = Number(calls)
    return counts
  }
  try {
    for (const mode of ['memory', redis.socketUrl]) {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'serve', mode], { stdio: ['ignore', 'pipe', 'inherit'] })
      try {
        const url = (await firstLine(child)).replace(/\/$/, '')
        for (const [name, route] of Object.entries(routes)) {
          const fire = (amount: number, count = connections) =>
            autocannon({
              url: `${url}${route.path}`,
              method: route.method,
              connections: count,
              amount,
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: route.body,
            })
          await fire(warmup)
          const sample = 1000
          const before = commands()
          await fire(sample, 1)
          const after = commands()
          const perRequest = Object.entries(after)
            .map(([command, calls]) => [command, (calls - (before[command] ?? 0)) / sample] as const)
            .filter(([command, calls]) => calls > 0.001 && command !== 'info')
          const cpuBefore = cpuMicros(child.pid!)
          const result = await fire(requests)
          const cpu = (cpuMicros(child.pid!) - cpuBefore) / result.requests.total
          console.log(
            `${mode === 'memory' ? 'memory' : 'store '} ${name}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${cpu.toFixed(1)} µs CPU/request, ${result.non2xx} non-2xx` +
              (mode === 'memory'
                ? ''
                : `; commands/request ${perRequest.map(([command, calls]) => `${command} ${calls.toFixed(2)}`).join(', ')}`),
          )
        }
      } finally {
        child.kill('SIGTERM')
      }
    }
  } finally {
    await redis.stop()
  }
}

function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000 // USER_HZ 100
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk
      if (text.includes('\n')) resolve(text.split('\n')[0]!)
    })
    child.once('exit', () => reject(new Error('the server ended before it listened')))
  })
}
