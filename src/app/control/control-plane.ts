import { ApiError } from '../../core/http/api-error.ts'
import { toEpochMilliseconds } from '../../core/time/clock.ts'
import { parseDuration } from '../../core/time/duration.ts'
import { jsonResponse, type PlainRequest, type PlainResponse } from '../../core/http/plain-http.ts'
import { readJsonText } from '../../core/operations/request-parsing.ts'
import { FaultRuleLimitError, type FaultRuleInput } from '../../core/faults/fault-rules.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import { journalRoutes } from './journal-routes.ts'
import { dashboardResponse } from '../dashboard/dashboard-page.ts'
import { createEventStreams } from '../dashboard/event-stream.ts'
import { createStateRoutes } from './snapshot-routes.ts'
import { createPactRoutes } from './pact-routes.ts'
import { adminTokenProblem, guard } from './control-guard.ts'
import { createHostPolicy } from '../../core/access/host-policy.ts'
import { controlPath, type ControlOptions, type ControlRoute } from './control-route.ts'

export { controlPath, type ControlOptions, type ControlRoute }

/**
 * The simulator's control endpoints, which need no API key and never count
 * against a limit:
 *
 * - `GET /__sim/health`: `{ "status": "ok", "pets": n, "now": iso }` once ready;
 * - `POST /__sim/reset`: back to the initial catalogue, no counts or bans, empty journal, clock offset undone;
 * - `GET /__sim/clock`, `POST /__sim/clock` with `{ "advance": "90s" }` and/or `{ "set": "2030-12-05T00:00:00Z" }`,
 *   and optionally `"freeze": true | false`: `{ "now": iso, "epochMs": n, "frozen": boolean }`;
 * - `GET /__sim/requests` (with filters), `/requests/count`, `/requests/wait`, `/requests.har`, `DELETE /__sim/requests`,
 *   `GET /__sim/coverage`, `DELETE /__sim/coverage`: the journal and contract coverage (`journal-routes.ts`);
 * - `GET /__sim/faults`, `POST /__sim/faults` (one rule or an array: 201 with their ids),
 *   `DELETE /__sim/faults/{id}`, `DELETE /__sim/faults`: the fault rules;
 * - `GET /__sim/` (and `/__sim`): the dashboard, one self-contained page;
 * - `GET /__sim/state`: `simulator.state()`, what the dashboard shows;
 * - `GET /__sim/events`: server-sent events of requests and state changes, for the dashboard;
 * - `GET|PUT /__sim/snapshot`, `GET|POST /__sim/scenario`: the whole state, and scenarios (`state-routes.ts`);
 * - `GET /__sim/requests.pact`, `POST /__sim/provider-states`: Pact both ways (`pact-routes.ts`).
 */
export interface ControlPlane {
  /** Every method a control route uses. */
  readonly methods: readonly string[]
  /** The control routes, for the MSW lane: method, path under {@link controlPath}, name. */
  readonly routes: readonly Pick<ControlRoute, 'method' | 'path' | 'name'>[]
  /** Answers a request whose path is under {@link controlPath}. Errors are thrown: the app turns them into responses, where CORS still decorates them. */
  respond(request: PlainRequest): PlainResponse | Promise<PlainResponse>
  /** Ends every open event stream, so that a server's drain is not held up by dashboards left open. */
  closeStreams(): void
  /** Throws the `ApiError` the control plane's per-request guard refuses a request with, if it does (see `guard`). */
  check(request: PlainRequest): void
}

export function createControlPlane(simulator: SimulatorCore, options: ControlOptions = {}): ControlPlane {
  const tokenProblem = options.adminToken === undefined ? undefined : adminTokenProblem(options.adminToken)
  if (tokenProblem !== undefined) throw new TypeError(`control.adminToken ${tokenProblem}: it would protect nothing`)
  const clockState = () => {
    // One reading, so that `now` and `epochMs` agree on a running clock.
    const epochMs = simulator.clock.now()
    return { now: new Date(epochMs).toISOString(), epochMs, frozen: simulator.clock.frozen }
  }
  const streams = createEventStreams(simulator, options.events)
  const hosts = createHostPolicy(options.allowedHosts)
  const routes: ControlRoute[] = [
    { method: 'GET', path: '/', name: 'dashboard', resolve: () => dashboardResponse() },
    { method: 'GET', path: '/state', name: 'state', resolve: () => jsonResponse(simulator.state(), 200) },
    { method: 'GET', path: '/events', name: 'events', resolve: () => streams.respond() },
    {
      method: 'GET',
      path: '/health',
      name: 'health',
      resolve: () => jsonResponse({ status: 'ok', pets: simulator.store.size, ...clockState() }, 200),
    },
    {
      method: 'POST',
      path: '/reset',
      name: 'reset',
      resolve() {
        simulator.reset()
        return jsonResponse({ status: 'reset', pets: simulator.store.size, ...clockState() }, 200)
      },
    },
    { method: 'GET', path: '/clock', name: 'clock', resolve: () => jsonResponse(clockState(), 200) },
    {
      method: 'POST',
      path: '/clock',
      name: 'moveClock',
      async resolve(request) {
        const body = await readControlBody(request)
        try {
          if (body.advance === undefined && body.set === undefined && body.freeze === undefined) {
            throw new RangeError('Send {"advance": "90s"}, {"set": "2030-12-05T00:00:00Z"} and/or {"freeze": true}')
          }
          if (body.freeze !== undefined && typeof body.freeze !== 'boolean') throw new RangeError('freeze must be true or false')
          // Validate everything, the instant it all leads to included, before moving anything. The shapes first: a
          // deeply nested array as `set` or `advance` overflowed the stack when its message was written (String()).
          const advance = body.advance === undefined ? undefined : parseDuration(scalar(body.advance, 'advance'))
          const set = body.set === undefined ? undefined : toEpochMilliseconds(scalar(body.set, 'set'))
          toEpochMilliseconds((set ?? simulator.clock.now()) + (advance ?? 0))
          if (body.freeze === true) simulator.clock.freeze()
          if (set !== undefined) simulator.clock.set(set)
          if (advance !== undefined) simulator.clock.advance(advance)
          if (body.freeze === false) simulator.clock.unfreeze()
        } catch (error) {
          throw new ApiError('invalid_body', (error as Error).message)
        }
        return jsonResponse(clockState(), 200)
      },
    },
    ...journalRoutes(simulator),
    { method: 'GET', path: '/faults', name: 'faults', resolve: () => jsonResponse({ faults: simulator.faults.list() }, 200) },
    {
      method: 'POST',
      path: '/faults',
      name: 'addFaults',
      async resolve(request) {
        const body = await readJson(request)
        let ids: string[]
        try {
          // All or nothing, checked whole before anything is added (fault-rules.ts), within the caps it names.
          ids = Array.isArray(body) ? simulator.faults.addAll(body as FaultRuleInput[]) : [simulator.faults.add(body as FaultRuleInput)]
        } catch (error) {
          if (error instanceof FaultRuleLimitError) throw new ApiError('too_many_faults', error.message)
          throw new ApiError('invalid_body', (error as Error).message)
        }
        return jsonResponse({ ids, faults: simulator.faults.list() }, 201)
      },
    },
    {
      method: 'DELETE',
      path: '/faults',
      name: 'clearFaults',
      resolve() {
        simulator.faults.clear()
        return jsonResponse({ faults: [] }, 200)
      },
    },
    {
      method: 'DELETE',
      path: '/faults/{id}',
      name: 'removeFault',
      resolve(_request, id) {
        if (id === undefined || !simulator.faults.remove(id)) throw new ApiError('fault_not_found', `No fault rule has the id ${id ?? ''}`)
        return jsonResponse({ faults: simulator.faults.list() }, 200)
      },
    },
    ...createStateRoutes(simulator, readJson),
    ...createPactRoutes(simulator, readJson),
  ]

  return {
    methods: [...new Set(routes.map((route) => route.method))],
    routes: routes.map(({ method, path, name }) => ({ method, path, name })),
    closeStreams: () => streams.closeAll(),
    check: (request) => guard(request, options, request.method === 'GET' && (request.path.slice(controlPath.length) || '/') === '/', hosts),
    respond(request) {
      // `/__sim` is the dashboard too, as `/__sim/` (its links are absolute).
      const path = request.path.slice(controlPath.length) || '/'
      guard(request, options, request.method === 'GET' && path === '/', hosts)
      let id: string | undefined
      const samePath = routes.filter((route) => {
        if (route.path === path) return true
        const prefix = route.path.endsWith('/{id}') ? route.path.slice(0, -'{id}'.length) : undefined
        if (prefix === undefined || !path.startsWith(prefix) || path.length === prefix.length || path.indexOf('/', prefix.length) !== -1)
          return false
        id = decodeSegment(path.slice(prefix.length))
        return true
      })
      // HEAD wherever GET is, as on the API: readiness probes (wait-on, for one) ask with HEAD.
      const method = request.method === 'HEAD' ? 'GET' : request.method
      const route = samePath.find((candidate) => candidate.method === method)
      if (route === undefined) {
        if (samePath.length === 0) throw new ApiError('route_not_found', `No control endpoint ${request.method} ${request.path}`)
        const allow = samePath.flatMap((candidate) => (candidate.method === 'GET' ? ['GET', 'HEAD'] : [candidate.method])).join(', ')
        throw new ApiError('method_not_allowed', `${request.method} is not supported here; use ${allow}`, { Allow: allow })
      }
      return route.resolve(request, id)
    },
  }
}

async function readControlBody(request: PlainRequest): Promise<Record<string, unknown>> {
  const data = await readJson(request)
  if (data === undefined) return {}
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) return data as Record<string, unknown>
  throw new ApiError('invalid_body', 'The control request body must be a JSON object')
}

/** A control request's JSON body (UTF-8, strictly), or undefined for none. */
async function readJson(request: PlainRequest): Promise<unknown> {
  const text = readJsonText(await request.readBody(), request.header('content-type'), request.header('content-encoding'))
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ApiError('invalid_body', `The control request body is not valid JSON: ${(error as Error).message}`)
  }
}

/** A control body's field that must be a string or a number; a `RangeError` naming the field otherwise. */
function scalar(value: unknown, field: string): string | number {
  if (typeof value === 'string' || typeof value === 'number') return value
  throw new RangeError(
    `${field} must be a string or a number (got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value})`,
  )
}

/** A path segment, percent-decoded; a malformed escape is kept as sent (and then names no rule: 404, not 500). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
