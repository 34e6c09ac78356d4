import type { FaultRule } from '../../core/faults/fault-rules.ts'
import type { NewPet } from '../../core/model/pet-types.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-options.ts'
import { storeFormat, type StoreConnection } from './store-connection.ts'
import { storeScripts } from './store-scripts.ts'
import { bucketRecords, epochArgs, fleetBusy, fleetRules, maxControlRuns } from './world-encoding.ts'
import { flattenEntries, type WorldJournal } from './world-journal.ts'

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
}

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

  /** Brings the copy up to date; `full` also loads every caller's bucket and catches the journal up (control requests). */
  async function pull(full: boolean): Promise<void> {
    const core = options.core()
    const flat = (await call('HGETALL', metaKey)) as string[]
    const meta = new Map<string, string>()
    for (let index = 0; index + 1 < flat.length; index += 2) meta.set(flat[index]!, flat[index + 1]!)
    // What is left of each rule's `times` across the fleet, when a rule has some.
    const faults = meta.get('faults') ?? ''
    const times = faults.includes('"remaining"') ? ((await call('HGETALL', `${prefix}fault-times`)) as string[]) : []
    if (meta.size === 0) {
      // An empty store (a new world, or a store that came back empty): this world, from the options, seeded once.
      if (version !== '') {
        applying = true
        try {
          core.reset()
        } finally {
          applying = false
        }
      }
      if (!(await publishEpoch('init'))) await pull(full)
      return
    }
    applying = true
    try {
      if (meta.get('epoch') !== epoch || (meta.get('life') ?? '') !== life) {
        const nextEpoch = meta.get('epoch')!
        // Another life of the world (the store lost it and it was written again): its stream is another.
        if ((meta.get('life') ?? '') !== life) journal.restart()
        const snapshot = (await call('GET', `${prefix}e${nextEpoch}:snapshot`)) as string | null
        if (snapshot === null) throw new Error(`The shared store lost the snapshot of ${options.world}'s epoch ${nextEpoch}`)
        core.restore(JSON.parse(snapshot))
        epoch = nextEpoch
        pets = 0
        // The snapshot brought its own rules: the world's are loaded below, whatever was loaded before.
        faultsText = ''
      }
      const offsetMs = Number(meta.get('clockOffsetMs') ?? '0')
      const frozen = meta.get('clockFrozenAt') ?? ''
      const frozenAt = frozen === '' ? null : Number(frozen)
      if (core.clock.setting.offsetMs !== offsetMs || core.clock.setting.frozenAt !== frozenAt) core.clock.restore({ offsetMs, frozenAt })
      const rulesText = `${faults}${times.join(' ')}`
      if (rulesText !== faultsText && faults !== '') {
        const parsed = JSON.parse(faults) as { nextId: number; rules: FaultRule[] }
        core.faults.load(fleetRules(parsed.rules, times), parsed.nextId)
        faultsText = rulesText
      }
      journal.generations(meta.get('journalVersion') ?? '', meta.get('pactVersion') ?? '', meta.get('coverageVersion') ?? '')
      version = meta.get('version') ?? ''
      life = meta.get('life') ?? ''
    } finally {
      applying = false
    }
    // From the count before the round trip: pets added while it was under way (a createPet's reply) are skipped, not
    // shifted (taking \`pets\` after the await put a pet under the next one's id on a busy instance).
    const from = pets
    const created = (await call('LRANGE', `${prefix}e${epoch}:created`, from, -1)) as string[]
    await applyPets(created, from, from + created.length)
    if (!full) return
    const flatBuckets = (await connection.run(storeScripts.buckets, [metaKey], [prefix, epoch])) as string[]
    core.limiter.load(bucketRecords(flatBuckets))
    await catchUpJournal()
  }

  /**
   * Applies the stream's entries past the copy's, a page at a time: each read within --store-timeout whatever the
   * stream holds (one read of it whole, up to 10,000 entries, kept a new instance from starting once it was large). As
   * many pages as the stream holds entries at most; the journal's tail brings the rest.
   */
  async function catchUpJournal(): Promise<void> {
    const restarts = journal.restarts
    for (let page = 0; page <= options.capacity / journalPage; page++) {
      const entries = (await call('XRANGE', `${prefix}journal`, `(${journal.lastId}`, '+', 'COUNT', journalPage)) as [string, string[]][]
      if (!journal.apply(flattenEntries(entries), restarts) || journal.restarts !== restarts || entries.length < journalPage) return
    }
  }

  /** Adds the created pets a reply carried from `first` on (those this copy lacks), fetching the rest up to `total`. */
  async function applyPets(created: readonly string[], first: number, total: number): Promise<void> {
    const core = options.core()
    if (pets < first) {
      // A gap before what the reply carried: fetched first, so that every pet goes under its own id.
      const from = pets
      await applyPets((await call('LRANGE', `${prefix}e${epoch}:created`, from, first - 1)) as string[], from, first)
    }
    for (let index = pets - first; index < created.length; index++) {
      core.store.create(JSON.parse(created[index]!) as NewPet)
      pets++
    }
    if (pets < total) {
      const from = pets
      const rest = (await call('LRANGE', `${prefix}e${epoch}:created`, from, total - 1)) as string[]
      await applyPets(rest, from, total)
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
    sync(full: boolean): Promise<void> {
      if (syncing !== undefined && !full) return syncing
      const run = (syncing ?? Promise.resolve()).catch(() => {}).then(() => pull(full))
      const current = run.finally(() => {
        if (syncing === current) syncing = undefined
      })
      syncing = current
      return current
    },
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
          await this.sync(true)
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
          if (await publishAll(changes)) {
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
