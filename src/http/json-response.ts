import type { ApiError } from '../core/api-error.ts'

/**
 * A JSON response. Bodies are serialised once, with `application/json` as
 * the content type.
 */
export function jsonResponse(body: unknown, status: number, headers?: Record<string, string>): Response {
  const response = new Response(JSON.stringify(body), { status, headers })
  response.headers.set('Content-Type', 'application/json')
  return response
}

/** The spec's Error body for an {@link ApiError}, with the headers it calls for. */
export function errorResponse(error: ApiError): Response {
  return jsonResponse(error.toBody(), error.status, { ...error.headers })
}
