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
  const { openSharedStore } = await import('./store-session.ts')
  return openSharedStore(options, address, (cause) => new StoreStartError(`--store ${address.display}: ${cause}`))
}
