import { ApiError } from '../core/http/api-error.ts'

/**
 * How many bytes of request bodies a server holds in memory at once, across
 * all its connections. Each chunk of a body takes its size as it arrives (a
 * body announcing a megabyte and sending nothing holds nothing, so it cannot
 * make small bodies wait behind it); when the budget is spent the body waits,
 * unread, and Node stops reading its socket (the request's stream is paused),
 * so the client is held back by TCP instead of by memory. Waiting is bounded
 * by the request timeout like any slow request.
 *
 * Why: many clients each sending a body at the limit with a valid key held
 * every body in memory at once, most of them twice (chunks, then their
 * concatenation): `npm run soak -- slow-bodies`, whose RSS is in
 * test/bench/HISTORY.md, "Figures moved out of source comments".
 *
 * Fair shares. A body past {@link smallBodyBytes} may use the budget only down
 * to its {@link reserveShare}: the rest is kept for small bodies, which take it
 * first. Without it, 34 clients each holding a 1 MiB body minus one byte spent
 * the whole 32 MiB and held legitimate creates (a few hundred bytes) until the
 * request timeout ended the hoarders. Large bodies are granted among
 * themselves in arrival order; small ones never wait behind a large one.
 *
 * One server, one budget: no module-level state.
 */
export class BodyBudget {
  readonly #total: number
  /** Bytes only small bodies may take. */
  readonly #reserve: number
  #available: number
  readonly #waiting: Array<{ readonly bytes: number; readonly small: boolean; readonly grant: () => void }> = []
  #waitingSmall = 0
  /** The bodies being read, to end them when the server drains ({@link failReads}) or when they stall. */
  readonly #readers = new Map<object, BodyReader>()
  /** Counts the sweeper's ticks: when each body last heard a byte, without a clock. */
  #tick = 0
  #sweeper: ReturnType<typeof setInterval> | undefined

  /** How long a body being read may go without a byte before it is ended with a 408 (0: no limit); see `request-body.ts`. */
  readonly idleTimeoutMs: number

  constructor(totalBytes: number, idleTimeoutMs = 0) {
    this.idleTimeoutMs = idleTimeoutMs
    this.#total = totalBytes
    this.#reserve = Math.floor(totalBytes * reserveShare)
    this.#available = totalBytes
  }

  /**
   * Reserves `bytes` for a body of `bodyBytes` (its declared length, or what
   * arrived so far with this chunk, whichever is larger; at most the
   * share it may use, so that one body larger than the budget can still be
   * read, alone). Resolves with the function that gives them back; `cancel`
   * withdraws a reservation still waiting.
   */
  reserve(bytes: number, bodyBytes = bytes): { granted: Promise<() => void>; cancel(): void } {
    const small = bodyBytes <= smallBodyBytes
    const wanted = this.#wanted(bytes, small)
    const immediate = this.#tryTake(wanted, small)
    if (immediate !== undefined) return { granted: Promise.resolve(immediate), cancel: immediate }
    let release: (() => void) | undefined
    let entry!: { readonly bytes: number; readonly small: boolean; readonly grant: () => void }
    const promise = new Promise<() => void>((resolve) => {
      entry = {
        bytes: wanted,
        small,
        grant: () => {
          release = this.#releaser(wanted)
          resolve(release)
        },
      }
    })
    this.#waiting.push(entry)
    if (small) this.#waitingSmall++
    return {
      granted: promise,
      cancel: () => {
        if (release !== undefined) {
          release()
          return
        }
        const index = this.#waiting.indexOf(entry)
        if (index !== -1) {
          this.#waiting.splice(index, 1)
          if (small) this.#waitingSmall--
        }
        this.#grantWaiting()
      },
    }
  }

  /**
   * Takes `bytes` now, for a body of `bodyBytes` (as for {@link reserve}), if they are free
   * and nobody of its kind waits before: how many bytes were taken, to give back
   * with {@link giveBack}, or -1 (then {@link reserve} and wait). The common case,
   * a body arriving while the budget has room, costs no promise and no closure.
   */
  take(bytes: number, bodyBytes = bytes): number {
    const small = bodyBytes <= smallBodyBytes
    const wanted = this.#wanted(bytes, small)
    if (!this.#canTake(wanted, small)) return -1
    this.#available -= wanted
    return wanted
  }

  /** Gives back bytes {@link take} took. */
  giveBack(bytes: number): void {
    if (bytes === 0) return
    this.#available += bytes
    this.#grantWaiting()
  }

  /**
   * Registers the body of `request` being read; `fail` ends it with an error. The reader it returns is marked by the
   * body as bytes arrive ({@link BodyReader.heard}) and handed back to {@link untrack} when the body is read.
   */
  track(request: object, fail: (error: unknown) => void): BodyReader {
    const reader: BodyReader = { fail, heardAt: this.#tick, waiting: 0 }
    this.#readers.set(request, reader)
    if (this.idleTimeoutMs > 0 && this.#sweeper === undefined) this.#startSweeping()
    return reader
  }

  /** Forgets a body that is read (or refused). */
  untrack(request: object): void {
    this.#readers.delete(request)
  }

  /** Marks a byte of a body as heard now: one store, no clock read and no timer per chunk. */
  heard(reader: BodyReader): void {
    reader.heardAt = this.#tick
  }

  /** Ends the body of `request` with `error`, if it is being read; whether it was. */
  failRead(request: object, error: unknown): boolean {
    const reader = this.#readers.get(request)
    reader?.fail(error)
    return reader !== undefined
  }

  /**
   * Ends every body still being read with `error` (a drain's 503): a client
   * sending its body slowly held a server's exit for the whole grace.
   */
  failReads(error: unknown): void {
    for (const reader of [...this.#readers.values()]) reader.fail(error)
  }

  /**
   * The minimum data rate, for every body at once: one timer per server, a tick each quarter of
   * {@link idleTimeoutMs}, instead of a timer armed and cleared on every chunk of every body (two `setTimeout`s and
   * two `clearTimeout`s per createPet, a share of its CPU that `npm run bench`'s profile showed). A body that has
   * heard no byte for four ticks, and is not waiting for the budget (not the client's doing), ends with a 408: after
   * between {@link idleTimeoutMs} and 1.25 times it. The timer stops when no body is being read and keeps no process
   * alive. Kept after issue 38's A/B against a timer per body (`setTimeout`, refreshed per chunk), which allocated
   * more a createPet and cost the server more CPU (test/bench/HISTORY.md, "Figures moved out of source comments").
   * Node's own socket timeout is no replacement: it would end bodies the budget paused.
   */
  #startSweeping(): void {
    const sweeper = setInterval(
      () => {
        this.#tick++
        if (this.#readers.size === 0) {
          clearInterval(sweeper)
          this.#sweeper = undefined
          return
        }
        for (const reader of [...this.#readers.values()]) {
          if (reader.waiting > 0) reader.heardAt = this.#tick
          else if (this.#tick - reader.heardAt >= idleTicks) reader.fail(bodyStalled(this.idleTimeoutMs))
        }
      },
      Math.max(1, Math.floor(this.idleTimeoutMs / idleTicks)),
    )
    sweeper.unref()
    this.#sweeper = sweeper
  }

  /** Bytes not reserved now (for tests and diagnostics). */
  get available(): number {
    return this.#available
  }

  #wanted(bytes: number, small: boolean): number {
    return Math.min(bytes, small ? this.#total : this.#total - this.#reserve)
  }

  #fits(bytes: number, small: boolean): boolean {
    return this.#available - (small ? 0 : this.#reserve) >= bytes
  }

  #canTake(wanted: number, small: boolean): boolean {
    const queued = small ? this.#waitingSmall > 0 : this.#waiting.length > this.#waitingSmall
    return !queued && this.#fits(wanted, small)
  }

  #tryTake(wanted: number, small: boolean): (() => void) | undefined {
    if (!this.#canTake(wanted, small)) return undefined
    this.#available -= wanted
    return this.#releaser(wanted)
  }

  #releaser(wanted: number): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      this.#available += wanted
      this.#grantWaiting()
    }
  }

  /** Waiting reservations in arrival order, each kind while it fits: a large one that does not fit stops only large ones. */
  #grantWaiting(): void {
    let smallBlocked = false
    let largeBlocked = false
    for (let index = 0; index < this.#waiting.length && !(smallBlocked && largeBlocked); ) {
      const entry = this.#waiting[index]!
      const blocked = entry.small ? smallBlocked : largeBlocked
      if (!blocked && this.#fits(entry.bytes, entry.small)) {
        this.#waiting.splice(index, 1)
        if (entry.small) this.#waitingSmall--
        this.#available -= entry.bytes
        entry.grant()
        continue
      }
      if (entry.small) smallBlocked = true
      else largeBlocked = true
      index++
    }
  }
}

/** What the budget knows of a body being read. */
export interface BodyReader {
  readonly fail: (error: unknown) => void
  /** The sweeper's tick when the body last heard a byte. */
  heardAt: number
  /** Chunks of the body waiting for the budget: the body is not idle meanwhile. */
  waiting: number
}

/** Ticks of the sweeper per `idleTimeoutMs`: a stalled body is ended after between 4 and 5 ticks of silence. */
const idleTicks = 4

/** The 408 of a body that stalled: no byte for `idleMs`. The connection is closed, as the rest of the body would still come. */
export function bodyStalled(idleMs: number): ApiError {
  return new ApiError('request_timeout', `The request body stalled: no byte for ${idleMs} ms`, { Connection: 'close' })
}

/** A body that holds at most this much is small: 64 KiB, some hundred times an ordinary createPet body. */
export const smallBodyBytes = 64 * 1024

/** The share of the budget kept for small bodies: an eighth (4 MiB of the default 32 MiB). */
export const reserveShare = 1 / 8
