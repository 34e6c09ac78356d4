import type { RecordedRequest, RecordInput, RequestJournal } from '../../core/journal/request-journal.ts'
import type { StreamRecord } from './store-values.ts'

/**
 * A world's journal fed from the fleet's stream: every instance's entries, this instance's included, go into the
 * local journal in stream order (which is the fleet-wide sequence's order), so filters, `waitFor`, the pact and the
 * coverage see the whole fleet's traffic. An instance's own entries are recorded from what it holds (the exchange as
 * sent), the others' from the stream's copy.
 */
export interface WorldJournal {
  /** The stream id after which entries are still to be applied (`0`: all). */
  readonly lastId: string
  /** The start of this instance's origin tags (`<instance>:`): the store leaves their payloads out of its replies. */
  readonly ownPrefix: string
  /** Starts a new entry of this instance: its origin tag for the stream, and the promise of its recorded entry. */
  begin(input: RecordInput): { readonly origin: string; readonly recorded: Promise<RecordedRequest>; cancel(error: unknown): void }
  /** How many times the stream was cleared: a read sent before a clear is not applied after it. */
  readonly restarts: number
  /**
   * Applies stream entries (decoded and checked by store-values.ts, every one before any is applied) read when
   * {@link restarts} was `restartsAtRead`, skipping those applied already. A read of the stream before it was cleared is dropped: applied after the clear, its
   * entries would move `lastId` past entries of the new stream not yet applied.
   */
  apply(records: readonly StreamRecord[], restartsAtRead: number): void
  /** After the store's reply: an entry of this instance the stream no longer held (a journal of size 0) is recorded here. */
  settle(origin: string): void
  /** The stream was cleared (a journal clear, a new epoch): the next entries start from the stream's beginning. */
  restart(): void
}

export function createWorldJournal(journal: () => RequestJournal, instanceId: string): WorldJournal {
  let lastId = '0'
  let restarts = 0
  let counter = 0
  const pending = new Map<string, { readonly input: RecordInput; resolve(entry: RecordedRequest): void }>()
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
      if (restartsAtRead !== restarts) return
      for (const { id, sequence, origin, input } of records) {
        if (compareIds(id, lastId) <= 0) continue
        lastId = id
        const own = pending.get(origin)
        if (own !== undefined) {
          pending.delete(origin)
          own.resolve(journal().record(own.input, sequence))
        } else if (input !== undefined) {
          journal().record(input, sequence)
        }
        // else: an entry of this instance's that it gave up waiting for (the store did not answer in time): its answer
        // went without an entry here, as the pipeline says; the other instances list it.
      }
    },
    settle(origin) {
      const own = pending.get(origin)
      if (own === undefined) return
      pending.delete(origin)
      own.resolve(journal().record(own.input))
    },
    restart() {
      restarts++
      lastId = '0'
    },
  }
}

/** Stream ids `<ms>-<n>`, compared as numbers. */
function compareIds(a: string, b: string): number {
  const [aMs = 0, aN = 0] = a.split('-').map(Number)
  const [bMs = 0, bN = 0] = b.split('-').map(Number)
  return aMs - bMs || aN - bN
}

/** An entry as the stream holds it: the facts and the exchange, bodies as text (the request's in base64); read back by store-values.ts. */
export function encodeEntry(input: RecordInput): string {
  const { exchange } = input
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
    h: exchange.rawHeaders,
    q: exchange.requestBody === undefined ? undefined : Buffer.from(exchange.requestBody).toString('base64'),
    x: exchange.responseHeaders,
    b: exchange.responseBody,
  })
}
