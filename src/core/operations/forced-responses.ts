import { ApiError } from '../http/api-error.ts'
import type { ForcedCall, OperationResult } from './api-routes.ts'
import { invalidKey } from '../access/bearer-token.ts'
import { isPromiseLike } from '../http/plain-http.ts'
import type { CompiledRoute } from './route-table.ts'

/**
 * The value of `code` in a `Prefer` header (RFC 7240; Prism's convention):
 * `Prefer: code=429`, also among other preferences (`respond-async, code=404`)
 * and quoted. Undefined when there is none; `NaN` when it is not a status.
 *
 * @example
 * preferredStatus('return=minimal, code="503"') // 503
 */
export function preferredStatus(prefer: string): number | undefined {
  for (const preference of prefer.split(',')) {
    const match = /^\s*code\s*=\s*"?([^";\s]*)"?/i.exec(preference)
    if (match !== null) return /^[1-5]\d\d$/.test(match[1]!) ? Number(match[1]) : Number.NaN
  }
  return undefined
}

/**
 * The 400 for a `Prefer: code=` the operation cannot answer, listing the statuses it can, and saying where the others
 * come from: `faultStatuses` (the 5xx a fault rule may answer, passed in from the floor above) and broken connections
 * are fault rules' (`Prefer: code=503` was a 400 that did not say so, issue 37).
 */
export function invalidPrefer(route: CompiledRoute, requested: number, faultStatuses: readonly number[]): ApiError {
  const asked = Number.isNaN(requested) ? 'that is not an HTTP status' : String(requested)
  const { operation } = route
  const rules = faultStatuses.includes(requested)
    ? `a ${requested} comes from a fault rule: --fault "${operation} ${requested} times=1", POST /__sim/faults {"operation":"${operation}","status":${requested},"times":1} or simulator.faults.add({ operation: '${operation}', status: ${requested}, times: 1 })`
    : `${faultStatuses.join(', ')}, delays and broken connections come from fault rules (--fault, POST /__sim/faults, simulator.faults.add)`
  return new ApiError(
    'invalid_prefer',
    `Prefer: code=${asked}: ${operation} cannot be made to answer it; it answers ${route.definition.statuses.join(', ')}; ${rules}`,
  )
}

/**
 * The answer an operation gives for a forced status, as the real API would
 * send it, computed without changing any state: its success body (the page,
 * the would-be pet), or its own error for the status (a `pet_not_found`, an
 * `invalid_body`…), or the generic Error for the status. `retryAfterSeconds`
 * is for a 429's `Retry-After`: the time left in the caller's window.
 */
export function forcedResult(
  route: CompiledRoute,
  call: ForcedCall,
  retryAfterSeconds: number,
): OperationResult | Promise<OperationResult> {
  const own = route.definition.forced?.(call)
  const settle = (answer: OperationResult | ApiError | undefined): OperationResult => {
    if (answer instanceof ApiError) return errorResult(answer)
    return answer ?? errorResult(genericError(call.status, retryAfterSeconds))
  }
  return isPromiseLike(own) ? own.then(settle) : settle(own)
}

function genericError(status: number, retryAfterSeconds: number): ApiError {
  switch (status) {
    case 401:
      return invalidKey()
    case 413:
      return new ApiError('payload_too_large', 'The request body is over the body limit (forced)')
    case 415:
      return new ApiError('unsupported_media_type', 'The request body must be application/json (forced)')
    case 429:
      return new ApiError('rate_limit_exceeded', `Rate limit exceeded. Retry after ${retryAfterSeconds} s. (forced)`, {
        'Retry-After': String(retryAfterSeconds),
        'X-RateLimit-Remaining': '0',
      })
    case 501:
      return new ApiError('not_implemented', 'Not implemented (forced)')
    case 502:
      return new ApiError('bad_gateway', 'The upstream service answered badly (simulated fault)')
    case 503:
      return new ApiError('service_unavailable', 'The service is unavailable; retry later (simulated fault)', { 'Retry-After': '5' })
    case 504:
      return new ApiError('gateway_timeout', 'The upstream service did not answer in time (simulated fault)')
    default:
      return new ApiError('internal_error', 'Internal error (simulated fault)')
  }
}

function errorResult(error: ApiError): OperationResult {
  return { status: error.status, body: error.toBody(), headers: error.headers }
}
