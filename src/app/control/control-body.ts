import { ApiError } from '../../core/http/api-error.ts'
import type { PlainRequest } from '../../core/http/plain-http.ts'
import { readJsonText } from '../../core/operations/request-parsing.ts'

// Control requests' JSON bodies, read the same way by every route file: UTF-8 strictly, 400 invalid_body otherwise.

export async function readControlBody(request: PlainRequest): Promise<Record<string, unknown>> {
  const data = await readJson(request)
  if (data === undefined) return {}
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) return data as Record<string, unknown>
  throw new ApiError('invalid_body', 'The control request body must be a JSON object')
}

/** A control request's JSON body (UTF-8, strictly), or undefined for none. */
export async function readJson(request: PlainRequest): Promise<unknown> {
  const text = readJsonText(await request.readBody(), request.header('content-type'), request.header('content-encoding'))
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ApiError('invalid_body', `The control request body is not valid JSON: ${(error as Error).message}`)
  }
}

/** A control body's field that must be a string or a number; a `RangeError` naming the field otherwise. */
export function scalar(value: unknown, field: string): string | number {
  if (typeof value === 'string' || typeof value === 'number') return value
  throw new RangeError(
    `${field} must be a string or a number (got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value})`,
  )
}
