import { ApiError } from '../http/api-error.ts'
import { apiRoutes, type OperationResult } from '../operations/api-routes.ts'
import { JsonText, utf8Length } from '../http/json-text.ts'
import { isPromiseLike, jsonResponse, type PlainRequest, type PlainResponse } from '../http/plain-http.ts'
import { BodyKeepingRequest, type BodySink } from './body-keeping-request.ts'
import { rateLimitHeaders } from '../access/rate-limit-headers.ts'
import type { RateLimitDecision } from '../access/rate-limiter.ts'
import { compileRouteTable, type RouteMatch, type RouteTable } from '../operations/route-table.ts'
import { createFaultRules, faultOnlyStatuses, type FaultRules, type FiredFault } from '../faults/fault-rules.ts'
import { faultKinds, journalStatus } from '../http/fault-kinds.ts'
import { forcedResult, invalidPrefer, preferredStatus } from '../operations/forced-responses.ts'
import type { OperationContext } from '../operations/operation-context.ts'
import { createKeyScrubber } from '../journal/journal-redaction.ts'
import type { RecordInput } from '../journal/journal-types.ts'
import {
  admissionOf,
  claimSharedFault,
  decide,
  identifyCaller,
  pickLatency,
  recordShared,
  refusal,
  resetUnderWay,
  retryAfter,
  unavailableDecision,
  wait,
  type Caller,
} from './api-pipeline-steps.ts'
import type { Admission, SharedWorld } from '../operations/shared-world.ts'

/**
 * The API's request pipeline, on plain data: authentication, the rate
 * limiter, the operation's resolver, the Error body for anything thrown on
 * the way, the rate-limit and route headers, latency, and the journal. Every
 * lane answers API requests through it, so the API behaves the same
 * in-process, through `app.fetch` and on the Node server.
 */
export interface ApiPipeline {
  readonly table: RouteTable
  /** The fault rules in force; see {@link FaultRules}. */
  readonly faults: FaultRules
  /**
   * Answers a request whose path is under the base path. A lane that has
   * matched the route itself (MSW) passes its match; otherwise the table
   * matches the path. Synchronous unless the operation reads the body or
   * latency is configured. `laneHeaders` are headers the lane adds to every
   * answer (the app's CORS grant): they are in the answer's header object
   * before the journal records it, so the journal shows what was sent.
   */
  respond(
    request: PlainRequest,
    match?: RouteMatch,
    laneHeaders?: Readonly<Record<string, string>>,
    counting?: Counting,
  ): PlainResponse | Promise<PlainResponse>
}

/**
 * Whether a request without a valid key counts against its anonymous bucket: `uncounted-anonymous` answers it as the
 * bucket stands (a 429 while it is over its limit or banned) and counts nothing. For requests a page on another site
 * can repeat at will and never read, such as a top-level navigation (`app/browser-access.ts`). A valid key counts.
 */
export type Counting = 'counted' | 'uncounted-anonymous'

export interface PipelineOptions {
  /** Waits `ms` (latency, fault delays). Default: a timer. */
  readonly delay?: (ms: number) => Promise<void>
  /** Called when the fault rules change (the simulator's events). */
  readonly onFaultsChange?: () => void
}

/** One request on its way through the pipeline: what every step after authentication needs. */
interface Exchange {
  readonly request: PlainRequest
  readonly operation: string
  readonly caller: Caller
  /** Set once the limiter (or the shared store) has decided. */
  decision: RateLimitDecision
  readonly routeHeaders: Readonly<Record<string, string>> | undefined
  readonly started: number
  /**
   * The simulator's clock when the request arrived (the journal's `at`). With a shared store: once the store admitted
   * it, for the instance's copy of the world, clock included, is brought up to date on the way (a clock frozen or
   * moved through another instance holds from this instance's next request).
   */
  receivedAt: number
  /**
   * `state.resets()` when the request began (with a shared store: once the store admitted it, for bringing the world
   * up to date on the way is no reset of the client's): a reset since makes it a request of the state before.
   */
  generation: number
  /** Set for an answer forced with `Prefer: code=`. */
  forced?: boolean
  /** The fault rule that shaped the answer (with a shared store, the one the store let fire). */
  fault?: FiredFault | undefined
  /** Where the request's body is kept once something has read it, for the journal; none for GET and HEAD. */
  readonly body: BodySink | undefined
  readonly laneHeaders: Readonly<Record<string, string>> | undefined
}

export function createApiPipeline(state: OperationContext, options: PipelineOptions = {}): ApiPipeline {
  const table = compileRouteTable(apiRoutes, state)
  const faults = createFaultRules(table, state.random.next, state.basePath, options.onFaultsChange)
  // An Error body quotes what was sent (`petId must be an integer (got "…")`): never a key in force.
  const scrub = createKeyScrubber(() => state.keyRing.keys)
  const errorResult = (error: unknown): OperationResult => {
    const apiError = ApiError.from(error)
    const body = apiError.toBody()
    return { status: apiError.status, body: { ...body, message: scrub(body.message) }, headers: apiError.headers }
  }
  const delay = options.delay ?? wait
  const { latency, basePath } = state

  function finish(exchange: Exchange, result: OperationResult): PlainResponse | Promise<PlainResponse> {
    const { fault } = exchange
    // One header object, built once with every header.
    const headers = rateLimitHeaders(exchange.decision)
    if (exchange.routeHeaders !== undefined) Object.assign(headers, exchange.routeHeaders)
    if (result.headers !== undefined) Object.assign(headers, result.headers)
    if (exchange.forced === true) headers['Preference-Applied'] = `code=${result.status}`
    if (fault !== undefined) headers['Petstore-Sim-Fault'] = fault.ruleId
    if (exchange.laneHeaders !== undefined) Object.assign(headers, exchange.laneHeaders)
    const response = jsonResponse(result.body, result.status, headers)
    if (result.status !== 204 && result.status !== 304) {
      // As sent: an `empty` fault sends no body; a kept page's length is measured once (JsonText).
      const length = fault?.fault === 'empty' ? 0 : result.body instanceof JsonText ? result.body.byteLength : utf8Length(response.body!)
      headers['Content-Length'] = String(length)
    }
    // Complete and frozen: the journal keeps this object, and no lane may change what it shows as sent.
    Object.freeze(headers)
    // No closure for the common case (no latency): the answer is recorded at once.
    if (latency === undefined) return recordAnswer(exchange, result, response)
    return delay(pickLatency(latency, state.random.next)).then(() => recordAnswer(exchange, result, response))
  }

  /** Journals an answer, and returns it with its journal entry; nothing is journaled after a reset. */
  function recordAnswer(exchange: Exchange, result: OperationResult, response: PlainResponse): PlainResponse | Promise<PlainResponse> {
    const { request, caller, fault } = exchange
    const { headers, body } = response
    const transportFault = fault?.fault === undefined ? undefined : { kind: fault.fault, hangMs: fault.hangMs }
    // A reset is a clean cut: an answer to a request that began before it is sent, but neither journaled nor
    // published after it (50 requests under latency were journaled after a reset, their 201s naming pets it removed).
    if (state.resets() !== exchange.generation) return { ...response, transportFault }
    const input: RecordInput = {
      atMs: exchange.receivedAt,
      method: request.method,
      path: request.query === '' ? request.path : `${request.path}?${request.query}`,
      // 0 for a fault that sends no answer (a reset, a hang).
      status: journalStatus(transportFault?.kind, result.status),
      operation: exchange.operation,
      caller: caller.key?.fingerprint ?? 'anonymous',
      plan: caller.key?.planLabel ?? 'anonymous',
      durationMs: Math.round((performance.now() - exchange.started) * 1000) / 1000,
      // Present only when they apply (no object spreads on the path every request takes).
      forced: exchange.forced === true ? true : undefined,
      fault: fault?.ruleId,
      // References to what nothing changes: the request's header list and body, the frozen headers, the body text.
      exchange: { rawHeaders: request.headerList?.(), requestBody: exchange.body?.bytes, responseHeaders: headers, responseBody: body },
      requestJson: result.requestJson,
    }
    const { shared } = state
    if (shared === undefined) return { ...response, journalEntry: state.journal.record(input), transportFault }
    return recordShared(shared, input, response, transportFault)
  }

  /** Runs the resolver, or the fault rule that fires, for an authenticated request within its limits. */
  function operate(exchange: Exchange, match: RouteMatch & { kind: 'operation' }): OperationResult | Promise<OperationResult> {
    const { request } = exchange
    const ensureCurrent = () => {
      if (state.resets() !== exchange.generation) throw resetUnderWay()
    }
    const call = { request, params: match.params, key: exchange.caller.key!, state, ensureCurrent }
    const fault = exchange.fault
    if (fault === undefined) return match.route.definition.resolve(call)
    // In a shared store, a rule with `times` fires once the store gives it one of its firings (`times` is the fleet's).
    if (fault.at !== undefined && state.shared !== undefined) return claimSharedFault(state.shared, faults, exchange, match, operate)
    const act = (): OperationResult | Promise<OperationResult> => {
      // Some kinds drop the request before the operation runs (a reset, a hang); the others break the real answer on the way.
      if (fault.fault !== undefined && !faultKinds[fault.fault].operationRuns) {
        // The body is read all the same (within the body limit, as the operation would): the journal keeps what the
        // client sent, so that one sending it again after the broken connection is seen doing so (issue 48).
        if (request.method !== 'POST') return { status: 0, body: null }
        return request.readBody().then(
          () => ({ status: 0, body: null }),
          () => ({ status: 0, body: null }),
        )
      }
      if (fault.status !== undefined) {
        return forcedResult(
          match.route,
          { request, params: match.params, state, status: fault.status },
          retryAfter(exchange.decision, state.clock.now()),
        )
      }
      return match.route.definition.resolve(call)
    }
    return fault.delayMs > 0 ? delay(fault.delayMs).then(act) : act()
  }

  // The shared store decides (one round trip); one it cannot reach is a 503 that counted nothing. Apart from `respond`,
  // whose every call (in memory too) would otherwise allocate these closures' context.
  function admitShared(
    shared: SharedWorld,
    exchange: Exchange,
    match: RouteMatch,
    preferred: number | undefined,
    forcible: boolean,
    admission: Admission,
  ): Promise<PlainResponse> {
    const { caller } = exchange
    return shared.admit(caller.bucket, caller.plan, admission).then(
      (decision) => {
        exchange.generation = state.resets()
        exchange.receivedAt = state.clock.now()
        return proceed(exchange, match, preferred, forcible, admission, decision)
      },
      (error: unknown) => {
        exchange.decision = unavailableDecision(caller.plan, exchange.receivedAt)
        return finish(exchange, errorResult(error))
      },
    )
  }

  /** The request past the limiter: a forced answer, a refusal, or the operation (or a fault rule) answering it. */
  function proceed(
    started: Exchange,
    match: RouteMatch,
    preferred: number | undefined,
    forcible: boolean,
    admission: Admission,
    decision: RateLimitDecision,
  ): PlainResponse | Promise<PlainResponse> {
    started.decision = decision
    const { request, caller } = started
    // A caller over its limit, or banned, still gets its 429: forcing is not a way round the limits.
    if (admission === 'forced' && decision.outcome === 'allowed' && match.kind === 'operation') {
      started.forced = true
      const outcome = forcedResult(
        match.route,
        { request, params: match.params, state, status: preferred! },
        retryAfter(decision, started.receivedAt),
      )
      return isPromiseLike(outcome) ? outcome.then((result) => finish(started, result)) : finish(started, outcome)
    }
    let exchange = started
    let outcome: OperationResult | Promise<OperationResult>
    try {
      // Authentication and the limiter come before routing: every request under the prefix counts.
      if (decision.outcome !== 'allowed') throw refusal(decision, caller.plan)
      if (caller.key === undefined) throw caller.problem
      if (match.kind === 'unknown-path') throw new ApiError('route_not_found', `No route ${request.method} ${request.path}`)
      if (match.kind === 'wrong-method') {
        throw new ApiError('method_not_allowed', `${request.method} is not supported here; use ${match.allow}`, { Allow: match.allow })
      }
      if (preferred !== undefined && !forcible) throw invalidPrefer(match.route, preferred, faultOnlyStatuses)
      // Fault rules act on authenticated requests within their limits, which they count (see the README).
      if (faults.active) exchange = { ...exchange, fault: faults.fire(match.route, request.method, request.path, caller.key) }
      outcome = operate(exchange, match)
    } catch (error) {
      outcome = errorResult(error)
    }
    const settled = exchange
    if (isPromiseLike(outcome)) {
      return outcome.then(
        (result) => finish(settled, result),
        (error: unknown) => finish(settled, errorResult(error)),
      )
    }
    return finish(settled, outcome)
  }

  return {
    table,
    faults,
    respond(sent, preMatched, laneHeaders, counting = 'counted') {
      const started = performance.now()
      // A request that may have a body is seen through a view that keeps the bytes once an operation reads them.
      const body: BodySink | undefined = sent.method === 'GET' || sent.method === 'HEAD' ? undefined : {}
      const request = body === undefined ? sent : new BodyKeepingRequest(sent, body)
      // The clock is read before anything changes state, and not after the resolver: once an operation has
      // committed (a pet stored), nothing left on the way to the response can fail.
      const receivedAt = state.clock.now()
      const generation = state.resets()
      const match = preMatched ?? table.match(request.method, request.path.slice(basePath.length))
      const caller = identifyCaller(state, request)
      const operation =
        match.kind === 'operation' ? match.route.operation : match.kind === 'wrong-method' ? 'methodNotAllowed' : 'routeNotFound'
      const routeHeaders = match.kind === 'operation' ? match.route.headers : undefined

      // Prefer: code=<status>, for a documented status: the operation's answer for it, counting nothing and
      // changing nothing. A request without a valid key still gets its 401, unless 401 is what it asks for.
      const prefer = state.prefer ? request.header('prefer') : undefined
      const preferred = prefer === undefined ? undefined : preferredStatus(prefer)
      const forcible = preferred !== undefined && match.kind === 'operation' && match.route.definition.statuses.includes(preferred)
      const admission = admissionOf(forcible && (caller.key !== undefined || preferred === 401), counting === 'uncounted-anonymous', caller)
      const exchange: Exchange = {
        request,
        operation,
        caller,
        decision: undefined as unknown as RateLimitDecision,
        routeHeaders,
        started,
        receivedAt,
        body,
        generation,
        laneHeaders,
      }
      const { shared } = state
      if (shared === undefined) return proceed(exchange, match, preferred, forcible, admission, decide(state.limiter, caller, admission))
      return admitShared(shared, exchange, match, preferred, forcible, admission)
    },
  }
}
