// `npm run bench:steps` (and the end of `npm run bench`): where the pipeline's CPU goes, step by step (issue #28,
// item 3). On the real pipeline of a simulator core with a manual clock, in this process: the whole `respond` for
// GET /v1/pets?limit=20 and POST /v1/pets, then each step alone with the same inputs (authentication, the limiter,
// the route match, the journal's capture, coverage, events, the client report's grading), and the answer (resolver, headers, serialisation) as
// what is left. CPU µs per call (process.cpuUsage), median of rounds that alternate the measurements, each a fixed
// number of calls: bounded, and less moved by other work on the machine than wall time. A step alone in a loop is
// warmer than in the pipeline: the breakdown names where the µs go, it does not add up to the last decimal.
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import { createSimulatorEvents } from '../../src/core/simulator/simulator-events.ts'
import { createManualClock } from '../../src/core/time/clock.ts'
import { identifyCaller } from '../../src/core/pipeline/api-pipeline-steps.ts'
import { createCoverageTally } from '../../src/core/journal/contract-coverage.ts'
import { createRequestJournal, type RecordInput } from '../../src/core/journal/request-journal.ts'
import { createClientGrader } from '../../src/core/grading/client-grader.ts'
import { fromRecorded } from '../../src/core/grading/gradable-request.ts'
import { createKeyRing } from '../../src/core/access/api-keys.ts'
import { apiRoutes } from '../../src/core/operations/api-routes.ts'
import type { PlainRequest, PlainResponse } from '../../src/core/http/plain-http.ts'
import type { OperationContext } from '../../src/core/operations/operation-context.ts'
import { createRequestMetrics } from '../../src/app/metrics/request-metrics.ts'

const key = 'steps-bench-key'
const rawHeaders = ['Host', '127.0.0.1:4010', 'Authorization', `Bearer ${key}`, 'Accept', '*/*', 'User-Agent', 'autocannon']
const keys = { [key]: 'enterprise:1000000000/1000000000' }
const createBody = new TextEncoder().encode(JSON.stringify({ name: 'Bench', categoryId: 1 }))

function plain(method: string, path: string, query: string): PlainRequest {
  const headers = method === 'POST' ? ['Content-Type', 'application/json', ...rawHeaders] : rawHeaders
  return {
    method,
    path,
    query,
    authority: '127.0.0.1:4010',
    header: (name) => (name === 'authorization' ? `Bearer ${key}` : name === 'content-type' ? 'application/json' : undefined),
    headerList: () => headers,
    readBody: () => Promise.resolve(createBody),
    transport: { clientAddress: '127.0.0.1' },
  }
}

function core(journalSize?: number) {
  return createSimulatorCore({
    clock: createManualClock('2030-01-01T00:00:00Z'),
    keys,
    ban: false,
    maxPets: 100_000_000,
    ...(journalSize === undefined ? {} : { journalSize }),
  })
}

/** CPU µs per call of `calls` calls; awaited only when a call returns a promise. */
async function microsPerCall(run: () => unknown, calls: number): Promise<number> {
  const started = process.cpuUsage()
  for (let index = 0; index < calls; index++) {
    const result = run()
    if (result instanceof Promise) await result
  }
  const used = process.cpuUsage(started)
  return (used.user + used.system) / calls
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

export interface StepFigures {
  readonly get: Record<string, number>
  readonly post: Record<string, number>
}

export async function runStepsBench(rounds = Number(process.env.BENCH_STEP_ROUNDS ?? 9), calls = 20_000): Promise<StepFigures> {
  const full = core()
  const bare = core(0)
  const get = plain('GET', '/v1/pets', 'limit=20')
  const post = plain('POST', '/v1/pets', '')
  // A key ring as the simulator's: authentication as the pipeline does it (identifyCaller reads only the ring).
  const fullContext = { keyRing: createKeyRing(keys) } as OperationContext
  const auth = (request: PlainRequest) => identifyCaller(fullContext, request)
  const caller = identifyCaller(fullContext, get)
  const coverage = createCoverageTally(apiRoutes, () => undefined)
  const journal = createRequestJournal({ basePath: '/v1' })
  const sample = (await full.pipeline.respond(get)) as PlainResponse
  const samplePost = (await full.pipeline.respond(post)) as PlainResponse
  const recordInput = (method: string, response: PlainResponse, request: PlainRequest): RecordInput => ({
    atMs: 0,
    method,
    path: request.query === '' ? request.path : `${request.path}?${request.query}`,
    status: response.status,
    operation: method === 'GET' ? 'listPets' : 'createPet',
    caller: 'key#bench',
    plan: 'enterprise',
    durationMs: 0.01,
    forced: undefined,
    fault: undefined,
    exchange: {
      rawHeaders: request.headerList?.(),
      requestBody: method === 'POST' ? createBody : undefined,
      responseHeaders: response.headers,
      responseBody: response.body,
    },
  })
  const getInput = recordInput('GET', sample, get)
  const postInput = recordInput('POST', samplePost, post)
  const entry = journal.record(getInput)
  const postEntry = journal.record(postInput)
  // The client report's step (issue 48): what the simulator's onRecord hook does with each recorded request.
  const grader = createClientGrader({ sunsetAt: Date.UTC(2030, 11, 5), maxCallers: 1000 })
  const events = createSimulatorEvents()
  const withListener = core()
  withListener.events.subscribe(() => {})
  // The metrics of `GET /__sim/metrics`, as the control plane meters a simulator (issue 49: at most 1 µs a request).
  const metered = core()
  metered.events.meter(createRequestMetrics().record)
  const metrics = createRequestMetrics()

  const measurements: Record<string, () => unknown> = {
    'get whole': () => full.pipeline.respond(get),
    'get journal off': () => bare.pipeline.respond(get),
    'get 1 event listener': () => withListener.pipeline.respond(get),
    'post whole': () => full.pipeline.respond(post),
    'post journal off': () => bare.pipeline.respond(post),
    'post 1 event listener': () => withListener.pipeline.respond(post),
    'get metered': () => metered.pipeline.respond(get),
    'post metered': () => metered.pipeline.respond(post),
    'metrics record get': () => metrics.record(entry),
    authentication: () => auth(get),
    limiter: () => full.limiter.consume(caller.bucket, caller.plan),
    'route match': () => full.pipeline.table.match('GET', '/pets'),
    'journal capture get': () => journal.record(getInput),
    'journal capture post': () => journal.record(postInput),
    coverage: () => coverage.count('listPets', 200, 'behaviour'),
    'events (none listening)': () => events.request(entry),
    'client grading get': () => grader.observe(fromRecorded(entry)),
    'client grading post': () => grader.observe(fromRecorded(postEntry)),
  }
  const figures = new Map<string, number[]>(Object.keys(measurements).map((name) => [name, []]))
  const names = Object.keys(measurements)
  for (let round = 0; round < rounds; round++) {
    // Each round in another order, so that neither warm-up nor drift favours one.
    const order = round % 2 === 0 ? names : [...names].reverse()
    for (const name of order) figures.get(name)!.push(await microsPerCall(measurements[name]!, calls))
  }
  const at = (name: string) => median(figures.get(name)!)
  const range = (name: string) => {
    const values = figures.get(name)!
    return `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`
  }
  const lane = (method: 'get' | 'post') => {
    const whole = at(`${method} whole`)
    const journalStep = Math.max(0, whole - at(`${method} journal off`))
    const steps = {
      authentication: at('authentication'),
      limiter: at('limiter'),
      'route match': at('route match'),
      'journal capture': journalStep,
      coverage: at('coverage'),
      'events (none listening)': at('events (none listening)'),
      'client grading': at(`client grading ${method}`),
    }
    const named = Object.values(steps).reduce((sum, value) => sum + value, 0)
    return {
      whole,
      ...steps,
      'answer (resolver, headers, JSON) and flow': Math.max(0, whole - named),
      'one event listener (a dashboard), extra': at(`${method} 1 event listener`) - whole,
      'journal capture alone (record)': at(`journal capture ${method}`),
      "metrics (the control plane's meter), extra": at(`${method} metered`) - whole,
      'metrics record alone': at('metrics record get'),
    }
  }
  const result = { get: lane('get'), post: lane('post') }
  console.log(
    `\npipeline steps, in-process (simulator core, manual clock), CPU µs per call, median of ${rounds} alternated rounds of ${calls} calls:`,
  )
  console.log(`${''.padEnd(46)}${'GET list'.padStart(10)}${'POST'.padStart(10)}`)
  for (const name of Object.keys(result.get)) {
    console.log(
      `  ${name.padEnd(44)}${(result.get as Record<string, number>)[name]!.toFixed(2).padStart(10)}${(result.post as Record<string, number>)[name]!.toFixed(2).padStart(10)}`,
    )
  }
  console.log(
    `  (ranges over the rounds: whole GET ${range('get whole')}, POST ${range('post whole')}; journal off GET ${range('get journal off')}, POST ${range('post journal off')}; metrics record ${range('metrics record get')})`,
  )
  console.log(
    '  journal capture = whole minus the same pipeline with journalSize 0 (coverage and events still run); the rest, each step alone; answer = whole minus the named steps.',
  )
  return result
}

if (import.meta.url === `file://${process.argv[1]}`) await runStepsBench()
