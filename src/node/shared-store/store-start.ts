import { Redis } from 'ioredis'
import { clientOptions, createStoreConnection, storeFormat, type StoreConnection } from './store-connection.ts'
import type { StoreAddress } from '../store-url.ts'
import type { StoreEvent } from './store-types.ts'

/** What start-up needs; the defaults are applied by the caller. */
export interface StartOptions {
  readonly address: StoreAddress
  readonly namespace: string
  readonly timeoutMs: number
  readonly waitMs: number
  readonly onRetry?: ((attempt: number, cause: string) => void) | undefined
  readonly onEvent?: ((event: StoreEvent) => void) | undefined
  /** Makes the one-line error of a store that cannot be used. */
  readonly fail: (cause: string) => Error
}

/**
 * Connects, retrying with backoff (100 ms doubling to 2 s) for `waitMs`, then checks the server: Redis or Valkey 7.0
 * or later, Lua scripts allowed (EVAL and EVALSHA), and no data of another format under the namespace.
 */
export async function startConnection(options: StartOptions): Promise<StoreConnection> {
  const { address, fail } = options
  const deadline = Date.now() + options.waitMs
  let attempt = 0
  let delay = 100
  for (;;) {
    const probe = new Redis(clientOptions(address, options.timeoutMs, false))
    // The socket's error (ECONNREFUSED, ENOENT) reaches this event; connect() rejects with "Connection is closed".
    let socketError: unknown
    probe.on('error', (error: unknown) => {
      socketError ??= error
    })
    try {
      await probe.connect()
      await check(probe, options)
      probe.disconnect()
      break
    } catch (error) {
      probe.disconnect()
      if (error instanceof CheckFailed) throw fail(error.message)
      const cause = connectCause(socketError ?? error)
      attempt++
      if (Date.now() + delay > deadline) throw fail(`cannot connect (${cause}) for ${Number((options.waitMs / 1000).toFixed(1))} s`)
      options.onRetry?.(attempt, cause)
      await new Promise((resolve) => setTimeout(resolve, delay))
      delay = Math.min(delay * 2, 2000)
    }
  }
  const client = new Redis(clientOptions(address, options.timeoutMs, true))
  const connection = createStoreConnection(client, address, options.namespace, options.timeoutMs, options.onEvent)
  try {
    await client.connect()
  } catch (error) {
    await connection.close()
    throw fail(`cannot connect (${connectCause(error)})`)
  }
  return connection
}

/** A check the server failed: not retried. */
class CheckFailed extends Error {}

async function check(probe: Redis, options: StartOptions): Promise<void> {
  const info = String(await probe.call('INFO', 'server'))
  const version = /^(?:valkey_version|redis_version):(\d+)\.(\d+)/m.exec(info)
  const name = /^valkey_version:/m.test(info) ? 'Valkey' : 'Redis'
  if (version === null || Number(version[1]) < 7) {
    throw new CheckFailed(
      `${name} ${version === null ? '(version unknown)' : `${version[1]}.${version[2]}`} is too old: the shared store needs Redis 7.0 or Valkey 7.2 or later`,
    )
  }
  for (const command of ['EVAL', 'EVALSHA']) {
    try {
      if (command === 'EVAL') await probe.call('EVAL', 'return 1', 0)
      else await probe.call('EVALSHA', 'e0e1f9fabfc9d4800c877a703b823ac0578ff8db', 0)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (command === 'EVALSHA' && message.startsWith('NOSCRIPT')) continue
      throw new CheckFailed(
        `the server refuses Lua scripts (${command}: ${message.split('\n')[0]}): the shared store needs EVAL and EVALSHA`,
      )
    }
  }
  const formatKey = `${options.namespace}:format`
  await probe.call('SET', formatKey, storeFormat, 'NX')
  const format = String(await probe.call('GET', formatKey))
  if (format !== storeFormat) {
    throw new CheckFailed(
      `the store holds data of petstore-sim's store format ${format}; this version reads format ${storeFormat}: use another --store-namespace or clear it`,
    )
  }
}

function connectCause(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code
  const message = error instanceof Error ? error.message : String(error)
  // ioredis's parser on an answer that is not RESP (an HTTP server, say): "Unknown RESP type 72 "H". Please report this."
  if (/Unknown RESP type|Protocol error/i.test(message)) return 'it answers, but not in the Redis protocol: is it a Redis server?'
  return /ECONNREFUSED|ENOENT|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EACCES/.exec(message)?.[0] ?? message.split('\n')[0]!
}
