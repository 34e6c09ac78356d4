import { ApiError } from '../http/api-error.ts'

const realm = 'Bearer realm="petstore-sim"'
const bearer = 'bearer'

/** The longest `Authorization` value read; a longer one is an invalid key without being parsed. */
export const maxAuthorizationLength = 8192

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
  // Parsed by hand, in one pass: a regex with white-space runs on both sides of an optional token backtracked
  // quadratically (`Bearer x<15,000 spaces>y` held the event loop for long on every request: test/bench/HISTORY.md,
  // "Figures moved out of source comments"; and any web page may send Authorization). `trim` and `\s` agree on what
  // white space is, so the token is what the regex gave.
  if (header.length > maxAuthorizationLength) {
    // Node's servers stop at 16 KiB of headers; in-process nothing does. No key is this long, so nothing is parsed.
    throw invalidKey()
  }
  const value = header.trim()
  const schemeEnd = firstWhiteSpace(value)
  const scheme = schemeEnd === -1 ? value : value.slice(0, schemeEnd)
  if (scheme.length !== bearer.length || scheme.toLowerCase() !== bearer) {
    throw missingKey('The Authorization header must use the Bearer scheme: "Authorization: Bearer <API key>"')
  }
  const token = schemeEnd === -1 ? '' : value.slice(schemeEnd).trimStart()
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

/** The index of the first white-space character (as `\s` and `trim` define it), or -1. */
function firstWhiteSpace(text: string): number {
  for (let index = 0; index < text.length; index++) {
    if (isWhiteSpace(text.charCodeAt(index))) return index
  }
  return -1
}

function isWhiteSpace(code: number): boolean {
  // Tab, LF, VT, FF, CR and space first: the only ones a header can hold in practice.
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return true
  if (code < 0x80) return false
  return String.fromCharCode(code).trim() === ''
}
