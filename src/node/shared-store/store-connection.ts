import { createHash } from 'node:crypto'
import type { Redis, RedisOptions } from 'ioredis'
import { ApiError } from '../../core/http/api-error.ts'
import type { StoreAddress } from '../store-url.ts'
import type { StoreEvent } from './store-types.ts'
import { storeCorrupt } from './store-values.ts'
import type { SharedStoreCalls } from '../../core/simulator/simulator-options.ts'
import { createHistogram } from '../../app/metrics/histogram.ts'
import { durationBuckets } from '../../app/metrics/metric-families.ts'

/** The data format this version reads and writes (`<ns>:format`). */
export const storeFormat = '1'

/** A Lua script with its SHA-1: sent by EVALSHA, by EVAL once when the server does not hold it (NOSCRIPT). */
export interface StoreScript {
  readonly source: string
  readonly sha: string
}

export function storeScript(source: string): StoreScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') }
}

/** The link to the store every world of an instance shares: one client, the store's health, errors as answers. */
export interface StoreConnection {
  readonly client: Redis
  readonly display: string
  readonly namespace: string
  readonly timeoutMs: number
  /** Runs a script; rejects with a 503 `store_unavailable` naming the cause when the store does not answer. */
  run(script: StoreScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>
  /** The 503 of a request the store could not decide, naming the store and `cause`. */
  unavailable(cause: string): ApiError
  /** Any other command, the same way. */
  call(command: string, ...args: (string | number)[]): Promise<unknown>
  health(): { readonly ready: boolean; readonly cause?: string | undefined }
  /** Every call's round trip and the failed ones, as `GET /__sim/metrics` serves them. */
  readonly calls: SharedStoreCalls
  /** The 503 `store_corrupt` of a value read at `key` that this version did not write. */
  corrupt(key: string, problem: string): ApiError
  /**
   * A world (its key prefix) found holding such a value: not ready until `recheck` (a full read of the world) passes,
   * tried again at each health check (one at a time), so that an instance drained by its balancer still recovers.
   */
  markCorrupt(prefix: string, cause: string, recheck: () => Promise<unknown>): void
  /** The world read whole without a refusal: ready again, as far as it goes. */
  clearCorrupt(prefix: string): void
  /** A second connection for blocking reads (the journal's tail), with the same options. */
  duplicate(): Redis
  close(): Promise<void>
}

/**
 * What a 503 says of a request the store did not decide: a command the client never sent (the store unreachable), or a
 * script the store ran past its deadline (`expired`), changed nothing.
 */
const nothingDone = 'nothing was counted or changed'

/**
 * What a 503 says when the store's answer did not come in time: the script may have run in time all the same, its
 * answer late (a busy store or network), and then it counted (`--store-timeout 2`: 80 such 503s, 28 pets created).
 */
const outcomeUnknown =
  'the request may have been counted, or its change made, all the same (the store may have run it in time and answered late): read the state before sending it again'

/**
 * The client's options: no offline queue and a command timeout (fail, never queue), reconnecting with backoff forever,
 * and (`retry`: the request path's connection) the concurrent requests' commands auto-pipelined.
 */
export function clientOptions(address: StoreAddress, timeoutMs: number, retry: boolean): RedisOptions {
  return {
    ...(address.path === undefined ? { host: address.host, port: address.port } : { path: address.path }),
    username: address.username,
    password: address.password,
    db: address.db,
    ...(address.tls ? { tls: {} } : {}),
    enableOfflineQueue: false,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1000),
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: retry ? (attempt) => Math.min(50 * 2 ** Math.min(attempt, 6), 2000) : () => null,
    // The scripts of concurrent requests sent in one write (one round trip for many); each keeps its own timeout and
    // error, so the fail-closed 503s are unchanged (store-faults and store-outage tests).
    enableAutoPipelining: retry,
  }
}

/** Keeps the store's health from what its commands and a ping each second meet; answers 503s naming the cause. */
export function createStoreConnection(
  client: Redis,
  address: StoreAddress,
  namespace: string,
  timeoutMs: number,
  onEvent: (event: StoreEvent) => void = () => {},
): StoreConnection {
  let cause: string | undefined
  /** The store's health as its commands find it; a change of it is one log line (lost, back), not one per command. */
  const setCause = (next: string | undefined) => {
    const message = `the shared store at ${address.display}`
    if (cause === undefined && next !== undefined) {
      onEvent({ event: 'store_lost', level: 'warn', message: `${message} ${next}: the API answers 503 store_unavailable until it is back` })
    }
    if (cause !== undefined && next === undefined) onEvent({ event: 'store_back', level: 'info', message: `${message} answers again` })
    cause = next
  }
  const unavailable = (why: string, outcome = nothingDone) =>
    new ApiError('store_unavailable', `The shared store at ${address.display} ${why}; ${outcome}`, {
      'Retry-After': '1',
    })
  const failed = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    if (/timed? ?out/i.test(message)) {
      const why = `did not answer within ${timeoutMs} ms`
      setCause(why)
      return unavailable(why, outcomeUnknown)
    }
    const why =
      client.status === 'ready'
        ? `failed: ${message}`
        : `is unreachable (${client.status}${lastConnectError === undefined ? '' : `: ${lastConnectError}`})`
    setCause(why)
    return unavailable(why)
  }
  let lastConnectError: string | undefined
  client.on('error', (error: NodeJS.ErrnoException) => {
    lastConnectError = error.code ?? error.message
    setCause(`is unreachable (${lastConnectError})`)
  })
  client.on('ready', () => {
    lastConnectError = undefined
  })
  const ok = <T>(value: T) => {
    setCause(undefined)
    return value
  }
  const corrupt = (key: string, problem: string) => storeCorrupt(address.display, key, problem)
  /**
   * A reply of the server's that only a value of another writer explains: a key of another type (WRONGTYPE), or a
   * script that failed on what it read (a field that is no number). Refused as `store_corrupt` naming the key (or,
   * for a script, the world it read), not a 500.
   */
  const refused = (error: unknown, key: string) => {
    const message = error instanceof Error ? error.message : String(error)
    if (/^WRONGTYPE/.test(message) || /^ERR .*script/i.test(message)) return corrupt(key, message.split('\n')[0]!)
    return failed(error)
  }
  // Timed here, where every command of the instance passes (the ping included): the metrics' round trips and errors.
  const roundTrips = createHistogram(durationBuckets)
  let errors = 0
  const timed = <T>(sent: Promise<T>): Promise<T> => {
    const started = performance.now()
    return sent.then(
      (value) => {
        roundTrips.observe((performance.now() - started) / 1000)
        return value
      },
      (error: unknown) => {
        roundTrips.observe((performance.now() - started) / 1000)
        errors++
        return Promise.reject(error)
      },
    )
  }
  const call = (command: string, ...args: (string | number)[]) =>
    timed(client.call(command, ...args)).then(ok, (error) => Promise.reject(refused(error, String(args[0] ?? command))))
  const run = (script: StoreScript, keys: readonly string[], args: readonly (string | number)[]) =>
    timed(
      client
        .evalsha(script.sha, keys.length, ...keys, ...args)
        .catch((error: unknown) =>
          error instanceof Error && error.message.startsWith('NOSCRIPT')
            ? client.eval(script.source, keys.length, ...keys, ...args)
            : Promise.reject(error),
        ),
    ).then(ok, (error) => Promise.reject(refused(error, String(args[0] ?? keys[0] ?? 'a script'))))
  const corruptWorlds = new Map<string, { cause: string; recheck: () => Promise<unknown>; checking: boolean }>()
  // A paused store holds its connection open and answers nothing: only a command finds out, so one is sent each second.
  const pinger = setInterval(() => void call('PING').catch(() => {}), 1000)
  pinger.unref()
  return {
    client,
    display: address.display,
    namespace,
    timeoutMs,
    run,
    call,
    calls: {
      roundTrips,
      get errors() {
        return errors
      },
    },
    unavailable: (why) => unavailable(`${why} (${timeoutMs} ms)`),
    health() {
      if (client.status !== 'ready' || cause !== undefined) {
        return { ready: false, cause: `the shared store at ${address.display} ${cause ?? `is ${client.status}`}` }
      }
      const [first] = corruptWorlds.values()
      if (first === undefined) return { ready: true }
      for (const world of corruptWorlds.values()) {
        if (world.checking) continue
        world.checking = true
        void world.recheck().then(
          () => (world.checking = false),
          () => (world.checking = false),
        )
      }
      return { ready: false, cause: first.cause }
    },
    corrupt,
    markCorrupt(prefix, why, recheck) {
      const held = corruptWorlds.get(prefix)
      if (held === undefined) corruptWorlds.set(prefix, { cause: why, recheck, checking: false })
      else held.cause = why
    },
    clearCorrupt: (prefix) => void corruptWorlds.delete(prefix),
    // A blocking read has the connection to itself: nothing to pipeline it with.
    duplicate: () => client.duplicate({ commandTimeout: undefined, lazyConnect: false, enableAutoPipelining: false }),
    async close() {
      clearInterval(pinger)
      client.disconnect()
    },
  }
}
