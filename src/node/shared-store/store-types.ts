import type { App, AppOptions } from '../../app/app.ts'

// The shared store's contract (`connect-store.ts` exports it), apart: the code it loads on demand reads it too.

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
  /** Called when the store is lost, when it is back, and when a world the store lost is seeded again: a log line. */
  readonly onEvent?: ((event: StoreEvent) => void) | undefined
}

/** What an operator is told of the store while serving: one line each. */
export interface StoreEvent {
  /** `store_lost` (warn), `store_back` (info), `world_reseeded` (warn: what the world held is gone). */
  readonly event: 'store_lost' | 'store_back' | 'world_reseeded'
  readonly level: 'info' | 'warn'
  readonly message: string
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
