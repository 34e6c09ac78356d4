import demoKeys from '../../../fixtures/demo-keys.json' with { type: 'json' }
import { fingerprint } from '../access/fingerprint.ts'

// The one redaction rule of every output (request log, journal, HAR, events, error and wait messages, CLI
// errors, `verify` reports): which header and query names hold a secret, and how a known key is shown
// (a demo key by its documented name, any other by its fingerprint). Nothing here builds a regex from input.

/** What a redacted value reads as. */
export const redacted = '[redacted]'

/**
 * Parts of a header or query parameter name that mark a credential, lower
 * case: `X-Api-Key`, `X-Auth-Token`, `Proxy-Authorization`, `?access_token=`,
 * `X-Session-Id`, `X-Csrf-Token`, `X-Signature`, `Ocp-Apim-Subscription-Key`
 * (Azure API Management), `X-JWT-Assertion` (WSO2)…
 */
export const secretNameParts: readonly string[] = [
  'auth',
  'token',
  'secret',
  'passw',
  'pwd',
  'credential',
  'session',
  'cookie',
  'signature',
  'apikey',
  'api-key',
  'api_key',
  'subscription-key',
  'subscription_key',
  'jwt',
  'assertion',
  'csrf',
  'xsrf',
]

/**
 * Whole names that are a credential: `?key=` (Google APIs, the journal's own
 * filter), `?sig=` (Azure SAS, signed URLs), `?code=` (an OAuth authorization
 * code, Azure Functions' function key).
 */
export const secretWholeNames: readonly string[] = ['key', 'sig', 'code']

/**
 * Does a header or query parameter so named hold a secret? Case-insensitive. A journal filter on one
 * (`query.key=…`, `header.x-sig:contains=…`) holds the secret it looks for, so it is read by the name it filters on.
 */
export function isSecretName(name: string): boolean {
  const lower = filteredName(name.trim().toLowerCase())
  return secretWholeNames.includes(lower) || secretNameParts.some((part) => lower.includes(part))
}

/** The parameter or header a journal filter names (`query.key` → `key`, `header.sig:contains` → `sig`), or the name itself. */
function filteredName(lower: string): string {
  const prefix = lower.startsWith('query.') ? 'query.' : lower.startsWith('header.') ? 'header.' : undefined
  if (prefix === undefined) return lower
  const colon = lower.indexOf(':', prefix.length)
  return lower.slice(prefix.length, colon === -1 ? lower.length : colon)
}

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
 * name kept; any header named like a credential ({@link isSecretName}) redacted. `name` is lower case.
 */
export function redactHeader(name: string, value: string): string {
  if (name === 'authorization') return redactAuthorization(value)
  if (name === 'cookie') return redactCookies(value)
  return isSecretName(name) ? redacted : value
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
  if (query === '') return query
  let changed = false
  const pairs = query.split('&').map((pair) => {
    const equals = pair.indexOf('=')
    const name = equals === -1 ? pair : pair.slice(0, equals)
    if (!isSecretName(safeDecode(name))) return pair
    changed = true
    return `${name}=${redacted}`
  })
  return changed ? pairs.join('&') : query
}

/**
 * A URL or request target (`/v1/pets?api_key=…`, `https://user:pw@host/…`)
 * with its credential-named query values and any user info redacted; the
 * fragment is dropped (it never reaches a server, and may hold a token).
 *
 * @example
 * redactUrl('/v1/pets?limit=5&sig=abc') // '/v1/pets?limit=5&sig=[redacted]'
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#')
  let text = hash === -1 ? url : url.slice(0, hash)
  const scheme = text.indexOf('://')
  if (scheme !== -1) {
    const authorityEnd = firstOf(text, ['/', '?'], scheme + 3)
    const at = text.lastIndexOf('@', authorityEnd)
    if (at > scheme) text = `${text.slice(0, scheme + 3)}${redacted}@${text.slice(at + 1)}`
  }
  const queryStart = text.indexOf('?')
  return queryStart === -1 ? text : `${text.slice(0, queryStart)}?${redactQuery(text.slice(queryStart + 1))}`
}

function firstOf(text: string, marks: readonly string[], from: number): number {
  let first = text.length
  for (const mark of marks) {
    const at = text.indexOf(mark, from)
    if (at !== -1 && at < first) first = at
  }
  return first
}

/**
 * Shorter tokens are not searched for in free text: they would match ordinary
 * words. They are still never shown where a name says a secret is (headers,
 * queries, flags), which is where keys travel.
 */
const shortestSearchedSecret = 6

/**
 * Replaces every known secret in free text (a body, a message, a report) by
 * its label ({@link secretLabel}: a demo key's documented name, otherwise
 * `key#<fingerprint>`), also in its URL-encoded form. Demo keys are shown as
 * they are. Plain string search, no regex: the secrets are the user's.
 *
 * @example
 * const scrub = createSecretScrubber(['my-own-key-1'])
 * scrub('echo: my-own-key-1') // 'echo: key#…'
 */
export function createSecretScrubber(secrets: Iterable<string>): (text: string) => string {
  const replacements: [string, string][] = []
  for (const secret of new Set(secrets)) {
    if (secret.length < shortestSearchedSecret || demoKeyNames.has(secret)) continue
    const label = fingerprint(secret)
    replacements.push([secret, label])
    const encoded = encodeURIComponent(secret)
    if (encoded !== secret) replacements.push([encoded, label])
  }
  // The longest first, so that a secret holding another is replaced whole.
  replacements.sort(([a], [b]) => b.length - a.length)
  if (replacements.length === 0) return (text) => text
  return (text) => {
    let result = text
    for (const [secret, label] of replacements) if (result.includes(secret)) result = result.split(secret).join(label)
    return result
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/**
 * A scrubber over keys that may change (a scenario brings its own): rebuilt
 * only when `keys()` returns another list, so a request pays one comparison.
 */
export function createKeyScrubber(keys: () => readonly { readonly token: string }[]): (text: string) => string {
  let seen: readonly { readonly token: string }[] | undefined
  let scrub: (text: string) => string = (text) => text
  return (text) => {
    const current = keys()
    if (current !== seen) {
      seen = current
      scrub = createSecretScrubber(current.map((key) => key.token))
    }
    return scrub(text)
  }
}
