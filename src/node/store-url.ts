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
    url = new URL(text)
  } catch {
    throw new RangeError('not a URL: give redis://host:port, rediss://host:port or unix:///path/to/socket')
  }
  const username = url.username === '' ? undefined : decodeURIComponent(url.username)
  const password = url.password === '' ? undefined : decodeURIComponent(url.password)
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
