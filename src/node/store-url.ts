/** Where the store is, as the Redis client takes it, and as it may be shown (no password). */
export interface StoreAddress {
  readonly display: string
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly path?: string | undefined
  readonly username?: string | undefined
  readonly password?: string | undefined
  readonly db: number
  readonly tls: boolean
}

/**
 * Reads `--store`: `redis://[user:pass@]host[:port][/db]`, `rediss://…` (TLS), `unix:///path/to/socket[?db=N]`.
 * Throws a `RangeError` saying what is wrong (the caller adds the URL); the password never appears in `display`.
 */
export function parseStoreUrl(text: string): StoreAddress {
  let url: URL
  try {
    url = new URL(withEncodedPassword(text))
  } catch {
    throw new RangeError('not a URL: give redis://host:port, rediss://host:port or unix:///path/to/socket')
  }
  let username: string | undefined
  let password: string | undefined
  try {
    username = url.username === '' ? undefined : decodeURIComponent(url.username)
    password = url.password === '' ? undefined : decodeURIComponent(url.password)
  } catch {
    throw new RangeError('the user name or password holds a % that starts no escape: write a % as %25')
  }
  if (url.protocol === 'unix:') {
    if (url.pathname === '' || url.pathname === '/') throw new RangeError('a unix:// URL needs the socket path: unix:///path/to/socket')
    const db = readDb(url.searchParams.get('db') ?? '0')
    const path = decodeURIComponent(url.pathname)
    return { display: `unix://${path}${db === 0 ? '' : `?db=${db}`}`, path, db, tls: false, username, password }
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new RangeError(`${url.protocol.replace(/:$/, '')}:// is not a store: give redis://, rediss:// or unix://`)
  }
  if (url.hostname === '') throw new RangeError('the URL names no host')
  const port = url.port === '' ? 6379 : Number(url.port)
  const db = readDb(url.pathname.replace(/^\//, '') || '0')
  const credentials = password === undefined ? (username === undefined ? '' : `${url.username}@`) : `${url.username}:***@`
  return {
    display: `${url.protocol}//${credentials}${url.host}/${db}`,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    username,
    password,
    db,
    tls: url.protocol === 'rediss:',
  }
}

function readDb(text: string): number {
  const db = Number(text)
  if (!/^\d{1,5}$/.test(text) || !Number.isSafeInteger(db))
    throw new RangeError(`the database must be a number (got ${JSON.stringify(text)})`)
  return db
}

/**
 * Where a store URL's password is, as written: after the user name's `:` and before the last `@` (a host holds none),
 * so that a password holding `/`, `?`, `#` or `@` is found whole. Undefined for a URL without one.
 */
function passwordSpan(text: string): { readonly start: number; readonly end: number } | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)
  if (scheme === null) return undefined
  const at = text.lastIndexOf('@')
  if (at < scheme[0].length) return undefined
  const colon = text.indexOf(':', scheme[0].length)
  if (colon === -1 || colon > at) return undefined
  return { start: colon + 1, end: at }
}

/** The password of a store URL as written (`''` for none): what a message quoting the URL must never show. */
export function storeUrlPassword(text: string): string {
  const span = passwordSpan(text.trim())
  return span === undefined ? '' : text.trim().slice(span.start, span.end)
}

/** A store URL as it may be shown whatever it holds, read or not: its password, if any, as `***`. */
export function maskStoreUrl(text: string): string {
  const span = passwordSpan(text)
  return span === undefined ? text : `${text.slice(0, span.start)}***${text.slice(span.end)}`
}

/**
 * The URL with its password's reserved characters percent-encoded (escapes already there kept): a password is often
 * generated, and one holding `/` made the whole URL unparsable. Either form is read as the same password.
 */
export function withEncodedPassword(text: string): string {
  const span = passwordSpan(text)
  if (span === undefined) return text
  const password = text.slice(span.start, span.end).replace(/[/?#@[\]\\\s]/g, (character) => encodeURIComponent(character))
  return `${text.slice(0, span.start)}${password}${text.slice(span.end)}`
}
