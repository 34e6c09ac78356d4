import type { PlainRequest, PlainResponse } from '../../src/core/http/plain-http.ts'
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import { createManualClock } from '../../src/core/time/clock.ts'

// The API pipeline driven on plain data, without a lane: what test/core/pipeline's tests share.

/** When the pipeline tests' clock starts: 30 s into a UTC minute. */
const pipelineStart = Date.UTC(2030, 0, 1, 12, 0, 30)
const encoder = new TextEncoder()

/** A `PlainRequest` as a lane makes one: `target` with its query, headers by any case, a body if given. */
export function plain(method: string, target: string, headers: Record<string, string> = {}, body?: string): PlainRequest {
  const [path, query = ''] = target.split('?') as [string, string?]
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
  return {
    method,
    path,
    query,
    authority: 'localhost',
    header: (name) => lower[name],
    headerList: () => Object.entries(headers).flat(),
    readBody: async () => encoder.encode(body ?? ''),
    transport: { clientAddress: '127.0.0.1' },
  }
}

/** A simulator core of 5 pets on a manual clock, and its pipeline's `respond` as a promise. */
export function setUpPipeline(options: Parameters<typeof createSimulatorCore>[0] = {}) {
  const clock = createManualClock(pipelineStart)
  const simulator = createSimulatorCore({ clock, pets: 5, ...options })
  const respond = (request: PlainRequest): Promise<PlainResponse> => Promise.resolve(simulator.pipeline.respond(request))
  return { simulator, respond, clock }
}
