// Two builds of the simulator, A and B, compared in one run on the server's own CPU per request (issue 38): each a
// checkout with its `dist` built (`npm run build`), given as directories. Rounds alternate A, B, A, B… per route, a
// fresh server each (its shebang's V8 flags, on core 0, the load generator on core 1), a fixed count of requests after
// a fixed warm-up, and the server's `utime + stime` over the requests answered. Nothing is asserted; on a shared
// machine compare the ranges, and the bytes per request (`node test/bench/allocation-probe.ts` in each checkout),
// which do not move.
//   node test/bench/ab-bench.ts <checkout A> <checkout B>   (AB_ROUNDS, AB_REQUESTS, AB_WARMUP, AB_ROUTES=list,create,get)
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { listeningUrl, loadRunFlags } from './server-process.ts'

const rounds = Number(process.env.AB_ROUNDS ?? 4)
const requests = Number(process.env.AB_REQUESTS ?? 40_000)
const warmup = Number(process.env.AB_WARMUP ?? 20_000)
const key = 'ab-key'
const routes = {
  list: { method: 'GET', path: '/pets?limit=20', body: undefined },
  create: { method: 'POST', path: '/pets', body: '{"name":"Bench","categoryId":1}' },
  get: { method: 'GET', path: '/pets/1', body: undefined },
} as const
type Route = keyof typeof routes
const chosen = (process.env.AB_ROUTES ?? 'list,create,get').split(',') as Route[]

function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000 // USER_HZ 100
}

async function round(checkout: string, route: Route): Promise<number> {
  const bin = join(checkout, 'bin/petstore-sim.js')
  const flags = readFileSync(bin, 'utf8')
    .split('\n', 1)[0]!
    .split(' ')
    .filter((part) => part.startsWith('--'))
  const args = loadRunFlags(key)
  const child = spawn('taskset', ['-c', '0', process.execPath, ...flags, bin, ...args], {
    cwd: checkout,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const url = await listeningUrl(child, 20_000)
    const { method, path, body } = routes[route]
    const run = async (amount: number) => {
      const result = await autocannon({
        url: `${url}${path}`,
        method,
        connections: 32,
        amount,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      })
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${route}: ${result.non2xx} answers not 2xx, ${result.errors} errors`)
      return result.requests.total
    }
    await run(warmup)
    const before = cpuMicros(child.pid!)
    const answered = await run(requests)
    return (cpuMicros(child.pid!) - before) / answered
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
}

const [a, b] = process.argv.slice(2)
if (a === undefined || b === undefined) throw new Error('usage: node test/bench/ab-bench.ts <checkout A> <checkout B>')
console.log(`A ${a}\nB ${b}\n${rounds} rounds of ${requests} requests after ${warmup}, server on core 0, load on core 1`)
for (const route of chosen) {
  const figures: Record<'A' | 'B', number[]> = { A: [], B: [] }
  for (let index = 0; index < rounds; index++) {
    figures.A.push(await round(a, route))
    figures.B.push(await round(b, route))
  }
  const range = (values: number[]) =>
    `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)} µs (median ${[...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!.toFixed(1)})`
  console.log(
    `${route}: A ${range(figures.A)}  B ${range(figures.B)}  rounds A ${figures.A.map((v) => v.toFixed(1)).join(' ')} | B ${figures.B.map((v) => v.toFixed(1)).join(' ')}`,
  )
}
