import demoKeys from '../../../fixtures/demo-keys.json' with { type: 'json' }
import { fingerprint } from '../access/fingerprint.ts'

/** What a redacted value reads as. */
export const redacted = '[redacted]'

/**
 * Names that hold a credential: headers and query parameters so named never
 * show their value (`X-Api-Key`, `X-Auth-Token`, `Proxy-Authorization`,
 * `?access_token=`, `X-Session-Id`, `X-Csrf-Token`, `X-Signature`…).
 */
const credentialName = /auth|token|secret|passw|pwd|credential|session|cookie|signature|api[-_]?key|^key$|csrf|xsrf/i
/** A quick test that a query string may hold such a name: most hold none, and are then kept as they are. */
const mayHoldCredential = /auth|token|secret|passw|pwd|credential|session|cookie|signature|key|csrf|xsrf/i

/** The demo keys are documented (README, `fixtures/demo-keys.json`), so their names are no secret. */
const demoKeyNames: ReadonlySet<string> = new Set(Object.keys(demoKeys))

/** Demo keys by fingerprint, to name them next to the fingerprint the journal's `caller` holds. */
const demoKeysByFingerprint: ReadonlyMap<string, string> = new Map([...demoKeyNames].map((name) => [fingerprint(name), name]))

/** The name of a documented demo key, from its fingerprint; undefined for any other caller. */
export function keyName(caller: string): string | undefined {
  return demoKeysByFingerprint.get(caller)
}

/**
 * A request header's value as the journal shows it: `Authorization` with the
 * key's name for a documented demo key and its fingerprint otherwise, the
 * scheme kept (`Bearer key#1f3a9c02`); each cookie's value redacted, its
 * name kept; any header named like a credential redacted. `name` is lower case.
 */
export function redactHeader(name: string, value: string): string {
  if (name === 'authorization') return redactAuthorization(value)
  if (name === 'cookie') return redactCookies(value)
  return credentialName.test(name) ? redacted : value
}

/** The label of a secret: a demo key's name, or the secret's fingerprint. */
export function secretLabel(secret: string): string {
  return demoKeyNames.has(secret) ? secret : fingerprint(secret)
}

function redactAuthorization(value: string): string {
  const trimmed = value.trim()
  const space = trimmed.search(/\s/)
  if (space === -1) return trimmed === '' ? '' : secretLabel(trimmed)
  const credentials = trimmed.slice(space).trim()
  return `${trimmed.slice(0, space)} ${credentials === '' ? '' : secretLabel(credentials)}`.trimEnd()
}

function redactCookies(value: string): string {
  return value
    .split(';')
    .map((cookie) => {
      const equals = cookie.indexOf('=')
      return equals === -1 ? redacted : `${cookie.slice(0, equals).trim()}=${redacted}`
    })
    .join('; ')
}

/**
 * A query string with the values of credential-named parameters redacted,
 * everything else as sent (the same text when nothing is redacted).
 *
 * @example
 * redactQuery('limit=5&api_key=s3cret') // 'limit=5&api_key=[redacted]'
 */
export function redactQuery(query: string): string {
  if (query === '' || !mayHoldCredential.test(query)) return query
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      const name = equals === -1 ? pair : pair.slice(0, equals)
      return credentialName.test(safeDecode(name)) ? `${name}=${redacted}` : pair
    })
    .join('&')
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}
