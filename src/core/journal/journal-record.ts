import type { CapturedExchange } from './journal-exchange.ts'
import type { RecordedRequest, RecordInput } from './journal-types.ts'

// Why a class and not an object literal (issue 47, cause 1): an entry lives about one scavenge interval (the journal
// holds 1,000), so V8's allocation-site pretenuring learns that the literal's site survives and starts allocating
// every entry in the old generation; a dead entry then keeps the young objects it refers to (its headers, body and
// answer) alive through every scavenge, promoted, until a full collection. A constructor's instances are allocated
// without an allocation-site memento, so V8 never pretenures them (test/bench/HISTORY.md has the A/B).

/** A journal entry as {@link RecordedRequest} describes it, frozen. */
export class JournalRecord implements RecordedRequest {
  readonly sequence: number
  readonly atMs: number
  readonly wallMs: number
  readonly method: string
  readonly path: string
  readonly status: number
  readonly operation: string
  readonly caller: string
  readonly plan: string
  readonly durationMs: number
  readonly forced: true | undefined
  readonly fault: string | undefined
  readonly refused: true | undefined
  readonly exchange: CapturedExchange | undefined

  constructor(input: RecordInput, sequence: number, wallMs: number, exchange: CapturedExchange | undefined) {
    this.sequence = sequence
    this.atMs = input.atMs
    this.wallMs = wallMs
    this.method = input.method
    this.path = input.path
    this.status = input.status
    this.operation = input.operation
    this.caller = input.caller
    this.plan = input.plan
    this.durationMs = input.durationMs
    this.forced = input.forced
    this.fault = input.fault
    this.refused = input.refused
    this.exchange = exchange
    Object.freeze(this)
  }
}
