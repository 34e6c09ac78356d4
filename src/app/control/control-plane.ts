import { ApiError } from '../../core/http/api-error.ts'
import { jsonResponse, type PlainRequest, type PlainResponse } from '../../core/http/plain-http.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import type { ReconfigurableOptions } from '../../core/simulator/simulator-options.ts'
import { journalRoutes } from './journal-routes.ts'
import { dashboardResponse } from '../dashboard/dashboard-page.ts'
import { createEventStreams } from '../dashboard/event-stream.ts'
import { snapshotRoutes } from './snapshot-routes.ts'
import { scenarioRoutes } from './scenario-routes.ts'
import { clockRoutes, clockReading } from './clock-routes.ts'
import { faultRoutes } from './fault-routes.ts'
import { adminTokenProblem, controlAccess, guard } from './control-guard.ts'
import { controlPath, matchControlPath, type ControlOptions, type ControlRoute } from './control-route.ts'
import { pactRoutes } from './pact-routes.ts'
import { clientRoutes } from './client-routes.ts'
import { providerStateRoutes } from './provider-state-routes.ts'
import { checkMappedProviderStates, type MappedProviderStates } from '../../core/simulator/mapped-provider-states.ts'
import type { MappedStates } from '../../core/simulator/provider-states.ts'
import { createHostPolicy } from '../../core/access/host-policy.ts'
import { sandboxRoutes, type SandboxDirectory } from './sandbox-routes.ts'
import { metricsRoutes } from './metrics-routes.ts'
import { controlDocument, controlDocumentPath } from './control-document.ts'
import { createRequestMetrics, type RequestMetrics } from '../metrics/request-metrics.ts'
import { anyObject, arrayOf, boolean, clockSchema, integer, isoTime, object, ok, string } from './control-doc.ts'

export { controlPath, type ControlOptions, type ControlRoute }

/**
 * The simulator's control endpoints, which need no API key and never count
 * against a limit:
 *
 * - `GET /__sim/health`: `{ "status": "ok", "pets": n, "now": iso }` once ready, to any client (probes from outside);
 * - `POST /__sim/reset`: back to the initial catalogue, no counts or bans, empty journal, clock offset undone;
 * - `GET /__sim/clock`, `POST /__sim/clock` with `{ "advance": "90s" }` and/or `{ "set": "2030-12-05T00:00:00Z" }`,
 *   and optionally `"freeze": true | false`: `{ "now": iso, "epochMs": n, "frozen": boolean }` (`clock-routes.ts`);
 * - `GET /__sim/requests` (with filters), `/requests/count`, `/requests/wait`, `/requests.har`, `DELETE /__sim/requests`,
 *   `GET /__sim/coverage`, `DELETE /__sim/coverage`: the journal and contract coverage (`journal-routes.ts`);
 * - `GET /__sim/faults`, `POST /__sim/faults` (one rule or an array: 201 with their ids),
 *   `DELETE /__sim/faults/{id}`, `DELETE /__sim/faults`: the fault rules (`fault-routes.ts`);
 * - `GET /__sim/` (and `/__sim`): the dashboard, one self-contained page;
 * - `GET /__sim/state`: `simulator.state()`, what the dashboard shows;
 * - `GET /__sim/events`: server-sent events of requests and state changes, for the dashboard;
 * - `GET|PUT /__sim/snapshot`, `GET|POST /__sim/scenario`: the whole state, and scenarios (`snapshot-routes.ts`, `scenario-routes.ts`);
 * - `GET|DELETE /__sim/requests.pact`, `POST /__sim/provider-states`: Pact both ways (`pact-routes.ts`);
 * - `GET /__sim/provider-states`: the provider states with their parameters (`provider-state-routes.ts`);
 * - `GET /__sim/clients`: the client report, JSON or JUnit XML (`client-routes.ts`);
 * - `GET /__sim/metrics`: the Prometheus metrics of this world and its sandboxes (`metrics-routes.ts`);
 * - `GET /__sim/openapi.json`: the OpenAPI 3.1 document of these routes, made from their `doc` (`control-document.ts`).
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
  /** The world's request counts, which `GET /__sim/metrics` reads (the default world's plane reads its sandboxes' too). */
  readonly metrics: RequestMetrics
}

/**
 * `sandboxes`: the app's sandboxes, listed, made and deleted under `/__sim/sandboxes` (the default world's plane only);
 * `sandboxOptions`: the options they are made from, which a PUT's settings replace in part.
 */
export function createControlPlane(
  simulator: SimulatorCore,
  options: ControlOptions = {},
  sandboxes?: SandboxDirectory,
  sandboxOptions: ReconfigurableOptions = {},
): ControlPlane {
  const tokenProblem = options.adminToken === undefined ? undefined : adminTokenProblem(options.adminToken)
  if (tokenProblem !== undefined) throw new TypeError(`control.adminToken ${tokenProblem}: it would protect nothing`)
  const mapped = mappedStates(simulator, options.providerStates)
  const clockState = () => clockReading(simulator)
  const streams = createEventStreams(simulator, options.events)
  const hosts = createHostPolicy(options.allowedHosts)
  // Counted from the plane's making: a simulator served without a control plane (the MSW handlers) pays nothing.
  const metrics = createRequestMetrics()
  let document: Record<string, unknown> | undefined
  simulator.events.meter(metrics.record)
  const routes: ControlRoute[] = [
    {
      method: 'GET',
      path: '/',
      name: 'dashboard',
      doc: {
        summary: 'The dashboard: one self-contained HTML page (docs/dashboard.md)',
        responses: { '200': { description: 'The page', contentType: 'text/html; charset=utf-8', schema: string } },
      },
      resolve: () => dashboardResponse(),
    },
    {
      method: 'GET',
      path: '/state',
      name: 'state',
      doc: {
        summary: 'What the dashboard shows: keys with usage, bans, clock, faults, request counts',
        responses: ok(
          'The state',
          object({
            clock: clockSchema,
            keys: arrayOf(anyObject),
            faults: arrayOf(anyObject),
            pets: integer,
            basePath: string,
            operations: arrayOf(anyObject),
          }),
        ),
      },
      resolve: () => jsonResponse(simulator.state(), 200),
    },
    {
      method: 'GET',
      path: '/events',
      name: 'events',
      doc: {
        summary: 'Server-sent events of requests and state changes, for the dashboard',
        responses: { '200': { description: 'The event stream', contentType: 'text/event-stream', schema: string } },
      },
      resolve: () => streams.respond(),
    },
    {
      method: 'GET',
      path: '/health',
      name: 'health',
      doc: {
        summary: 'Readiness: to any client, no token needed',
        responses: {
          '200': {
            description: 'Ready',
            schema: object(
              {
                status: { const: 'ok' },
                pets: integer,
                now: isoTime,
                epochMs: integer,
                frozen: boolean,
                memory: anyObject,
                store: anyObject,
              },
              ['status', 'pets', 'now', 'epochMs', 'frozen', 'memory'],
            ),
          },
          '503': {
            description: 'The shared store does not answer (--store)',
            schema: object({ status: { const: 'unavailable' }, store: anyObject }),
          },
        },
      },
      resolve() {
        // With a shared store (`--store`), not ready while it does not answer: a load balancer drains the instance.
        const store = simulator.shared?.health()
        if (store !== undefined && !store.ready) return jsonResponse({ status: 'unavailable', store }, 503)
        return jsonResponse(
          {
            status: 'ok',
            ...(store === undefined ? {} : { store }),
            pets: simulator.store.size,
            ...clockState(),
            memory: simulator.memory(),
          },
          200,
        )
      },
    },
    {
      method: 'POST',
      path: '/reset',
      name: 'reset',
      doc: {
        summary: 'Back to the initial catalogue: no counts or bans, an empty journal, the clock offset undone',
        responses: ok('Reset', object({ status: { const: 'reset' }, pets: integer, now: isoTime, epochMs: integer, frozen: boolean })),
      },
      resolve() {
        simulator.reset()
        return jsonResponse({ status: 'reset', pets: simulator.store.size, ...clockState() }, 200)
      },
    },
    ...clockRoutes(simulator),
    ...journalRoutes(simulator),
    ...faultRoutes(simulator),
    ...snapshotRoutes(simulator),
    ...scenarioRoutes(simulator),
    ...pactRoutes(simulator, mapped),
    ...clientRoutes(simulator),
    ...providerStateRoutes(mapped),
    ...metricsRoutes(simulator, metrics, sandboxes),
    {
      method: 'GET',
      path: controlDocumentPath,
      name: 'controlDocument',
      doc: {
        summary: 'This document: every control route, made of the declarations each route is served with',
        responses: ok('The OpenAPI 3.1 document', object({ openapi: { const: '3.1.0' }, info: anyObject, paths: anyObject })),
      },
      // Made on first request, from the routes of this plane (a sandbox's plane has no sandbox routes).
      resolve() {
        document ??= controlDocument(routes)
        return jsonResponse(document, 200)
      },
    },
    ...(sandboxes === undefined ? [] : sandboxRoutes(sandboxes, simulator.basePath, sandboxOptions, simulator.shared?.sandboxes)),
  ]

  return {
    methods: [...new Set(routes.map((route) => route.method))],
    routes: routes.map(({ method, path, name }) => ({ method, path, name })),
    metrics,
    closeStreams: () => streams.closeAll(),
    check: (request) => guard(request, options, controlAccess(request.method, request.path.slice(controlPath.length) || '/'), hosts),
    respond(request) {
      // `/__sim` is the dashboard too, as `/__sim/` (its links are absolute).
      const path = request.path.slice(controlPath.length) || '/'
      guard(request, options, controlAccess(request.method, path), hosts)
      const { samePath, id } = matchControlPath(routes, path)
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

/** The team's provider states, checked against the simulator's scenarios; their teardown returns to the one it is in now. */
function mappedStates(simulator: SimulatorCore, states: MappedProviderStates | undefined): MappedStates | undefined {
  if (states === undefined) return undefined
  try {
    const names = simulator.scenarios().map((scenario) => scenario.name)
    return { states: checkMappedProviderStates(states, names), configuredScenario: simulator.scenario }
  } catch (error) {
    throw error instanceof RangeError ? new RangeError(`control.providerStates: ${error.message}`) : error
  }
}
