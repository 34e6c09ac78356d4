import type { ApiError } from '../core/api-error.ts'
import { setBodyBytes } from './message-annotations.ts'

/** Stateless: one encoder serves every response. */
const utf8 = new TextEncoder()

/**
 * A JSON response. Bodies are serialised and encoded once, with
 * `application/json` as the content type.
 */
export function jsonResponse(body: unknown, status: number, headers?: Record<string, string>): Response {
  const bytes = utf8.encode(JSON.stringify(body))
  const response = new Response(bytes, { status, headers: { 'Content-Type': 'application/json', ...headers } })
  setBodyBytes(response, bytes)
  return response
}

/** The spec's Error body for an {@link ApiError}, with the headers it calls for. */
export function errorResponse(error: ApiError): Response {
  return jsonResponse(error.toBody(), error.status, { ...error.headers })
}
