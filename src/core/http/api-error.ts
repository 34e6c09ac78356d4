import { errorStatuses, type ErrorCode } from './error-codes.ts'

/** The spec's Error body: `code`, `message`, and `status` repeating the HTTP status. */
export interface ErrorBody {
  code: ErrorCode
  message: string
  status: number
}

/**
 * The one error type of the simulator. Whatever goes wrong, the response is
 * built from an `ApiError`, so every error response has the spec's Error body.
 * Its HTTP status comes from the catalogue ({@link errorStatuses}), so a code can never be
 * sent with the wrong status.
 *
 * @example
 * throw new ApiError('pet_not_found', 'No pet has the id 42.')
 * // -> 404 {"code":"pet_not_found","message":"No pet has the id 42.","status":404}
 */
export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  /** Extra response headers this error calls for (`Allow`, `Retry-After`, `WWW-Authenticate`…). */
  readonly headers: Readonly<Record<string, string>>

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.status = errorStatuses[code]
    this.headers = headers
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status }
  }

  /** Turns anything thrown into an `ApiError`; unknown errors become `internal_error`. */
  static from(error: unknown): ApiError {
    if (error instanceof ApiError) return error
    const detail = error instanceof Error ? error.message : String(error)
    return new ApiError('internal_error', `Unexpected simulator error: ${detail}`)
  }
}
