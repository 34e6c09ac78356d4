import { ApiError } from './api-error.ts'
import type { ApiKey } from './api-keys.ts'
import { apiRoutes, type OperationResult } from './api-routes.ts'
import { invalidKey, readBearerToken } from './bearer-token.ts'
import { isPromiseLike, jsonResponse, type PlainRequest, type PlainResponse } from './plain-http.ts'
import { anonymousPlan, type Plan } from './plans.ts'
import { rateLimitHeaders } from './rate-limit-headers.ts'
import { anonymousCallerPrefix, type RateLimitDecision } from './rate-limiter.ts'
import { compileRouteTable, type RouteMatch, type RouteTable } from './route-table.ts'
import type { Latency, SimulatorState } from './simulator-state.ts'

/**
 * The API's request pipeline, on plain data: authentication, the rate
 * limiter, the operation's resolver, the Error body for anything thrown on
 * the way, the rate-limit and route headers, latency, and the journal. Every
 * lane answers API requests through it, so the API behaves the same
 * in-process, through `app.fetch` and on the Node server.
 */
export interface ApiPipeline {
  readonly table: RouteTable
  /**
   * Answers a request whose path is under the base path. A lane that has
   * matched the route itself (MSW) passes its match; otherwise the table
   * matches the path. Synchronous unless the operation reads the body or
   * latency is configured.
   */
  respond(request: PlainRequest, match?: RouteMatch): PlainResponse | Promise<PlainResponse>
}

export interface PipelineOptions {
  /** Waits `ms` (latency). Default: a timer. */
  readonly delay?: (ms: number) => Promise<void>
}

export function createApiPipeline(state: SimulatorState, options: PipelineOptions = {}): ApiPipeline {
  const table = compileRouteTable(apiRoutes, state)
  const delay = options.delay ?? wait
  const { latency, basePath } = state

  function finish(
    request: PlainRequest,
    operation: string,
    caller: Caller,
    decision: RateLimitDecision,
    routeHeaders: Readonly<Record<string, string>> | undefined,
    result: OperationResult,
    started: number,
    receivedAt: number,
  ): PlainResponse | Promise<PlainResponse> {
    // One header object, built once with every header.
    const headers = rateLimitHeaders(decision)
    if (routeHeaders !== undefined) Object.assign(headers, routeHeaders)
    if (result.headers !== undefined) Object.assign(headers, result.headers)
    const response = jsonResponse(result.body, result.status, headers)
    const record = (): PlainResponse => {
      const journalEntry = state.journal.record({
        atMs: receivedAt,
        method: request.method,
        path: request.query === '' ? request.path : `${request.path}?${request.query}`,
        status: response.status,
        operation,
        caller: caller.key?.fingerprint ?? 'anonymous',
        plan: caller.key?.planLabel ?? 'anonymous',
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      })
      return { status: response.status, headers: response.headers, body: response.body, journalEntry }
    }
    return latency === undefined ? record() : delay(pickLatency(latency)).then(record)
  }

  return {
    table,
    respond(request, preMatched) {
      const started = performance.now()
      // The clock is read before anything changes state, and not after the resolver: once an operation has
      // committed (a pet stored), nothing left on the way to the response can fail.
      const receivedAt = state.clock.now()
      const match = preMatched ?? table.match(request.method, request.path.slice(basePath.length))
      const caller = identifyCaller(state, request)
      const decision = state.limiter.consume(caller.bucket, caller.plan)
      const operation = match.kind === 'operation' ? match.route.operation : match.kind === 'wrong-method' ? 'methodNotAllowed' : 'routeNotFound'
      const routeHeaders = match.kind === 'operation' ? match.route.headers : undefined
      let outcome: OperationResult | Promise<OperationResult>
      try {
        // Authentication and the limiter come before routing: every request under the prefix counts.
        if (decision.outcome !== 'allowed') throw refusal(decision, caller.plan)
        if (caller.key === undefined) throw caller.problem
        if (match.kind === 'unknown-path') throw new ApiError('route_not_found', `No route ${request.method} ${request.path}`)
        if (match.kind === 'wrong-method') {
          throw new ApiError('method_not_allowed', `${request.method} is not supported here; use ${match.allow}`, { Allow: match.allow })
        }
        outcome = match.route.definition.resolve({ request, params: match.params, key: caller.key, state })
      } catch (error) {
        outcome = errorResult(error)
      }
      if (isPromiseLike(outcome)) {
        return outcome.then(
          (result) => finish(request, operation, caller, decision, routeHeaders, result, started, receivedAt),
          (error: unknown) => finish(request, operation, caller, decision, routeHeaders, errorResult(error), started, receivedAt),
        )
      }
      return finish(request, operation, caller, decision, routeHeaders, outcome, started, receivedAt)
    },
  }
}

/** Any error as the operation's result: the spec's Error body, the status and headers of its `ApiError`. */
function errorResult(error: unknown): OperationResult {
  const apiError = ApiError.from(error)
  return { status: apiError.status, body: apiError.toBody(), headers: apiError.headers }
}

type Caller =
  | { readonly key: ApiKey; readonly bucket: string; readonly plan: Plan; readonly problem?: undefined }
  | { readonly key?: undefined; readonly bucket: string; readonly plan: Plan; readonly problem: ApiError }

function identifyCaller(state: SimulatorState, request: PlainRequest): Caller {
  let problem: ApiError
  try {
    const key = state.keyRing.authenticate(readBearerToken(request.header('authorization') ?? null))
    if (key !== undefined) return { key, bucket: `key:${key.token}`, plan: key.plan }
    problem = invalidKey()
  } catch (error) {
    problem = ApiError.from(error)
  }
  // Requests without a valid key share an anonymous bucket (one per client
  // address where the transport knows it) at Free limits.
  return { bucket: `${anonymousCallerPrefix}${request.transport.clientAddress ?? 'unknown'}`, plan: anonymousPlan, problem }
}

/** The Error of a refused request; `Retry-After` comes with the rate-limit headers of the decision. */
function refusal(decision: RateLimitDecision & { outcome: 'limited' | 'banned' }, plan: Plan): ApiError {
  if (decision.outcome === 'banned') {
    return new ApiError(
      'api_key_banned',
      `Too many requests after being rate limited: temporarily banned. Retry after ${decision.retryAfterSeconds} s.`,
    )
  }
  const perWindow = decision.window === 'day' ? `${plan.perDay} requests per day` : `${plan.perMinute} requests per minute`
  return new ApiError(
    'rate_limit_exceeded',
    `Rate limit exceeded: ${perWindow} on the ${plan.name} plan. Retry after ${decision.retryAfterSeconds} s.`,
  )
}

function pickLatency(latency: Latency): number {
  return typeof latency === 'number' ? latency : latency.min + Math.floor(Math.random() * (latency.max - latency.min + 1))
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
