import type { SharedStore, StoreHealth, StoreOptions } from './store-types.ts'
import { maskStoreUrl, parseStoreUrl, type StoreAddress } from '../store-url.ts'

export type { SharedStore, StoreHealth, StoreOptions }

/** A store that cannot be used: its message is one line, starting with what was given. */
export class StoreStartError extends Error {
  override readonly name = 'StoreStartError'
}

/**
 * Connects to the store and checks it (server version, scripting, data format); see {@link StoreOptions}. The Redis
 * client is loaded here, by a dynamic import, and only here: nothing else of the package loads it.
 */
export async function connectStore(options: StoreOptions): Promise<SharedStore> {
  // The URL as given, its password hidden, for a URL that could not be read.
  const fail = (cause: string) => new StoreStartError(`--store ${maskStoreUrl(options.url)}: ${cause}`)
  let address: StoreAddress
  try {
    address = parseStoreUrl(options.url)
  } catch (error) {
    throw fail((error as Error).message)
  }
  const { openSharedStore } = await import('./store-session.ts').catch((error: unknown) => {
    throw isMissingClient(error) ? new Error(missingClientMessage) : error
  })
  return openSharedStore(options, address, (cause) => new StoreStartError(`--store ${address.display}: ${cause}`))
}

/**
 * The Redis client is an optional peer dependency: only the shared store needs it, so only its users install it. A
 * start without it is a usage error (the CLI's exit 2), not a store that cannot be used.
 */
const missingClientMessage = '--store needs the Redis client ioredis, an optional peer dependency that is not installed: npm i ioredis'

function isMissingClient(error: unknown): boolean {
  const { code, message } = error as NodeJS.ErrnoException
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && /['"]ioredis['"]/.test(String(message))
}
