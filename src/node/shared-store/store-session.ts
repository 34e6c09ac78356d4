import { createHash, randomUUID } from 'node:crypto'
import type { App } from '../../app/app.ts'
import type { SimulatorOptions } from '../../core/simulator/simulator-options.ts'
import type { Clock } from '../../core/time/clock.ts'
import { defaults } from '../../core/defaults.ts'
import type { SandboxOptions } from '../../app/sandboxes.ts'
import type { SharedStore, StoreOptions } from './store-types.ts'
import { startJournalTail } from './journal-tail.ts'
import { startConnection } from './store-start.ts'
import type { StoreAddress } from '../store-url.ts'
import { createWorldLink } from './world-link.ts'
import { decodeSandboxes, isStoreCorrupt } from './store-values.ts'
import type { StoreConnection } from './store-connection.ts'
import { storeScripts } from './store-scripts.ts'
import type { SharedSandboxes } from '../../core/simulator/sandbox-registry.ts'

/** Connects (start-up checks included) and returns the store every world of this instance lives in. */
export async function openSharedStore(options: StoreOptions, address: StoreAddress, fail: (cause: string) => Error): Promise<SharedStore> {
  const namespace = options.namespace ?? 'petstore-sim'
  const connection = await startConnection({
    address,
    namespace,
    timeoutMs: options.timeoutMs ?? 1000,
    waitMs: options.waitMs ?? 30_000,
    onRetry: options.onRetry,
    onEvent: options.onEvent,
    fail,
  })
  // One clock for the fleet: the store's. The windows are counted on its TIME in the scripts; the instance reads the
  // store's clock as last measured plus the monotonic time since, so its dates and its scripts' deadlines agree with
  // the store whatever the machine's own clock does.
  const storeClock = await measuredStoreClock(connection)
  const { clock } = storeClock
  const instanceId = randomUUID().slice(0, 8)
  const tail = startJournalTail(connection.duplicate(), connection)
  const links: WorldLinks = new Map()
  let sandboxLimits = limitsOf({})
  return {
    display: connection.display,
    health: () => connection.health(),
    appOptions: {
      clock,
      shared({ sandboxPath, options: worldOptions }) {
        const name = sandboxPath.replace(/^\/sandboxes\//, '')
        const world = sandboxPath === '' ? 'default' : `sandbox:${name}`
        // The default world is made first, with the app's options: its `sandboxes` are the fleet's cap and expiry.
        if (sandboxPath === '') sandboxLimits = limitsOf(worldOptions)
        const made = createWorldLink({
          connection,
          world,
          options: worldOptions,
          instanceId,
          fingerprint: fingerprint(worldOptions),
          clock,
          onEvent: options.onEvent ?? (() => {}),
          sandboxes: sandboxPath === '' ? undefined : { name, ...sandboxLimits },
        })
        const stream = `${made.mirror.prefix}journal`
        const release = () => {
          if (links.get(world) === link) links.delete(world)
          tail.unfollow(stream, made.journal)
        }
        const link = {
          ...made,
          release,
          calls: connection.calls,
          ...(sandboxPath === '' ? { sandboxes: fleetSandboxes(connection, () => sandboxLimits.idleMs, links) } : {}),
        }
        links.set(world, link)
        tail.follow(stream, link.journal, () => link.mirror.sync(true))
        return link
      },
    },
    async attach(app: App) {
      const link = links.get('default')
      if (link === undefined || app.simulator.shared !== link) {
        throw fail('attach(app) takes an app made with this store: createNodeApp({ ...store.appOptions, … })')
      }
      // A world holding a value this version did not write starts not ready (store_corrupt), rather than not at all:
      // it serves once the value is removed or the world is reset.
      await link.mirror.sync(true).catch((error: unknown) => {
        if (!isStoreCorrupt(error)) throw error
      })
      const held = (await connection.call('HGET', link.mirror.metaKey, 'options')) as string | null
      if (held !== null && held !== link.fingerprint) {
        throw fail(
          'the store holds a simulator made with other options (seed, pets, fixtures, keys, scenario, limits, journal bounds, sandboxes, deprecation, faults): start every instance with the same options, or use another --store-namespace',
        )
      }
    },
    async close() {
      storeClock.stop()
      tail.stop()
      await connection.close()
    },
  }
}

type WorldLinks = Map<string, ReturnType<typeof createWorldLink> & { release(): void }>

/** The fleet's sandboxes in `<ns>:sandboxes`, for the default world's `/__sim/sandboxes` (`SharedSandboxes`). */
function fleetSandboxes(connection: StoreConnection, idleMs: () => number, links: WorldLinks): SharedSandboxes {
  const ns = `${connection.namespace}:`
  return {
    async list(name) {
      const reply = await connection.run(storeScripts.listSandboxes, [], [ns, idleMs(), name ?? ''])
      return decodeSandboxes(reply, `${ns}sandboxes`, connection.corrupt)
    },
    async enter(name) {
      const link = links.get(`sandbox:${name}`)
      if (link === undefined) throw new Error(`The sandbox ${name} has no world on this instance to enter in the fleet`)
      return link.use()
    },
    async delete(name) {
      return Number(await connection.run(storeScripts.dropSandbox, [], [ns, name])) === 1
    },
  }
}

/**
 * The options that shape a world's state or what the fleet shares of it: instances on one store must agree on them.
 * The sandboxes' cap and idle expiry are each instance's word on the fleet's sandboxes (an instance with a 2 s expiry
 * swept the sandboxes of one with 30 min); the journal's bounds shape the stream each writes and every journal read;
 * the deprecation dates, the fault rules and scenarios a reset goes back to, the answers of every instance. Left out:
 * what each instance does with its own requests alone (latency, body limit, CORS, `Prefer`).
 */
function fingerprint(options: SimulatorOptions & { readonly sandboxes?: SandboxOptions | false }): string {
  const { seed, pets, fixtures, keys, scenario, maxPets, ban, baseUrl, journalSize, defaultStatus } = options
  const { journalMaxBytes, journalBodyCapBytes, deprecation, faults, scenarios } = options
  const sandboxes = options.sandboxes === false ? false : limitsOf(options)
  const shape = JSON.stringify({
    seed,
    pets,
    fixtures,
    keys,
    scenario,
    maxPets,
    ban,
    baseUrl,
    journalSize,
    defaultStatus,
    journalMaxBytes,
    journalBodyCapBytes,
    deprecation,
    faults,
    scenarios,
    sandboxes,
  })
  return createHash('sha1').update(shape).digest('hex').slice(0, 16)
}

/** The sandboxes' cap and idle expiry of the app's options (`sandboxes` in `createApp`), with their defaults. */
function limitsOf(options: SimulatorOptions & { readonly sandboxes?: SandboxOptions | false }): { max: number; idleMs: number } {
  const given = options.sandboxes === false ? { max: 0, idleMs: undefined } : (options.sandboxes ?? {})
  return { max: given.max ?? defaults.maxSandboxes, idleMs: given.idleMs ?? defaults.sandboxIdleMs }
}

/**
 * The store's clock as this instance reads it: the store's `TIME` when last measured (half the round trip taken off),
 * plus `performance.now()` since, which no step of the machine's wall clock moves. An instance that read
 * `Date.now()` plus a skew measured at start answered every request 503 for good once NTP stepped its clock back by
 * more than `--store-timeout` (each script's deadline was then already past on the store's clock), while its health
 * said ready. Measured again every 10 s, so that the two clocks' rates never part by more than that allows.
 */
async function measuredStoreClock(connection: StoreConnection): Promise<{ readonly clock: Clock; stop(): void }> {
  let anchor = { storeMs: 0, at: 0 }
  const measure = async () => {
    const sent = performance.now()
    const [seconds = '0', micros = '0'] = (await connection.call('TIME')) as string[]
    const received = performance.now()
    anchor = { storeMs: Number(seconds) * 1000 + Number(micros) / 1000, at: (sent + received) / 2 }
  }
  await measure()
  // A failed measure keeps the last anchor: the store being away is the requests' concern (503s), not the clock's.
  const timer = setInterval(() => void measure().catch(() => {}), 10_000)
  timer.unref()
  return {
    clock: { now: () => Math.round(anchor.storeMs + (performance.now() - anchor.at)) },
    stop: () => clearInterval(timer),
  }
}
