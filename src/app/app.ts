import { ApiError } from '../core/http/api-error.ts'
import { hasDotSegment } from '../core/http/path-normalisation.ts'
import { errorResponse, isPromiseLike, type PlainRequest, type PlainResponse, type TransportFacts } from '../core/http/plain-http.ts'
import { createSimulatorCore, type SimulatorCore, type SimulatorOptions } from '../core/simulator/simulator-core.ts'
import type { ReconfigurableOptions } from '../core/simulator/simulator-options.ts'
import { createControlPlane, controlPath, type ControlOptions } from './control/control-plane.ts'
import { createBrowserAccess, isCrossSiteNavigation, journalRefusal, keyOf, type HostCheck } from './browser-access.ts'
import { controlAccess } from './control/control-guard.ts'
import { sandboxNamePattern } from '../core/simulator/sandbox-registry.ts'
import { createHostPolicy, hostNotAllowed } from '../core/access/host-policy.ts'
import { applyCors, corsHeaders, preflightResponse, withoutCorsGrant } from './cors.ts'
import { toFetchResponse, toPlainRequest } from './fetch-lane.ts'
import { createOpenApiRoute, documentApiUrl, type OpenApiDocumentSource } from './openapi-route.ts'
import { serverRootResponse } from './server-root.ts'
import type { RequestMetrics } from './metrics/request-metrics.ts'
import { createSandboxes, sandboxHeaderName, sandboxPrefix, type SandboxOptions, type Sandboxes } from './sandboxes.ts'

export interface AppOptions extends SimulatorOptions {
  /** Serve this simulator instead of creating one from the options. */
  simulator?: SimulatorCore
  /** The `/__sim` control endpoints: on (default, loopback clients only), off, or with their options (an admin token, allowed host names). */
  control?: boolean | ControlOptions
  /**
   * Checks `Host` on every request to the API and the OpenAPI document: loopback names (`localhost`, `*.localhost`,
   * `127.x.y.z`, `[::1]`) and these names (each exact, or `.example.test` for a domain and its subdomains; `*`: any),
   * else 403 `host_not_allowed` (DNS rebinding). Undefined (the default): no check, as the app cannot know where it is
   * served; the CLI passes `--allowed-host` when it is bound to loopback. The control plane checks its own
   * (`control.allowedHosts`).
   */
  allowedHosts?: readonly string[] | undefined
  /**
   * Sandboxes: isolated simulators in this one, each made from these options by the first request to
   * `/sandboxes/<name>/…` that the simulator admits (one with a key, or an admitted control request; docs/sharing.md): at most `max` at once (default 50; 0 for none), each forgotten after
   * `idleMs` without a request (default 30 minutes), picked by `X-Petstore-Sandbox` too with `header: true`. `false`:
   * none. On by default.
   */
  sandboxes?: SandboxOptions | false
  /** Serves `GET /openapi.json`, `/openapi.yaml` and their 3.0 forms from this source (the Node server passes `fixtures/openapi.yaml`). */
  openApiDocument?: () => OpenApiDocumentSource | Promise<OpenApiDocumentSource>
}

/**
 * The standalone simulator as a function of plain requests: CORS, the
 * control endpoints, the OpenAPI document and the API pipeline, with a 404
 * Error for anything else. It needs neither msw nor Node: the Node server
 * calls {@link App.respond} directly, and {@link App.fetch} is the same app
 * as a web-standard `fetch` function (like a hono app).
 *
 * @example
 * const app = createApp({ seed: 1 })
 * const response = await app.fetch(new Request('http://localhost/v1/pets', { headers: { Authorization: 'Bearer demo-pro-key' } }))
 */
export interface App {
  readonly simulator: SimulatorCore
  /**
   * Answers any request. Errors of every step become Error responses here,
   * inside the chain, so CORS still decorates them (hono's `onError` model).
   */
  respond(request: PlainRequest): PlainResponse | Promise<PlainResponse>
  /**
   * The same, for a Fetch `Request`; `transport` carries what the caller knows
   * of the client. A fault rule's reset or hang gives `Response.error()`, the
   * Fetch standard's network error (which `fetch` itself turns into a rejection).
   */
  fetch(request: Request, transport?: TransportFacts): Promise<Response>
  /** @internal Whether a path is the app's own (API, control, OpenAPI), for middleware that passes the rest on. */
  owns(path: string): boolean
  /** @internal The methods a CORS preflight allows: every method of a route, and OPTIONS. */
  readonly allowedMethods: string
  /**
   * @internal
   * The refusal the app would answer a Fetch request with before serving it, or undefined when it admits it: under
   * `/__sim` the control plane's guard (a foreign `Origin` or `Host`, a client off loopback, no admin token), elsewhere
   * a `Host` that is not allowed (journaled, as the app journals it). The msw lane asks before the user's handlers, so
   * these rules apply whatever answers; which pages may call is the user's handlers' own choice (they answer any
   * origin, as before), and the app's again for what they leave to the simulator.
   */
  refusal(request: Request, transport?: TransportFacts): Promise<Response> | undefined
  /** Ends the dashboard's open event streams (`GET /__sim/events`): a server calls it when it starts to drain. */
  closeStreams(): void
  /** @internal The sandboxes, each an app of its own (`/sandboxes/<name>/…`); undefined when they are off. */
  readonly sandboxes: Sandboxes<App>['registry'] | undefined
  /** @internal The world's request counts (`GET /__sim/metrics`); undefined without a control plane. */
  readonly metrics: RequestMetrics | undefined
}

export function createApp(options: AppOptions = {}): App {
  return createAppWith(options, { createControlPlane, createOpenApiRoute, createHostCheck, createSandboxes })
}

/** The Host check of `allowedHosts`: loopback names and those given (`host-policy.ts`), else 403 `host_not_allowed`. */
function createHostCheck(allowedHosts: readonly string[]): HostCheck {
  return { policy: createHostPolicy(allowedHosts), refusal: hostNotAllowed }
}

/**
 * The app with the control plane and OpenAPI route it is given, or none: `simulator.fetch` answers the API without them, so a page that
 * bundles the simulator does not carry the control plane and the dashboard unless it calls {@link createApp} (its
 * bundler drops them: they are reached only from there).
 */
export function createAppWith(
  options: AppOptions,
  parts: {
    readonly createControlPlane?: typeof createControlPlane
    readonly createOpenApiRoute?: typeof createOpenApiRoute
    /** The Host check of `allowedHosts`: only {@link createApp} passes it, so pages that never call it leave it out. */
    readonly createHostCheck?: typeof createHostCheck
    /** The sandboxes: only {@link createApp} passes it (`simulator.fetch` answers one world). */
    readonly createSandboxes?: typeof createSandboxes
  },
): App {
  const { createControlPlane: createControl, createOpenApiRoute: createDocumentRoute } = parts
  const simulator = options.simulator ?? createSimulatorCore(options)
  const { basePath, pipeline } = simulator
  const sandboxes =
    options.sandboxes === false || parts.createSandboxes === undefined
      ? undefined
      : createSandboxWorlds(options, parts, (request, name) => refusedSandbox(request, name))
  const control =
    options.control === false || createControl === undefined
      ? undefined
      : createControl(
          simulator,
          options.control === true || options.control === undefined ? {} : options.control,
          sandboxes?.registry,
          sandboxOptions(options),
        )
  const openApi =
    options.openApiDocument === undefined || createDocumentRoute === undefined ? undefined : createDocumentRoute(options.openApiDocument)
  const allowedMethods = [...new Set([...pipeline.table.methods, ...(control?.methods ?? []), 'OPTIONS'])].join(', ')
  const underApi = (path: string) => basePath === '' || path === basePath || path.startsWith(`${basePath}/`)
  const underControl = (path: string) => control !== undefined && (path === controlPath || path.startsWith(`${controlPath}/`))
  const browserAccess = createBrowserAccess(
    simulator,
    options.allowedHosts === undefined ? undefined : parts.createHostCheck?.(options.allowedHosts),
  )

  /** A request refused before anything else, as answered: without a CORS grant, and journaled when it is the API's. */
  function refused(request: PlainRequest, hostOnly = false): PlainResponse | undefined {
    if (underControl(request.path)) return undefined
    const refusal = browserAccess.refusal(request, hostOnly)
    if (refusal === undefined) return undefined
    const response = errorResponse(refusal)
    if (request.path.startsWith('/') && underApi(request.path) && !openApi?.owns(request.path)) journalRefusal(simulator, request, response)
    return response
  }

  /**
   * A request that would make a sandbox, refused before it does. A sandbox counts against a cap every job on the
   * simulator shares, so only a request the simulator admits makes one: one with a key the API knows, or a control
   * request its control plane admits (loopback, or the admin token; the dashboard's page and the health probe, which
   * need neither, make none). Refused: what the API refuses (a foreign Host, a foreign page's <img>), a foreign page's
   * navigation (it may reach a sandbox, not make one), and every other request (keyless, a wrong key, a wrong admin
   * token): 60 keyless requests filled the cap of 50, and so did a Safari before 16.4's <img>, sent without Fetch
   * Metadata as curl sends it. `inner` is the request as the sandbox's app reads it (its control plane at `/__sim`).
   */
  function refusedSandbox(inner: PlainRequest, name: string): PlainResponse | Promise<PlainResponse | undefined> | undefined {
    const refusal =
      browserAccess.refusal(inner) ??
      (isCrossSiteNavigation(inner)
        ? new ApiError(
            'origin_not_allowed',
            'Pages on other sites may not make a sandbox (Sec-Fetch-Site: cross-site): open it from its own pages, or make it first (PUT /__sim/sandboxes/<name>)',
          )
        : undefined)
    if (refusal !== undefined) return errorResponse(refusal)
    // The registry's own answers first: sandboxes off, or a name that is not one.
    if (sandboxes!.registry.max === 0 || !sandboxNamePattern.test(name)) return undefined
    try {
      if (admitsNewSandbox(inner)) return undefined
    } catch (error) {
      return errorResponse(error)
    }
    // With a shared store, a sandbox the fleet has is made here as this instance's copy of it.
    const fleet = simulator.shared?.sandboxes
    if (fleet === undefined) return errorResponse(noSandbox(name))
    return fleet.list(name).then(
      (entries) => (entries.length > 0 ? undefined : errorResponse(noSandbox(name))),
      (error: unknown) => errorResponse(error),
    )
  }

  /** Whether a request to a sandbox that does not exist may make it; throws the control plane's refusal of a control request. */
  function admitsNewSandbox(inner: PlainRequest): boolean {
    if (inner.path === controlPath || inner.path.startsWith(`${controlPath}/`)) {
      if (control === undefined || controlAccess(inner.method, inner.path.slice(controlPath.length) || '/') !== 'guarded') return false
      control.check(inner)
      return true
    }
    return inner.transport.local === true || keyOf(simulator, inner) !== undefined
  }

  /**
   * What a preflight offers: the methods the path itself serves, from the route table (a preflight of /v1/pets/1
   * offered POST and DELETE, which are 405s there); every method for a path the app does not know.
   */
  function preflightMethods(path: string): string {
    if (openApi?.owns(path)) return 'GET, HEAD, OPTIONS'
    if (underApi(path)) {
      const match = pipeline.table.match('OPTIONS', path.slice(basePath.length))
      if (match.kind === 'wrong-method') return `${match.allow}, OPTIONS`
    }
    return allowedMethods
  }

  function route(request: PlainRequest): PlainResponse | Promise<PlainResponse> {
    const { path } = request
    if (!path.startsWith('/'))
      throw new ApiError('bad_request', `The request target must be a path (got ${JSON.stringify(path.slice(0, 100))})`)
    if (hasDotSegment(path)) throw new ApiError('bad_request', 'The path has a dot segment (. or ..): send it resolved')
    // The control plane first: its own rules for pages on other origins, preflights included. A base path at
    // the root would swallow /__sim and /openapi.*, so those are checked before the API.
    if (underControl(path)) {
      // A world in a shared store answers its control plane from the fleet's state; its health after one bounded read
      // of it (not one at a time with the control requests, and answered whether the store answers or not); its
      // metrics (this instance's own, the store's availability among them) at once, store or not.
      const { shared } = simulator
      if (shared === undefined || path === `${controlPath}/metrics`) return control!.respond(request)
      if (path === `${controlPath}/health`) return shared.refresh().then(() => control!.respond(request))
      return shared.control(request, () => control!.respond(request))
    }
    if (request.method === 'OPTIONS') return preflightResponse(request, preflightMethods(path))
    if (openApi?.owns(path))
      return openApi.respond(request.method, path, documentApiUrl(request.scheme ?? 'http', request.authority, basePath))
    // The CORS grant goes in before the journal records the answer (API answers carry no `Vary` of their own).
    if (underApi(path)) {
      const counting = isCrossSiteNavigation(request) ? 'uncounted-anonymous' : 'counted'
      return pipeline.respond(request, undefined, corsHeaders(request.header('origin'), undefined), counting)
    }
    if (path === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
      return serverRootResponse(request, {
        basePath,
        dashboard: control !== undefined,
        openApi: openApi !== undefined,
        prefix: options.sandboxPath,
      })
    }
    throw new ApiError('route_not_found', `No route ${request.method} ${path}: the API is under ${basePath || '/'}`)
  }

  /** A request for a sandbox, answered by its app; undefined for the default world's. One prefix check unless the header is on. */
  function sandboxed(request: PlainRequest): PlainResponse | Promise<PlainResponse> | undefined {
    let answer: PlainResponse | Promise<PlainResponse> | undefined
    try {
      if (request.path.startsWith(sandboxPrefix)) answer = sandboxes!.respondByPath(request)
      else if (!sandboxes!.header || request.path.startsWith(`${controlPath}/sandboxes`)) return undefined
      else {
        const name = request.header(sandboxHeaderName)
        answer = name === undefined ? undefined : sandboxes!.respondByHeader(name, request)
      }
    } catch (error) {
      return applyCors(request, errorResponse(error))
    }
    // Made after the shared store's answer (whether the fleet has the sandbox), a refusal is answered as one made at once.
    return isPromiseLike(answer) ? answer.then(undefined, (error: unknown) => applyCors(request, errorResponse(error))) : answer
  }

  function respond(request: PlainRequest): PlainResponse | Promise<PlainResponse> {
    if (sandboxes !== undefined) {
      const answer = sandboxed(request)
      if (answer !== undefined) return answer
    }
    // A foreign Host, or a page whose origin is not allowed, is refused before anything else, preflights included, and
    // without a CORS grant: its requests are neither counted nor served (the control plane has stricter rules of its own).
    const refusal = refused(request)
    if (refusal !== undefined) return refusal
    let response: PlainResponse | Promise<PlainResponse>
    try {
      response = route(request)
    } catch (error) {
      response = errorResponse(error)
    }
    // No CORS grant on the control plane: it is not for pages on other origins.
    const cors = !underControl(request.path)
    if (isPromiseLike(response)) {
      return response.then(
        (answered) => (cors ? applyCors(request, answered) : answered),
        (error: unknown) => (cors ? applyCors(request, errorResponse(error)) : errorResponse(error)),
      )
    }
    return cors ? applyCors(request, response) : response
  }

  return {
    simulator,
    respond,
    allowedMethods,
    closeStreams() {
      control?.closeStreams()
      sandboxes?.closeStreams()
    },
    sandboxes: sandboxes?.registry,
    metrics: control?.metrics,
    refusal(request, transport = {}) {
      const plain = toPlainRequest(request, simulator.bodyLimit, transport)
      if (!underControl(plain.path)) {
        const answer = refused(plain, true)
        return answer === undefined ? undefined : Promise.resolve(withoutCorsGrant(toFetchResponse(answer, request.method) as Response))
      }
      try {
        control!.check(plain)
        return undefined
      } catch (error) {
        return Promise.resolve(toFetchResponse(errorResponse(error), request.method, request.signal))
      }
    },
    owns: (path) =>
      underControl(path) || openApi?.owns(path) === true || underApi(path) || (sandboxes !== undefined && path.startsWith(sandboxPrefix)),
    async fetch(request, transport = {}) {
      return toFetchResponse(await respond(toPlainRequest(request, simulator.bodyLimit, transport)), request.method, request.signal)
    },
  }
}

/** The answer to a request that may not make the sandbox it names, which does not exist: what makes one. */
function noSandbox(name: string): ApiError {
  return new ApiError(
    'sandbox_not_found',
    `No sandbox ${JSON.stringify(name)}, and this request may not make one: a request with an API key makes it, or PUT /__sim/sandboxes/${name}; GET /__sim/sandboxes lists them`,
  )
}

/** The options every sandbox's state is made from (as {@link createSandboxWorlds} passes them on): a PUT's settings replace some. */
function sandboxOptions(options: AppOptions): ReconfigurableOptions {
  const { seed, pets, fixtures, keys, faults, scenarios, scenario } = options
  return { seed, pets, fixtures, keys, faults, scenarios, scenario }
}

/** The sandboxes of an app: each an app of its own over a simulator made from the same options, without sandboxes. */
function createSandboxWorlds(
  options: AppOptions,
  parts: Parameters<typeof createAppWith>[1],
  refuseNew: NonNullable<Parameters<typeof createSandboxes>[1]['refuseNew']>,
): Sandboxes<App> {
  const { simulator: _simulator, sandboxes: sandboxOptions, ...rest } = options
  return parts.createSandboxes!((name) => createAppWith({ ...rest, sandboxPath: `${sandboxPrefix}${name}`, sandboxes: false }, parts), {
    ...(sandboxOptions === false ? {} : sandboxOptions),
    clock: options.clock,
    // In a shared store each sandbox here is a copy of the fleet's, whose cap the store keeps: a copy can be forgotten.
    whenFull: options.shared === undefined ? 'refuse' : 'forget-least-recent',
    onForget: (world) => world.simulator.shared?.release(),
    refuseNew,
  })
}
