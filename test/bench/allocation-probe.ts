// Bytes the server allocates per request on the hot routes, measured in this process without timing anything: the
// simulator over `node:http` on 127.0.0.1 and a raw-socket client that sends one request at a time (the client's own
// garbage is a few small buffers a request, the same in every build), a fixed count of requests after a warm-up.
// V8's heap statistics give what is live; `v8.GCProfiler` gives, for every collection in the window, the heap before
// and after it; allocated = live after - live before + what each collection freed. No flag (`--expose-gc`,
// `--trace-gc-nvp`) is needed, so the figure is taken inside a vitest worker (test/bench/allocation-budget.test.ts) as
// well as from the command line (`node test/bench/allocation-probe.ts`, JSON on stdout), where the A/B of issue 38
// compared builds with it.
// The same window gives the bytes that reach the old generation (issue 47): promoted by a scavenge, or allocated there
// directly by V8's allocation-site pretenuring. Both are what only a full collection frees; a regression there left
// the allocation figure unchanged. That figure depends on the process's history and heap flags, so its budget
// (promotion-budget.test.ts) takes it from a child process launched with the bin's flags.
import { connect, type Socket } from 'node:net'
import { GCProfiler, getHeapSpaceStatistics, getHeapStatistics, type HeapSpaceInfo } from 'node:v8'
import { createNodeApp, startServer } from '../../src/node.ts'

const key = 'allocation-probe-key'

/** The routes measured: what most traffic is (a page of pets, a create, a pet by id). */
export const probeRoutes = {
  'GET /v1/pets?limit=20': { method: 'GET', path: '/v1/pets?limit=20', body: undefined },
  'POST /v1/pets': { method: 'POST', path: '/v1/pets', body: '{"name":"Probe","categoryId":1}' },
  'GET /v1/pets/1': { method: 'GET', path: '/v1/pets/1', body: undefined },
} as const
export type ProbeRoute = keyof typeof probeRoutes

export interface ProbeOptions {
  /** Requests measured per route. */
  readonly requests?: number
  /** Requests sent first, unmeasured: the code warmed, the journal full (it holds 1,000 by default). */
  readonly warmup?: number
}

/** Bytes allocated per request, by route. */
export type AllocationFigures = Record<ProbeRoute, number>

/** Per request on one route: bytes allocated, and bytes that reached the old generation (promoted or pretenured). */
export interface HeapFigures {
  readonly allocated: number
  readonly promoted: number
}

function requestBytes(route: ProbeRoute, port: number): Buffer {
  const { method, path, body } = probeRoutes[route]
  const head = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Authorization: Bearer ${key}`, 'Accept: application/json']
  if (body !== undefined) head.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`)
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body ?? ''}`)
}

/**
 * A keep-alive connection that sends a request and resolves with the answer's status once the whole answer has
 * arrived (every answer of the simulator has a `Content-Length`).
 */
async function openClient(port: number): Promise<{ send(bytes: Buffer): Promise<number>; close(): void }> {
  const socket: Socket = connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  let pending: ((status: number) => void) | undefined
  let received: Buffer = Buffer.alloc(0)
  socket.on('data', (chunk: Buffer) => {
    received = received.length === 0 ? chunk : Buffer.concat([received, chunk])
    const headEnd = received.indexOf('\r\n\r\n')
    if (headEnd === -1) return
    const head = received.toString('latin1', 0, headEnd)
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
    if (received.length < headEnd + 4 + length) return
    received = received.subarray(headEnd + 4 + length)
    const done = pending
    pending = undefined
    done?.(Number(head.slice(9, 12)))
  })
  return {
    send: (bytes) =>
      new Promise<number>((resolve) => {
        pending = resolve
        socket.write(bytes)
      }),
    close: () => socket.destroy(),
  }
}

/** The young generation's spaces: what is not in them is old (old, code, trusted and large-object spaces). */
const youngSpaces = new Set(['new_space', 'new_large_object_space'])

function oldGeneration(spaces: readonly { spaceName: string; spaceUsedSize: number }[]): number {
  let used = 0
  for (const space of spaces) if (!youngSpaces.has(space.spaceName)) used += space.spaceUsedSize
  return used
}

const spaceInfo = (spaces: HeapSpaceInfo[]) =>
  spaces.map((space) => ({ spaceName: space.space_name, spaceUsedSize: space.space_used_size }))

/**
 * Bytes allocated on the whole heap while `run` runs (the growth of what is live plus what each collection freed),
 * and bytes that reached the old generation: its growth plus what full collections freed of it (a scavenge only adds
 * to it, by promoting; a full collection also promotes what is young, which this counts as freed less: an under-count
 * by at most the young generation's survivors, once per full collection).
 */
async function heapDuring(run: () => Promise<void>): Promise<{ allocated: number; promoted: number }> {
  const profiler = new GCProfiler()
  profiler.start()
  const before = getHeapStatistics().used_heap_size
  const oldBefore = oldGeneration(spaceInfo(getHeapSpaceStatistics()))
  await run()
  const after = getHeapStatistics().used_heap_size
  const oldAfter = oldGeneration(spaceInfo(getHeapSpaceStatistics()))
  const { statistics } = profiler.stop() ?? { statistics: [] }
  let freed = 0
  let oldFreed = 0
  for (const collection of statistics) {
    freed += collection.beforeGC.heapStatistics.usedHeapSize - collection.afterGC.heapStatistics.usedHeapSize
    if (collection.gcType !== 'Scavenge' && collection.gcType !== 'MinorMarkSweep')
      oldFreed += oldGeneration(collection.beforeGC.heapSpaceStatistics) - oldGeneration(collection.afterGC.heapSpaceStatistics)
  }
  return { allocated: after - before + freed, promoted: oldAfter - oldBefore + oldFreed }
}

/** Bytes allocated per request on each route (see {@link probeHeap}). */
export async function probeAllocation(options: ProbeOptions = {}): Promise<AllocationFigures> {
  const figures = await probeHeap(options)
  return Object.fromEntries(Object.entries(figures).map(([route, { allocated }]) => [route, allocated])) as AllocationFigures
}

/**
 * Starts a simulator on port 0, measures each route in turn (a page of pets, creates, a pet by id: GETs before POSTs,
 * the order `npm run bench` uses, which decides what V8 pretenures), closes it.
 */
export async function probeHeap(options: ProbeOptions = {}): Promise<Record<ProbeRoute, HeapFigures>> {
  const requests = options.requests ?? 2000
  const warmup = options.warmup ?? 3000
  const running = await startServer({
    app: createNodeApp({ keys: { [key]: 'enterprise:1000000000/1000000000' }, ban: false, maxPets: 100_000_000, seed: 1 }),
    port: 0,
  })
  const port = Number(new URL(running.url).port)
  const client = await openClient(port)
  try {
    const figures = {} as Record<ProbeRoute, HeapFigures>
    for (const route of Object.keys(probeRoutes) as ProbeRoute[]) {
      const bytes = requestBytes(route, port)
      const sendAll = async (count: number) => {
        for (let index = 0; index < count; index++) {
          const status = await client.send(bytes)
          if (status < 200 || status > 299) throw new Error(`${route} answered ${status}: the probe measures answered requests only`)
        }
      }
      await sendAll(warmup)
      const { allocated, promoted } = await heapDuring(() => sendAll(requests))
      figures[route] = { allocated: Math.round(allocated / requests), promoted: Math.round(promoted / requests) }
    }
    return figures
  } finally {
    client.close()
    await running.close(0)
  }
}

if (import.meta.main) {
  const requests = Number(process.env.PROBE_REQUESTS ?? 2000)
  const warmup = Number(process.env.PROBE_WARMUP ?? 3000)
  console.log(JSON.stringify(await probeHeap({ requests, warmup })))
}
