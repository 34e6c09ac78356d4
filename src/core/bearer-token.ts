import { ApiError } from './api-error.ts'

const realm = 'Bearer realm="petstore-sim"'

/**
 * Reads the API key from an `Authorization` header: `Bearer <key>`, the
 * scheme matched case-insensitively (RFC 9110). A missing header, another
 * scheme or an empty token is a 401 `missing_api_key`.
 *
 * @example
 * readBearerToken('bearer abc') // 'abc'
 */
export function readBearerToken(header: string | null): string {
  if (header === null) {
    throw missingKey('The Authorization header is missing: send "Authorization: Bearer <API key>"')
  }
  const match = /^\s*([!#$%&'*+.^_`|~\w-]+)(?:\s+(.*?))?\s*$/.exec(header)
  if (match === null || match[1]!.toLowerCase() !== 'bearer') {
    throw missingKey('The Authorization header must use the Bearer scheme: "Authorization: Bearer <API key>"')
  }
  const token = match[2] ?? ''
  if (token.length === 0) {
    throw missingKey('The Bearer token is empty: send "Authorization: Bearer <API key>"')
  }
  return token
}

/** The 401 for a token that is not a known key (RFC 6750 `invalid_token`). */
export function invalidKey(): ApiError {
  return new ApiError('invalid_api_key', 'The API key is not valid', {
    'WWW-Authenticate': `${realm}, error="invalid_token", error_description="The API key is not valid"`,
  })
}

function missingKey(message: string): ApiError {
  return new ApiError('missing_api_key', message, { 'WWW-Authenticate': realm })
}
