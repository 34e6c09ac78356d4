import type { ApiError } from '../core/api-error.ts'
import { setBodyText } from './message-annotations.ts'

/**
 * A JSON response. Bodies are serialised once, with `application/json` as
 * the content type.
 */
export function jsonResponse(body: unknown, status: number, headers?: Record<string, string>): Response {
  const text = JSON.stringify(body)
  const response = new Response(text, { status, headers: { 'Content-Type': 'application/json', ...headers } })
  setBodyText(response, text)
  return response
}

/** The spec's Error body for an {@link ApiError}, with the headers it calls for. */
export function errorResponse(error: ApiError): Response {
  return jsonResponse(error.toBody(), error.status, { ...error.headers })
}
