import { createNodeApp } from '../../src/node/node-app.ts'
import type { App, AppOptions } from '../../src/app/app.ts'
import { connectStore, type SharedStore, type StoreOptions } from '../../src/node/shared-store/connect-store.ts'

/** Several apps (instances) on one store, as several processes would be: each with a connection of its own. */
export interface Fleet {
  readonly apps: readonly App[]
  readonly stores: readonly SharedStore[]
  /** A request to instance `index`, as a client on 127.0.0.1 sends it. */
  send(index: number, method: string, path: string, init?: { readonly key?: string; readonly body?: unknown; readonly headers?: Record<string, string> }): Promise<Response>
  close(): Promise<void>
}

export async function startFleet(
  size: number,
  store: Omit<StoreOptions, 'url'> & { readonly url: string },
  options: AppOptions = {},
): Promise<Fleet> {
  const stores: SharedStore[] = []
  const apps: App[] = []
  for (let index = 0; index < size; index++) {
    const connected = await connectStore({ waitMs: 2000, timeoutMs: 300, ...store })
    const app = createNodeApp({ ...connected.appOptions, ...options })
    await connected.attach(app)
    stores.push(connected)
    apps.push(app)
  }
  return {
    apps,
    stores,
    send(index, method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers }
      if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`
      if (init.body !== undefined) headers['content-type'] = 'application/json'
      const request = new Request(`http://localhost${path}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      })
      return apps[index]!.fetch(request, { clientAddress: '127.0.0.1' })
    },
    async close() {
      for (const connected of stores) await connected.close()
    },
  }
}
