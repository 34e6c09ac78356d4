// One in-process lane, measured in this process: `node test/bench/in-process-lane.ts <lane>` prints one JSON line with
// the µs per request of GET /v1/pets?limit=20 and POST /v1/pets through the simulator, and through a hand-written msw
// handler that answers the same bytes on the same lane (msw's floor: what the lane costs with no simulator behind it).
// Run by in-process-bench.ts, one process per lane, so that no lane's heap or JIT state colours another's. The msw 2
// lane runs with msw-2-resolve-hook.ts, which makes every `msw` import (the simulator's too) load msw 2.
// Against the built package (dist/), as users import it.
import type { Simulator } from '../../src/simulator.ts'

type Lane = 'msw3-setupServer' | 'msw2-setupServer' | 'msw3-fetch-network' | 'simulator.fetch'
const lane = process.argv[2] as Lane
const warmup = Number(process.env.BENCH_IN_PROCESS_WARMUP ?? 2000)
const count = Number(process.env.BENCH_IN_PROCESS_REQUESTS ?? 5000)
/** Blocks per side on the msw lanes, alternated with the floor's (see `withHandlers`). */
const blocks = Number(process.env.BENCH_IN_PROCESS_BLOCKS ?? 10)
const origin = 'http://petstore.test'
const headers = { authorization: 'Bearer bench-key', 'content-type': 'application/json' }
const postBody = '{"name":"Bench","categoryId":1}'

const builtEntry = '../../dist/lib/index.js'
const { createSimulator } = (await import(builtEntry)) as typeof import('../../src/index.ts')
const msw = await import('msw')
const simulator: Simulator = createSimulator({
  baseUrl: `${origin}/v1`,
  keys: { 'bench-key': 'enterprise:1000000000/1000000000' },
  ban: false,
})

/** The simulator's own answers, captured once: the floor handlers send these bytes with these headers. */
async function capture(fetchFn: typeof fetch) {
  const list = await fetchFn(`${origin}/v1/pets?limit=20`, { headers })
  const created = await fetchFn(`${origin}/v1/pets`, { method: 'POST', headers, body: postBody })
  return {
    list: { body: await list.text(), headers: Object.fromEntries(list.headers) },
    created: { body: await created.text(), headers: Object.fromEntries(created.headers) },
  }
}

function floorHandlers(answers: Awaited<ReturnType<typeof capture>>) {
  return [
    msw.http.get(`${origin}/v1/pets`, () => new msw.HttpResponse(answers.list.body, { status: 200, headers: answers.list.headers })),
    msw.http.post(`${origin}/v1/pets`, async ({ request }) => {
      await request.text()
      return new msw.HttpResponse(answers.created.body, { status: 201, headers: answers.created.headers })
    }),
  ]
}

/** One request of a kind, its answer read whole. */
function requester(fetchFn: typeof fetch, method: 'GET' | 'POST'): () => Promise<void> {
  const url = method === 'GET' ? `${origin}/v1/pets?limit=20` : `${origin}/v1/pets`
  const init: RequestInit = method === 'GET' ? { headers } : { method, headers, body: postBody }
  return async () => {
    const response = await fetchFn(url, init)
    await response.arrayBuffer()
    if (response.status >= 400) throw new Error(`${method} answered ${response.status}`)
  }
}

/** µs per request over `count` sequential requests, after `warmup` of the same. */
async function perRequest(fetchFn: typeof fetch, method: 'GET' | 'POST'): Promise<number> {
  const one = requester(fetchFn, method)
  for (let index = 0; index < warmup; index++) await one()
  const started = performance.now()
  for (let index = 0; index < count; index++) await one()
  return ((performance.now() - started) * 1000) / count
}

async function measureBoth(fetchFn: typeof fetch) {
  return { get: await perRequest(fetchFn, 'GET'), post: await perRequest(fetchFn, 'POST') }
}

/**
 * The simulator's handlers and the floor's on one interception set-up, each warmed up, then measured in alternated
 * blocks (ABBA…), `count` requests each in all. Measured one after the other, whichever went first was the slower:
 * msw's own code was still tiering up (a floor measured first: 194–232 µs per GET, the simulator after it 164–277 µs;
 * the simulator first: 191–219 µs, the floor after it 131–172 µs, msw 3 Fetch-level network, 2026-11-23).
 */
async function withHandlers(
  install: (handlers: unknown[]) => Promise<{ use(handlers: unknown[]): void; reset(): void; close(): Promise<void> | void }>,
): Promise<{ simulator: { get: number; post: number }; floor: { get: number; post: number } }> {
  const network = await install(simulator.handlers)
  const answers = await capture(fetch)
  const floor = floorHandlers(answers)
  const sides = [() => network.reset(), () => network.use(floor)] as const
  const figures = { simulator: { get: 0, post: 0 }, floor: { get: 0, post: 0 } }
  for (const method of ['GET', 'POST'] as const) {
    const one = requester(fetch, method)
    for (const use of sides) {
      use()
      for (let index = 0; index < warmup; index++) await one()
    }
    const spent = [0, 0]
    const size = Math.ceil(count / blocks)
    for (let block = 0; block < blocks; block++) {
      for (const side of block % 2 === 0 ? [0, 1] : [1, 0]) {
        sides[side]!()
        const started = performance.now()
        for (let index = 0; index < size; index++) await one()
        spent[side]! += performance.now() - started
      }
    }
    const key = method === 'GET' ? 'get' : 'post'
    figures.simulator[key] = (spent[0]! * 1000) / (size * blocks)
    figures.floor[key] = (spent[1]! * 1000) / (size * blocks)
  }
  await network.close()
  return figures
}

let figures: { simulator: { get: number; post: number }; floor?: { get: number; post: number } }
switch (lane) {
  case 'msw3-setupServer':
  case 'msw2-setupServer': {
    const { setupServer } = await import('msw/node')
    figures = await withHandlers(async (handlers) => {
      const server = setupServer(...(handlers as Parameters<typeof setupServer>))
      server.listen({ onUnhandledRequest: 'error' } as never)
      return {
        use: (next) => server.resetHandlers(...(next as Parameters<typeof setupServer>)),
        reset: () => server.resetHandlers(),
        close: () => server.close(),
      }
    })
    break
  }
  case 'msw3-fetch-network': {
    const { FetchInterceptor } = await import('@mswjs/interceptors/fetch/web')
    const { defineNetwork, InterceptorSource } = await import('msw/experimental')
    figures = await withHandlers(async (handlers) => {
      type SourceInterceptor = ConstructorParameters<typeof InterceptorSource>[0]['interceptors'][number]
      const network = defineNetwork({
        sources: [new InterceptorSource({ interceptors: [new FetchInterceptor() as unknown as SourceInterceptor] })],
        handlers: handlers as never,
        onUnhandledFrame: 'error',
        // Without it, msw logs every request with its whole Request and Response to the console.
        context: { quiet: true },
      })
      await network.enable()
      return {
        use: (next) => network.resetHandlers(...(next as never[])),
        reset: () => network.resetHandlers(),
        close: () => network.disable(),
      }
    })
    break
  }
  case 'simulator.fetch': {
    await capture(simulator.fetch)
    figures = { simulator: await measureBoth(simulator.fetch) }
    break
  }
  default: {
    const unknown: never = lane
    throw new Error(`unknown lane ${String(unknown)}`)
  }
}
const heapMiB = process.memoryUsage().heapUsed / 1024 / 1024
console.log(JSON.stringify({ lane, ...figures, heapMiB }))
