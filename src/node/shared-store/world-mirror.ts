import type { BucketRecord } from '../../core/access/rate-limiter.ts'
import type { FaultRule } from '../../core/faults/fault-rules.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-options.ts'
import { storeFormat, type StoreConnection } from './store-connection.ts'
import { storeScripts } from './store-scripts.ts'
import { epochArgs, fleetBusy, fleetRules, maxControlRuns } from './world-encoding.ts'
import { ApiError } from '../../core/http/api-error.ts'
import {
  applyChecked,
  decodeBuckets,
  decodeFaultTimes,
  decodeList,
  decodeMeta,
  decodePets,
  decodeReply,
  decodeSnapshot,
  decodeStreamEntries,
  isStoreCorrupt,
} from './store-values.ts'
import type { WorldJournal } from './world-journal.ts'
import type { StoreEvent } from './store-types.ts'

/** The most journal entries one read of the stream takes (each at most twice the body cap, and the request's headers). */
export const journalPage = 50

/** The changes a control request can make that the fleet must see, in the order they are published. */
type Change = 'epoch' | 'clock' | 'faults' | 'journal' | 'pact' | 'coverage'

export interface WorldMirrorOptions {
  readonly connection: StoreConnection
  readonly world: string
  readonly fingerprint: string
  readonly core: () => SimulatorCore
  readonly journal: WorldJournal
  /** The journal's capacity in entries: the stream holds no more. */
  readonly capacity: number
  /** When the instance stops waiting for a script, on the store's clock: a publish run later changes nothing. */
  readonly deadline: () => number
  /** The most anonymous callers the world keeps (`maxAnonymousBuckets`): bounds the batches a full pull reads. */
  readonly maxAnonymous: number
  /** Told when the store lost the world and it is seeded again, with what the copy held that is gone. */
  readonly onEvent: (event: StoreEvent) => void
}

/** How many times a pull reads a world again that another instance seeded while it read. */
const maxStaleReads = 3

/** How many anonymous callers' buckets one script reads: a full pull reads them in batches, never all in one script. */
const bucketBatch = 1000

/**
 * The instance's copy of one world, kept up to date with the store: the world's `version` (bumped by every control
 * change), its `epoch` (bumped by every change that replaces the whole state, whose snapshot starts it), the clock
 * setting, the fault rules, the pets created since the epoch began, the journal; and what a control request made
 * through this instance changed, published for the fleet.
 */
export function createWorldMirror(options: WorldMirrorOptions) {
  const { connection, journal } = options
  const prefix = `${connection.namespace}:{${options.world}}:`
  const metaKey = `${prefix}meta`
  let version = ''
  let epoch = ''
  /** When the store first wrote the world: a store that lost it (restarted empty) writes it again with another life. */
  let life = ''
  let pets = 0
  let faultsText = ''
  let applying = false
  let watching: Set<Change> | undefined
  let syncing: Promise<void> | undefined
  let controlQueue: Promise<unknown> = Promise.resolve()
  /** The life of the world last reported lost: one line per loss, whichever instance seeds it again. */
  let reportedLife: string | undefined

  /**
   * The store lost the world (restarted empty, flushed, its keys evicted): the copy is about to be seeded again from
   * the options, or replaced by the world another instance seeded. Said once, with what is gone.
   */
  function reportLost(): void {
    if (life === '' || reportedLife === life) return
    reportedLife = life
    const clock = options.core().clock.setting
    const lost = [
      `${pets} pet${pets === 1 ? '' : 's'} created since the last reset`,
      ...(clock.frozenAt === null ? [] : [`the frozen clock (${new Date(clock.frozenAt).toISOString()})`]),
      ...(clock.offsetMs === 0 || clock.frozenAt !== null ? [] : [`the clock's offset (${clock.offsetMs} ms)`]),
      'the fault rules, the journal and the rate-limit counters',
    ]
    options.onEvent({
      event: 'world_reseeded',
      level: 'warn',
      message: `the shared store at ${connection.display} lost the world ${options.world} (restarted empty or cleared): seeded again from the options; lost: ${lost.join(', ')}`,
    })
  }

  const call = (command: string, ...args: (string | number)[]) => connection.call(command, ...args)

  /** The world as this instance holds it, published as a new epoch (`init`: only when the store has none). */
  async function publishEpoch(kind: 'epoch' | 'init'): Promise<boolean> {
    const args = epochArgs(options.core(), options.fingerprint)
    // A store that came back empty has lost its format mark too.
    if (kind === 'init') await call('SET', `${connection.namespace}:format`, storeFormat, 'NX')
    // A new world's stream is a new one (the store lost the world, or never had it).
    if (kind === 'init') journal.restart()
    if (!(await send([kind, ...args]))) return false
    // The rules are loaded again from the store's (the fleet's counts of `times`) at the next pull.
    faultsText = ''
    pets = 0
    return true
  }

  /**
   * Publishes a change if the world is still at the copy's version; false when it is not (`stale`: another instance
   * changed it first; or `exists`: another seeded it), nothing written. A publish the store runs past the deadline
   * (it waited in a paused store's queue) writes nothing either: the request is answered 503.
   */
  async function send(args: readonly (string | number)[]): Promise<boolean> {
    const reply = (await connection.run(
      storeScripts.publish,
      [metaKey],
      [prefix, `${life}/${version}`, ...args, options.deadline()],
    )) as string[]
    if (reply[0] === 'expired') throw connection.unavailable('did not answer within its timeout')
    if (reply[0] !== 'ok') return false
    adopt(reply.slice(1))
    return true
  }

  /** Takes the versions a publish left, as this instance's: it made the change, so its copy is the world's. */
  function adopt(reply: readonly string[]): void {
    const [nextVersion = '', nextEpoch = '', journalVersion = '', pactVersion = '', coverageVersion = '', nextLife = ''] = reply
    version = nextVersion
    epoch = nextEpoch
    life = nextLife
    journal.generations(journalVersion, pactVersion, coverageVersion)
  }

  /** Publishes what a control request changed on the copy; false when the world moved on first (nothing written). */
  async function publish(change: Change): Promise<boolean> {
    const core = options.core()
    if (change === 'epoch') return publishEpoch('epoch')
    const args: (string | number)[] = [change]
    if (change === 'clock') args.push(core.clock.setting.offsetMs, core.clock.setting.frozenAt ?? '')
    if (change === 'faults') {
      args.push(JSON.stringify({ nextId: core.faults.nextId, rules: core.faults.list() }))
      faultsText = ''
    }
    return send(args)
  }

  /**
   * Publishes every change, in order; false when the world moved on first. A copy whose changes the fleet does not
   * have (stale, or the store failed) forgets what it knows of them, so its next sync reads the fleet's again: the
   * epoch's snapshot, the rules (the clock is compared at every sync). A journal, pact or coverage cleared on the copy
   * alone stays so: the control request runs again on the fleet's copy, or answers 503.
   */
  async function publishAll(changes: ReadonlySet<Change>): Promise<boolean> {
    try {
      for (const change of changes) if (!(await publish(change))) return forget(changes)
      return true
    } catch (error) {
      forget(changes)
      throw error
    }
  }

  function forget(changes: ReadonlySet<Change>): false {
    // A version no world has: every script answers `stale` until a sync, API requests' included. Only a change of
    // epoch forgets the epoch: a sync that restores the snapshot fails the createPets under way.
    version = 'forgotten'
    if (changes.has('epoch')) epoch = ''
    faultsText = ''
    return false
  }

  const refuse = connection.corrupt
  /** The created pets' list of the copy's epoch. */
  const createdKey = () => `${prefix}e${epoch}:created`
  /** The meta's version when a pull last found a value this version did not write: a reset may start over from it. */
  let corruptAt: { readonly version: string; readonly life: string } | undefined

  /**
   * Brings the copy up to date; `full` also loads every caller's bucket and catches the journal up (control requests).
   * Every value is decoded (store-values.ts) before it is applied; one this version did not write is a 503
   * `store_corrupt` naming its key, and the world is marked not ready until a full pull reads it whole again.
   */
  async function pull(full: boolean): Promise<void> {
    let seen: typeof corruptAt
    try {
      await pullChecked(full, (at) => (seen = at))
      if (full) {
        corruptAt = undefined
        connection.clearCorrupt(prefix)
      }
    } catch (error) {
      if (isStoreCorrupt(error)) {
        corruptAt = seen
        connection.markCorrupt(prefix, error.message, () => sync(true))
      }
      throw error
    }
  }

  /** Brought up to date once for every caller waiting at the same time; a full sync waits for one under way. */
  function sync(full: boolean): Promise<void> {
    if (syncing !== undefined && !full) return syncing
    const run = (syncing ?? Promise.resolve()).catch(() => {}).then(() => pull(full))
    const current = run.finally(() => {
      if (syncing === current) syncing = undefined
    })
    syncing = current
    return current
  }

  async function pullChecked(full: boolean, saw: (at: NonNullable<typeof corruptAt>) => void, seeds = 0): Promise<void> {
    const core = options.core()
    const meta = decodeMeta(await call('HGETALL', metaKey), metaKey, refuse)
    if (meta === undefined) {
      // An empty store (a new world, or a store that came back empty): this world, from the options, seeded once.
      if (version !== '') {
        reportLost()
        applying = true
        try {
          core.reset()
        } finally {
          applying = false
        }
      }
      if (await publishEpoch('init')) return
      // Another instance seeded it first: read again, a bounded number of times (a world removed on every read, by
      // another process, is a 503, not a loop).
      if (seeds === maxStaleReads) throw connection.unavailable(`had ${options.world}'s world removed on every read`)
      return pullChecked(full, saw, seeds + 1)
    }
    saw({ version: meta.version, life: meta.life })
    // What is left of each rule's `times` across the fleet, when a rule has some.
    const timesKey = `${prefix}fault-times`
    const times = meta.faultsText.includes('"remaining"')
      ? decodeFaultTimes(await call('HGETALL', timesKey), timesKey, refuse)
      : new Map<string, number>()
    applying = true
    try {
      if (meta.epoch !== epoch || meta.life !== life) {
        // Another life of the world (the store lost it and it was written again): its stream is another.
        if (meta.life !== life) {
          reportLost()
          journal.restart()
        }
        const snapshotKey = `${prefix}e${meta.epoch}:snapshot`
        const snapshot = decodeSnapshot(await call('GET', snapshotKey), snapshotKey, refuse)
        applyChecked(refuse, snapshotKey, () => core.restore(snapshot))
        epoch = meta.epoch
        pets = 0
        // The snapshot brought its own rules: the world's are loaded below, whatever was loaded before.
        faultsText = ''
      }
      const { clockOffsetMs: offsetMs, frozenAt } = meta
      if (core.clock.setting.offsetMs !== offsetMs || core.clock.setting.frozenAt !== frozenAt) {
        applyChecked(refuse, `${metaKey}, fields clockOffsetMs and clockFrozenAt`, () => core.clock.restore({ offsetMs, frozenAt }))
      }
      const rulesText = `${meta.faultsText}${JSON.stringify([...times])}`
      if (rulesText !== faultsText && meta.faults !== undefined) {
        const { rules, nextId } = meta.faults
        applyChecked(refuse, `${metaKey}, field faults`, () => core.faults.load(fleetRules(rules as FaultRule[], times), nextId))
        faultsText = rulesText
      }
      journal.generations(meta.journalVersion, meta.pactVersion, meta.coverageVersion)
      version = meta.version
      life = meta.life
    } finally {
      applying = false
    }
    // From the count before the round trip: pets added while it was under way (a createPet's reply) are skipped, not
    // shifted (taking \`pets\` after the await put a pet under the next one's id on a busy instance).
    const from = pets
    const created = decodeList(await call('LRANGE', createdKey(), from, -1), createdKey(), refuse)
    await applyPets(created, from, from + created.length)
    if (!full) return
    const callersKey = `${prefix}e${epoch}:`
    const buckets: BucketRecord[] = []
    // Bounded: the cap's batches and one more (callers come and go between batches; none is read twice in a row).
    for (let start = 0, batches = 0; batches <= options.maxAnonymous / bucketBatch + 1; start += bucketBatch, batches++) {
      const reply = await connection.run(storeScripts.buckets, [metaKey], [prefix, epoch, start, bucketBatch])
      const [held] = decodeReply(Array.isArray(reply) ? ['ok', ...reply] : reply, 1, callersKey, refuse).slice(1) as number[]
      buckets.push(...decodeBuckets((reply as unknown[]).slice(1), callersKey, refuse))
      if (start + bucketBatch >= held!) break
    }
    applyChecked(refuse, `${callersKey}rl:*`, () => core.limiter.load(buckets))
    await catchUpJournal()
  }

  /**
   * Applies the stream's entries past the copy's, a page at a time: each read within --store-timeout whatever the
   * stream holds (one read of it whole, up to 10,000 entries, kept a new instance from starting once it was large). As
   * many pages as the stream holds entries at most; the journal's tail brings the rest.
   */
  async function catchUpJournal(): Promise<void> {
    const restarts = journal.restarts
    const streamKey = `${prefix}journal`
    for (let page = 0; page <= options.capacity / journalPage; page++) {
      const entries = await call('XRANGE', streamKey, `(${journal.lastId}`, '+', 'COUNT', journalPage)
      const records = decodeStreamEntries(entries, streamKey, refuse)
      if (!journal.apply(records, restarts) || journal.restarts !== restarts || records.length < journalPage) return
    }
  }

  /**
   * Adds the created pets a reply carried from `first` on (those this copy lacks), fetching the rest up to `total`:
   * each fetch once. A list that holds fewer than the world counted (another process emptied it, or the epoch moved on
   * meanwhile) is no reason to fetch again: a fetch that falls short is refused, so the catch-up never loops.
   */
  async function applyPets(created: readonly string[], first: number, total: number): Promise<void> {
    const core = options.core()
    const key = createdKey()
    const fetch = async (from: number, to: number) => {
      const fetched = decodeList(await call('LRANGE', key, from, to - 1), key, refuse)
      if (fetched.length < to - from) {
        const now = (await call('HGET', metaKey, 'epoch')) as string | null
        if (now !== epoch) throw new ApiError('simulator_reset', 'The simulator was reset while this request was under way: send it again')
        throw refuse(key, `it holds ${from + fetched.length} pets where the world counts ${to}`)
      }
      return fetched
    }
    if (pets < first) {
      // A gap before what the reply carried: fetched first, so that every pet goes under its own id.
      const from = pets
      await applyPets(await fetch(from, first), from, first)
    }
    const skipped = pets - first
    const decoded = decodePets(skipped > 0 ? created.slice(skipped) : created, key, refuse)
    for (const pet of decoded) {
      // A list longer than the cap the scripts keep (another process pushed past it) fills the copy: refused too.
      applyChecked(refuse, key, () => core.store.create(pet))
      pets++
    }
    if (pets < total) {
      const from = pets
      await applyPets(await fetch(from, total), from, total)
    }
  }

  return {
    prefix,
    metaKey,
    /** `<life>/<version>`, as the scripts compare it. */
    get version() {
      return `${life}/${version}`
    },
    get epoch() {
      return epoch
    },
    get pets() {
      return pets
    },
    applyPets,
    /** Brought up to date once for every caller waiting at the same time; a full sync waits for one under way. */
    sync,
    /** Notes what the world's simulator changes while a control request of this instance runs. */
    watch(core: SimulatorCore): void {
      core.events.subscribe((event) => {
        if (applying || watching === undefined || event.type === 'request') return
        watching.add(event.type === 'reset' ? 'epoch' : event.type)
      })
    },
    control<Answer>(request: { readonly method: string; readonly path: string }, respond: () => Answer | Promise<Answer>): Promise<Answer> {
      if (request.method === 'GET' || request.method === 'HEAD') return this.sync(true).then(respond)
      // Run on the copy, published if the world is still at the copy's version; else run again on the fleet's, up to date
      // (the lanes keep a body once read, so it reads the same the second time). The answer is the last run's.
      const run = async () => {
        for (let runs = 1; ; runs++) {
          // A world holding a value this version did not write can still be reset (or given a snapshot or a
          // scenario): a change that replaces the whole state is made on the copy as it is and published over the
          // meta's version as last read; any other change is refused with the store's refusal, nothing published.
          let refused: { readonly error: unknown; readonly at: NonNullable<typeof corruptAt> } | undefined
          try {
            await this.sync(true)
          } catch (error) {
            if (!isStoreCorrupt(error) || corruptAt === undefined) throw error
            refused = { error, at: corruptAt }
          }
          const changes = new Set<Change>()
          watching = changes
          let outcome: { readonly answer: Answer } | { readonly error: unknown }
          try {
            outcome = { answer: await respond() }
          } catch (error) {
            outcome = { error }
          } finally {
            watching = undefined
          }
          if (request.method === 'DELETE' && request.path === '/__sim/requests') changes.add('journal')
          if (request.method === 'DELETE' && request.path === '/__sim/requests.pact') changes.add('pact')
          if (request.method === 'DELETE' && request.path === '/__sim/coverage') changes.add('coverage')
          // A new epoch carries the clock and the rules with it.
          if (changes.has('epoch')) for (const carried of ['clock', 'faults', 'journal'] as const) changes.delete(carried)
          if (refused !== undefined) {
            if (!changes.has('epoch')) {
              forget(changes.add('epoch'))
              throw refused.error
            }
            version = refused.at.version
            life = refused.at.life
          }
          if (await publishAll(changes)) {
            if (refused !== undefined) connection.clearCorrupt(prefix)
            if ('error' in outcome) throw outcome.error
            return outcome.answer
          }
          if (runs === maxControlRuns) throw fleetBusy(connection.display)
        }
      }
      // One control change at a time on an instance, in the order they came.
      const result = controlQueue.then(run, run)
      controlQueue = result.catch(() => {})
      return result
    },
  }
}

export type WorldMirror = ReturnType<typeof createWorldMirror>
