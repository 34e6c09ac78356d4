import type { RecordedRequest, RecordInput } from '../../core/journal/request-journal.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-options.ts'
import type { StreamRecord } from './store-values.ts'

/**
 * A world's journal fed from the fleet's stream: every instance's entries, this instance's included, go into the
 * local journal in stream order (which is the fleet-wide sequence's order), so filters, `waitFor`, the pact and the
 * coverage see the whole fleet's traffic. An instance's own entries are recorded from what it holds (the exchange as
 * sent), the others' from the stream's copy.
 *
 * A clear of the journal (a reset, `DELETE /__sim/requests`) keeps the stream: each entry carries the world's
 * journal, pact and coverage versions when it was written (its generation), and one written before the journal's
 * last clear feeds only the pact and the coverage, which resets and journal clears keep, as in memory. Deleting the
 * stream instead left an instance that had not read it yet (the one that did not publish the reset) with a pact and
 * coverage of nothing, where memory mode had every request (issue 45).
 */
export interface WorldJournal {
  /** The stream id after which entries are still to be applied (`0`: all). */
  readonly lastId: string
  /** The start of this instance's origin tags (`<instance>:`): the store leaves their payloads out of its replies. */
  readonly ownPrefix: string
  /** Starts a new entry of this instance: its origin tag for the stream, and the promise of its recorded entry. */
  begin(input: RecordInput): { readonly origin: string; readonly recorded: Promise<RecordedRequest>; cancel(error: unknown): void }
  /** How many times the stream was started over: a read sent before is not applied after it. */
  readonly restarts: number
  /**
   * Applies stream entries (decoded and checked by store-values.ts, every one before any is applied) read when
   * {@link restarts} was `restartsAtRead`, skipping those applied already. A read of the stream before it was started
   * over is dropped: applied after it, its entries would move `lastId` past entries of the new stream not yet applied.
   * Stops at an entry of a generation this copy has not reached (a clear or a new epoch it has not synced yet: applied
   * now, the epoch's restore would drop it again) and has the copy brought up to date, which applies the rest: false then.
   */
  apply(records: readonly StreamRecord[], restartsAtRead: number): boolean
  /** After the store's reply: an entry of this instance the stream no longer held (a journal of size 0) is recorded here. */
  settle(origin: string): void
  /**
   * The world's journal, pact and coverage versions as the store holds them ('' for never cleared): each one past this
   * copy's is cleared here, as the instance that made the change cleared its own.
   */
  generations(journal: string, pact: string, coverage: string): void
  /** The stream is a new one (a world the store lost, written again): the next entries start from its beginning. */
  restart(): void
}

export function createWorldJournal(core: () => SimulatorCore, instanceId: string, catchUp: () => Promise<void>): WorldJournal {
  let lastId = '0'
  let restarts = 0
  let counter = 0
  /** The journal, pact and coverage versions this copy has applied. */
  let applied = [0, 0, 0]
  let catchingUp = false
  /** Own entries a deferred read carried (origin -> stream id): recorded from what this instance holds if applied
   * reads move past them without them (another of its own replies, which leave them out). */
  const deferred = new Map<string, string>()
  const pending = new Map<string, { readonly input: RecordInput; resolve(entry: RecordedRequest): void }>()
  const journal = () => core().journal
  const advance = (next: readonly number[]) => {
    if (next[0]! > applied[0]!) journal().clear()
    if (next[1]! > applied[1]!) core().journal.clearPact()
    if (next[2]! > applied[2]!) core().resetCoverage()
    applied = applied.map((version, index) => Math.max(version, next[index]!))
  }
  const settle = (origin: string) => {
    const own = pending.get(origin)
    if (own === undefined) return
    pending.delete(origin)
    own.resolve(journal().record(own.input))
  }
  return {
    get lastId() {
      return lastId
    },
    ownPrefix: `${instanceId}:`,
    get restarts() {
      return restarts
    },
    begin(input) {
      const origin = `${instanceId}:${++counter}`
      let cancel: (error: unknown) => void = () => {}
      const recorded = new Promise<RecordedRequest>((resolve, reject) => {
        pending.set(origin, { input, resolve })
        cancel = (error) => {
          pending.delete(origin)
          deferred.delete(origin)
          reject(error)
        }
      })
      return {
        origin,
        recorded,
        cancel: (error) => cancel(error),
      }
    },
    apply(records, restartsAtRead) {
      if (restartsAtRead !== restarts) return true
      for (let index = 0; index < records.length; index++) {
        const { id, sequence, origin, input, generation } = records[index]!
        if (compareIds(id, lastId) <= 0) continue
        if (generation.some((version, at) => version > applied[at]!)) {
          for (let rest = index; rest < records.length; rest++) {
            const later = records[rest]!
            if (pending.has(later.origin)) deferred.set(later.origin, later.id)
          }
          if (!catchingUp) {
            catchingUp = true
            void catchUp()
              .catch(() => {})
              .finally(() => {
                catchingUp = false
              })
          }
          return false
        }
        lastId = id
        const own = pending.get(origin)
        // An entry of before the journal's last clear feeds the pact and coverage only; one of before theirs, nothing.
        const hold = generation[0] === applied[0]
        const observed = hold || (generation[1] === applied[1] && generation[2] === applied[2])
        if (own !== undefined) {
          pending.delete(origin)
          deferred.delete(origin)
          own.resolve(journal().record(own.input, sequence, hold))
        } else if (input !== undefined && observed) {
          journal().record(input, sequence, hold)
        }
        // else: an entry of this instance's that it gave up waiting for (the store did not answer in time): its answer
        // went without an entry here, as the pipeline says; the other instances list it.
      }
      // Own entries a deferred read carried, which this read moved past without: no read will carry them again.
      for (const [origin, id] of deferred) {
        if (compareIds(id, lastId) > 0) continue
        deferred.delete(origin)
        settle(origin)
      }
      return true
    },
    settle,
    generations(journalVersion, pactVersion, coverageVersion) {
      advance(parseGeneration(`${journalVersion}/${pactVersion}/${coverageVersion}`))
    },
    restart() {
      restarts++
      lastId = '0'
      applied = [0, 0, 0]
      // The new stream holds none of them.
      for (const origin of deferred.keys()) settle(origin)
      deferred.clear()
    },
  }
}

/** An entry's generation, `<journal>/<pact>/<coverage>` versions ('' for 0). */
function parseGeneration(text: unknown): number[] {
  const parts = String(text ?? '').split('/')
  return [0, 1, 2].map((index) => Number(parts[index] ?? '') || 0)
}

/** Stream ids `<ms>-<n>`, compared as numbers. */
function compareIds(a: string, b: string): number {
  const [aMs = 0, aN = 0] = a.split('-').map(Number)
  const [bMs = 0, bN = 0] = b.split('-').map(Number)
  return aMs - bMs || aN - bN
}

/**
 * An entry as the stream holds it: the facts and the exchange, bodies as text (the request's in base64), each cut to
 * `bodyCap` bytes as the journal keeps it (`journalBodyCapBytes`), with its size as sent: a request's body may be as
 * large as --body-limit, and large createPets kept whole took Redis's memory far past the journal's (issue 45;
 * test/bench/HISTORY.md, "Figures moved out of source comments").
 */
export function encodeEntry(input: RecordInput, bodyCap: number): string {
  const { exchange } = input
  const request = exchange.requestBody
  const response = exchange.responseBody
  const cutResponse = response === undefined ? undefined : cutText(response, bodyCap)
  return JSON.stringify({
    a: input.atMs,
    m: input.method,
    p: input.path,
    s: input.status,
    o: input.operation,
    c: input.caller,
    l: input.plan,
    d: input.durationMs,
    f: input.forced,
    r: input.fault,
    rf: input.refused,
    h: exchange.rawHeaders,
    q:
      request === undefined
        ? undefined
        : Buffer.from(request.buffer, request.byteOffset, Math.min(request.byteLength, bodyCap)).toString('base64'),
    qn: request !== undefined && request.byteLength > bodyCap ? request.byteLength : undefined,
    x: exchange.responseHeaders,
    b: cutResponse?.text,
    bn: cutResponse?.size,
  })
}

/** A text cut to its first whole characters within `cap` bytes of UTF-8, with its size when it was cut. */
function cutText(text: string, cap: number): { readonly text: string; readonly size?: number } {
  // At most 3 bytes per UTF-16 unit: no cut, nothing measured.
  if (text.length * 3 <= cap) return { text }
  const size = Buffer.byteLength(text)
  if (size <= cap) return { text }
  // encodeInto writes whole characters only: `read` units of the text fit.
  const { read } = new TextEncoder().encodeInto(text, new Uint8Array(cap))
  return { text: text.slice(0, read), size }
}
