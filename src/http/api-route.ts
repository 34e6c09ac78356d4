import { delay, type HttpResponseResolver } from 'msw'
import { ApiError } from '../core/api-error.ts'
import type { ApiKey } from '../core/api-keys.ts'
import { invalidKey, readBearerToken } from '../core/bearer-token.ts'
import { anonymousPlan, type Plan } from '../core/plans.ts'
import type { RateLimitDecision } from '../core/rate-limiter.ts'
import type { ApiContext, Latency } from './api-context.ts'
import { jsonResponse } from './json-response.ts'
import { clientAddressOf, setJournalEntry } from './message-annotations.ts'
import { rateLimitHeaders } from './rate-limit-headers.ts'

/** What an operation's resolver gets once the caller is authenticated and within its limits. */
export interface AuthorizedRequest {
  readonly request: Request
  /** The request's URL, parsed once. */
  readonly url: URL
  readonly params: Readonly<Record<string, string | readonly string[] | undefined>>
  readonly key: ApiKey
}

/** What an operation answers: a status, a JSON body, and any headers of its own. */
export interface OperationResult {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
}

export type OperationResolver = (args: AuthorizedRequest) => OperationResult | Promise<OperationResult>

/**
 * Wraps an operation in everything every API response goes through:
 * authentication, the rate limiter, the rate-limit headers, the Error body
 * for anything thrown, extra headers of the route, latency, and the journal.
 *
 * @example
 * http.get('*\/v1/pets', apiRoute(context, 'listPets', () => ({ status: 200, body: context.store.list({ limit: 20 }) })))
 */
export function apiRoute(
  context: ApiContext,
  operation: string,
  resolve: OperationResolver,
  routeHeaders: Readonly<Record<string, string>> = {},
): HttpResponseResolver {
  return async ({ request, params }) => {
    const started = performance.now()
    const url = new URL(request.url)
    const caller = identifyCaller(context, request)
    const decision = context.limiter.consume(caller.bucket, caller.plan)
    let result: OperationResult
    try {
      if (decision.outcome !== 'allowed') throw refusal(decision, caller.plan)
      if (caller.key === undefined) throw caller.problem
      result = await resolve({ request, url, params, key: caller.key })
    } catch (error) {
      const apiError = ApiError.from(error)
      result = { status: apiError.status, body: apiError.toBody(), headers: apiError.headers }
    }
    // One Response, built once with every header: setting headers afterwards costs more.
    const headers = rateLimitHeaders(decision)
    Object.assign(headers, routeHeaders, result.headers)
    const response = jsonResponse(result.body, result.status, headers)
    if (context.latency !== undefined) await delay(pickLatency(context.latency))
    const entry = context.journal.record({
      at: new Date(context.clock.now()).toISOString(),
      method: request.method,
      path: url.pathname + url.search,
      status: response.status,
      operation,
      caller: caller.key?.fingerprint ?? 'anonymous',
      plan: caller.key?.planLabel ?? 'anonymous',
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    })
    setJournalEntry(response, entry)
    return response
  }
}

type Caller =
  | { readonly key: ApiKey; readonly bucket: string; readonly plan: Plan; readonly problem?: undefined }
  | { readonly key?: undefined; readonly bucket: string; readonly plan: Plan; readonly problem: ApiError }

function identifyCaller(context: ApiContext, request: Request): Caller {
  let problem: ApiError
  try {
    const key = context.keyRing.authenticate(readBearerToken(request.headers.get('authorization')))
    if (key !== undefined) return { key, bucket: `key:${key.token}`, plan: key.plan }
    problem = invalidKey()
  } catch (error) {
    problem = ApiError.from(error)
  }
  // Requests without a valid key share an anonymous bucket (one per client
  // address where the transport knows it) at Free limits.
  return { bucket: `anonymous:${clientAddressOf(request) ?? 'unknown'}`, plan: anonymousPlan, problem }
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
