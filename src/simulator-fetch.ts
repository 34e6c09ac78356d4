import { createAppWith } from './app/app.ts'
import type { SimulatorCore } from './core/simulator/simulator-core.ts'

/** A `fetch` that answers from one simulator in the same process: no msw, no network. */
export type SimulatorFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

/** The transport facts of an in-process call: it comes from this process, as a loopback client would. */
const inProcess = { clientAddress: '127.0.0.1' } as const

/**
 * `simulator.fetch`: the simulator's own app (the API and CORS; not the control endpoints, for which the simulator
 * object itself is the in-process control)
 * behind the standard `fetch` signature, for clients that take a fetch
 * (openapi-fetch, ky, wretch, axios's fetch adapter) and code that can be
 * handed one. It answers as the server does, with the same journal and
 * limits, in tens of microseconds: msw 3's `setupServer` runs undici's whole
 * client over a mocked socket for each request (test/bench/HISTORY.md,
 * "Figures moved out of source comments").
 *
 * A relative URL is resolved against the simulator's base URL (`pets?limit=2`
 * is `<base>/pets?limit=2`); an absolute one is answered whatever its host,
 * as the server answers any `Host`. A fault that breaks the connection
 * (`reset`, `hang`) rejects with a `TypeError`, as `fetch` does on a network
 * error. The app is built on the first call.
 *
 * The app is imported statically: a dynamic import would not split it off,
 * since the package's main entry exports `createApp` too (rolldown:
 * INEFFECTIVE_DYNAMIC_IMPORT), and in a Node build it put rolldown's
 * CommonJS interop, which imports `node:module`, on the browser entry's path.
 */
export function createSimulatorFetch(core: SimulatorCore): SimulatorFetch {
  let app: ReturnType<typeof createAppWith> | undefined
  const base = `${core.baseOrigin ?? 'http://localhost'}${core.basePath}/`
  return async (input, init) => {
    // The API, CORS and errors as the server answers them; no control plane (the simulator object is the control).
    app ??= createAppWith({ simulator: core }, {})
    const request = input instanceof Request && init === undefined ? input : new Request(resolve(input, base), init)
    const response = await app.fetch(request, inProcess)
    if (response.type === 'error')
      throw new TypeError('fetch failed', { cause: new Error('the simulator broke the connection (a fault rule)') })
    return response
  }
}

function resolve(input: RequestInfo | URL, base: string): URL | Request {
  if (input instanceof Request) return input
  return new URL(input, base)
}
