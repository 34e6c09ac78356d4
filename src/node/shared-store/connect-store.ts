import type { App, AppOptions } from '../../app/app.ts'
import { parseStoreUrl } from './store-url.ts'

/** How to reach the shared store (`--store`, docs/sharing.md). */
export interface StoreOptions {
  /** `redis://[user:pass@]host[:port][/db]`, `rediss://…`, or `unix:///path/to/socket[?db=N]`. */
  readonly url: string
  /** The prefix of every key (default `petstore-sim`): several fakes may share one Redis. */
  readonly namespace?: string | undefined
  /** The longest a request waits on the store, in ms (default 1000); past it the API answers 503. */
  readonly timeoutMs?: number | undefined
  /** How long start-up retries an unreachable store, in ms (default 30000), before it fails with one line. */
  readonly waitMs?: number | undefined
  /** Called before each retry at start-up. */
  readonly onRetry?: ((attempt: number, cause: string) => void) | undefined
}

/** Whether the store answers: while it does not, the API answers 503 and `/__sim/health` says not ready. */
export interface StoreHealth {
  readonly ready: boolean
  readonly cause?: string | undefined
}

/** A connection to the shared store, for the app that serves from it. */
export interface SharedStore {
  /** The store's URL without its password. */
  readonly display: string
  health(): StoreHealth
  /** Spread into `createNodeApp(…)`: every world (the default one and the sandboxes) lives in the store. */
  readonly appOptions: Partial<AppOptions>
  /** Initialises (seeds once) or adopts the default world for this app, and starts following the fleet's journal. */
  attach(app: App): Promise<void>
  close(): Promise<void>
}

/** A store that cannot be used: its message is one line, starting with what was given. */
export class StoreStartError extends Error {
  override readonly name = 'StoreStartError'
}

/**
 * Connects to the store and checks it (server version, scripting, data format); see {@link StoreOptions}. The Redis
 * client is loaded here, by a dynamic import, and only here: nothing else of the package loads it.
 */
export async function connectStore(options: StoreOptions): Promise<SharedStore> {
  const fail = (cause: string) => new StoreStartError(`--store ${shown(options.url)}: ${cause}`)
  let address
  try {
    address = parseStoreUrl(options.url)
  } catch (error) {
    throw fail((error as Error).message)
  }
  const { openSharedStore } = await import('./store-session.ts')
  return openSharedStore(options, address, (cause) => new StoreStartError(`--store ${address.display}: ${cause}`))
}

/** The URL as given, its password hidden, for a URL that could not be read. */
function shown(url: string): string {
  return url.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@')
}
