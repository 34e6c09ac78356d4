import { ApiError } from '../../core/http/api-error.ts'
import { defaults } from '../../core/defaults.ts'
import { storeFull } from '../../core/operations/api-routes.ts'
import type { RateLimitDecision } from '../../core/access/rate-limiter.ts'
import type { Pet } from '../../core/model/pet-types.ts'
import type { SharedWorldLink, SimulatorCore, SimulatorOptions } from '../../core/simulator/simulator-options.ts'
import { maxPetId } from '../../core/model/pet-types.ts'
import type { StoreEvent } from './store-types.ts'
import type { StoreConnection } from './store-connection.ts'
import type { Clock } from '../../core/time/clock.ts'
import { storeScripts } from './store-scripts.ts'
import { decodeReply, decodeStreamRecords, isStoreCorrupt } from './store-values.ts'
import { createWorldJournal, encodeEntry, type WorldJournal } from './world-journal.ts'
import { createWorldMirror, type WorldMirror } from './world-mirror.ts'

/** How long an anonymous caller's bucket is kept after its last request: a day and a minute (its day window, and a ban). */
const anonymousBucketTtlMs = 86_460_000

/** How many times a request is decided again after its copy of the world was brought up to date, before a 503. */
const maxStaleRetries = 3

const windows = ['minute', 'day', 'ban'] as const

export interface WorldLinkOptions {
  readonly connection: StoreConnection
  /** `default`, or `sandbox:<name>`. */
  readonly world: string
  readonly options: SimulatorOptions
  readonly instanceId: string
  readonly fingerprint: string
  /** The instance's reading of the store's clock. */
  readonly clock: Clock
  /** Told when the store lost this world and it is seeded again (what was lost). */
  readonly onEvent: (event: StoreEvent) => void
  /** For a sandbox: the fleet's cap and idle expiry (the app's `sandboxes` option), kept in `<ns>:sandboxes`. */
  readonly sandboxes?: { readonly name: string; readonly max: number; readonly idleMs: number } | undefined
}

/** A world kept in the shared store: the pipeline's hook (admission, createPet, journal) and the control plane's. */
export function createWorldLink(link: WorldLinkOptions): Omit<SharedWorldLink, 'release'> & {
  readonly mirror: WorldMirror
  readonly journal: WorldJournal
  readonly fingerprint: string
  use(): Promise<boolean>
} {
  const { connection, options } = link
  const scripts = storeScripts
  let core: SimulatorCore | undefined
  const attached = () => {
    if (core === undefined) throw new Error('The shared world is not attached to its simulator yet')
    return core
  }
  /** When the instance stops waiting for a script, on the store's clock (the instance's clock runs on it). */
  const deadline = () => link.clock.now() + connection.timeoutMs
  const capacity = options.journalSize ?? defaults.journalSize
  // The stream's bounds are the journal's: each world's stream holds no more than its journal in memory would.
  const maxBytes = options.journalMaxBytes ?? defaults.journalMaxBytes
  const bodyCap = options.journalBodyCapBytes ?? defaults.journalBodyCapBytes
  const journal = createWorldJournal(attached, link.instanceId, () => mirror.sync(true))
  /** The anonymous callers the world keeps, as in memory: the same option, the same default. */
  const maxAnonymous = options.maxAnonymousBuckets ?? defaults.maxAnonymousBuckets
  const mirror = createWorldMirror({ ...link, core: attached, journal, deadline, maxAnonymous, capacity })
  const { prefix, metaKey } = mirror
  const ban = options.ban === false ? undefined : { ...defaults.ban, ...options.ban }
  const maxPets = options.maxPets ?? defaults.maxPets
  const { sandboxes } = link
  const sandboxUse = sandboxes === undefined ? [''] : [sandboxes.name, `${connection.namespace}:`, sandboxes.max, sandboxes.idleMs]

  const refuse = connection.corrupt
  /** A refusal of what the store holds marks the world not ready until a full read of it passes (store-connection.ts). */
  const noted = (error: unknown): never => {
    if (isStoreCorrupt(error)) connection.markCorrupt(prefix, error.message, () => mirror.sync(true))
    throw error
  }

  /**
   * Runs a script that answers `stale` while the copy is behind: brought up to date, then sent again, at most
   * {@link maxStaleRetries} times (a 503 then, never a loop). `counts`: how many places after the status are numbers.
   */
  async function fresh(send: () => Promise<unknown>, counts: number): Promise<unknown[]> {
    for (let attempt = 0; ; attempt++) {
      const reply = decodeReply(await send().catch(noted), counts, metaKey, refuse)
      if (reply[0] === 'corrupt') noted(refuse(String(reply[1]), String(reply[2])))
      if (reply[0] === 'expired') throw connection.unavailable('did not answer within its timeout')
      if (reply[0] === 'full') throw tooManySandboxes(Number(reply[1]), Number(reply[2]), link.sandboxes!.max)
      if (reply[0] !== 'stale' && reply[0] !== 'absent') return reply
      if (attempt === maxStaleRetries) {
        throw new ApiError('store_unavailable', `The shared store at ${connection.display} changed on every try: the world kept changing`, {
          'Retry-After': '1',
        })
      }
      await mirror.sync(false).catch(noted)
    }
  }

  /** A sandbox entered in the fleet (seeded if new, against the fleet's cap) without an API request; whether it was new. */
  async function use(): Promise<boolean> {
    if (sandboxes === undefined) return false
    const reply = await fresh(() => connection.run(scripts.useSandbox, [metaKey], [prefix, mirror.version, ...sandboxUse, deadline()]), 0)
    return Number(reply[1]) === 1
  }

  return {
    mirror,
    journal,
    fingerprint: link.fingerprint,
    attach(simulator) {
      core = simulator
      mirror.watch(simulator)
    },
    health: () => connection.health(),
    // Its failure is the health's own answer (the store unreachable, or a world marked corrupt by the read).
    refresh: () => mirror.sync(false).catch(() => {}),
    async admit(bucket, plan, admission) {
      const epoch = mirror.epoch
      let sentPets = 0
      const reply = await fresh(() => {
        sentPets = mirror.pets
        return connection.run(
          scripts.admit,
          [metaKey],
          [
            prefix,
            mirror.version,
            bucket,
            plan.perMinute,
            plan.perDay,
            ban === undefined ? -1 : ban.after,
            ban === undefined ? 0 : ban.durationMs,
            admission,
            bucket.startsWith('anonymous:') ? anonymousBucketTtlMs : 0,
            sentPets,
            maxAnonymous,
            ...sandboxUse,
            deadline(),
          ],
        )
      }, 7)
      const total = Number(reply[7])
      if (mirror.epoch === epoch) {
        // At the copy's version, the world's epoch is the copy's: another one was written by another process.
        if (reply[8] !== epoch) noted(refuse(`${metaKey}, field epoch`, `epoch ${String(reply[8])} at the version of epoch ${epoch}`))
        // The world's created pets fewer than this copy holds, at the same version: another process shortened the list.
        if (total < sentPets) noted(refuse(`${prefix}e${epoch}:created`, `it holds ${total} pets where the world counts ${sentPets}`))
        await mirror.applyPets(reply.slice(9) as string[], sentPets, total).catch(noted)
      }
      return toDecision(reply)
    },
    async createPet(newPet) {
      const epoch = mirror.epoch
      let sentPets = 0
      const sent = JSON.stringify(newPet)
      const reply = await fresh(() => {
        sentPets = mirror.pets
        return connection.run(scripts.createPet, [metaKey], [prefix, mirror.version, sentPets, sent, maxPets, maxPetId, deadline()])
      }, 1)
      if (reply[0] === 'full') throw storeFull(Number(reply[1]))
      const id = Number(reply[1])
      if (mirror.epoch !== epoch) {
        throw new ApiError('simulator_reset', 'The simulator was reset while this request was under way: send it again')
      }
      if (reply[2] !== epoch) noted(refuse(`${metaKey}, field epoch`, `epoch ${String(reply[2])} at the version of epoch ${epoch}`))
      const pets = reply.slice(3)
      // The reply ends with this pet, under the id the store gave it: a list another process shortened gives neither
      // (the pet answered was once another one's, "Rex" as pet 51 "p0").
      if (pets.at(-1) !== sent) noted(refuse(`${prefix}e${epoch}:created`, `it does not end with the pet just added as ${id}`))
      await mirror.applyPets(pets as string[], sentPets, sentPets + pets.length).catch(noted)
      const pet: Pet | undefined = attached().store.get(id)
      if (pet === undefined || pet.name !== newPet.name) {
        return noted(refuse(`${prefix}e${epoch}:created`, `pet ${id} is not the pet just added`))
      }
      return pet
    },
    async claimFault(ruleId) {
      const reply = await fresh(() => connection.run(scripts.claimFault, [metaKey], [prefix, mirror.version, ruleId, deadline()]), 1)
      return Number(reply[1]) === 1
    },
    record(input) {
      const entry = journal.begin(input)
      const restarts = journal.restarts
      connection
        .run(
          scripts.record,
          [metaKey],
          [prefix, capacity, encodeEntry(input, bodyCap), entry.origin, journal.lastId, journal.ownPrefix, maxBytes],
        )
        .then((reply) => {
          // Checked whole before any of it is applied: an entry of another writer's fails this request's entry only.
          journal.apply(decodeStreamRecords(reply, `${prefix}journal`, refuse), restarts)
          journal.settle(entry.origin)
        })
        .catch((error: unknown) => {
          if (isStoreCorrupt(error)) connection.markCorrupt(prefix, error.message, () => mirror.sync(true))
          entry.cancel(error)
        })
      return entry.recorded
    },
    use,
    // A sandbox's control request is a use of it, as in memory: it keeps the sandbox from expiring, or makes it.
    control: async (request, respond) => {
      if (sandboxes !== undefined) await use()
      return mirror.control(request, respond).catch(noted)
    },
  }
}

/** The admission script's reply as the limiter's decision. */
function toDecision(reply: readonly unknown[]): RateLimitDecision {
  const outcome = Number(reply[1])
  const window = windows[Number(reply[2])]!
  const limit = Number(reply[3])
  const resetAt = Number(reply[5])
  if (outcome === 0) return { outcome: 'allowed', window: window === 'day' ? 'day' : 'minute', limit, remaining: Number(reply[4]), resetAt }
  return { outcome: outcome === 1 ? 'limited' : 'banned', window, limit, remaining: 0, resetAt, retryAfterSeconds: Number(reply[6]) }
}

/** A sandbox new to the fleet past its cap: as the registry answers one past its own. */
function tooManySandboxes(held: number, seconds: number, max: number): ApiError {
  return new ApiError(
    'too_many_sandboxes',
    `The shared store holds ${held} sandboxes, the fleet's cap (--max-sandboxes ${max}): delete one (DELETE /__sim/sandboxes/<name>), or wait ${seconds} s for the least recently used to expire`,
    { 'Retry-After': String(seconds) },
  )
}
