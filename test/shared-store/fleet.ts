import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import type { App, AppOptions } from '../../src/app/app.ts'
import { connectStore, type SharedStore, type StoreOptions } from '../../src/node/shared-store/connect-store.ts'
import { checkedFetch } from '../support/checked-fetch.ts'

/**
 * Several instances on one store, as several processes would be: each its own connection, app and server on a
 * loopback port. `api` contract-checks every answer (a 503 `store_unavailable` is outside the contract: the outage
 * tests read those with `raw`).
 */
export interface Fleet {
  readonly apps: readonly App[]
  readonly stores: readonly SharedStore[]
  readonly origins: readonly string[]
  api(index: number, path: string, init?: RequestInit & { readonly key?: string }): Promise<Response>
  raw(index: number, path: string, init?: RequestInit & { readonly key?: string }): Promise<Response>
  control(index: number, path: string, method?: string, body?: unknown): Promise<Response>
  close(): Promise<void>
}

export async function startFleet(size: number, store: StoreOptions, options: AppOptions = {}): Promise<Fleet> {
  const stores: SharedStore[] = []
  const apps: App[] = []
  const servers: RunningServer[] = []
  for (let index = 0; index < size; index++) {
    const connected = await connectStore({ waitMs: 2000, timeoutMs: 300, ...store })
    const app = createNodeApp({ ...connected.appOptions, ...options })
    await connected.attach(app)
    stores.push(connected)
    apps.push(app)
    servers.push(await startServer({ app, port: 0, host: '127.0.0.1', log: 'silent' }))
  }
  const origins = servers.map((server) => server.url.replace(/\/$/, ''))
  const request = (init: RequestInit & { readonly key?: string }): RequestInit => {
    const { key = 'demo-free-key', ...rest } = init
    return { ...rest, headers: { ...(key === '' ? {} : { authorization: `Bearer ${key}` }), ...(rest.headers as Record<string, string>) } }
  }
  return {
    apps,
    stores,
    origins,
    api: (index, path, init = {}) => checkedFetch(`${origins[index]}/v1${path}`, request(init)),
    raw: (index, path, init = {}) => fetch(`${origins[index]}/v1${path}`, request(init)),
    control: (index, path, method = 'GET', body = undefined) =>
      fetch(`${origins[index]}${path}`, {
        method,
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      }),
    async close() {
      await Promise.all(servers.map((server) => server.close()))
      for (const connected of stores) await connected.close()
    },
  }
}

/** A createPet body. */
export const newPet = (name: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name, categoryId: 1 }),
})
