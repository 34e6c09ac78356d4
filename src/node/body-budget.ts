/**
 * How many bytes of request bodies a server holds in memory at once, across
 * all its connections. Each chunk of a body takes its size as it arrives (a
 * body announcing a megabyte and sending nothing holds nothing, so it cannot
 * make small bodies wait behind it); when the budget is spent the body waits,
 * unread, and Node stops reading its socket (the request's stream is paused),
 * so the client is held back by TCP instead of by memory. Waiting is bounded
 * by the request timeout like any slow request.
 *
 * Why: 200 clients each sending a 1 MiB body (the limit) with a valid key
 * took the CLI from 70 to 491 MiB RSS (`npm run soak -- slow-bodies`), every
 * body in memory at once, most of them twice (chunks, then their concatenation).
 *
 * Fair shares. A body past {@link smallBodyBytes} may use the budget only down
 * to its {@link reserveShare}: the rest is kept for small bodies, which take it
 * first. Without it, 34 clients each holding a 1 MiB body minus one byte spent
 * the whole 32 MiB and held legitimate creates (a few hundred bytes) for up to
 * 27 s, until the request timeout ended the hoarders. Large bodies are granted
 * among themselves in arrival order; small ones never wait behind a large one.
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
  /** The bodies being read, to end them when the server drains ({@link failReads}). */
  readonly #readers = new Map<object, (error: unknown) => void>()

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
   * and nobody of its kind waits before: the function that gives them back,
   * or undefined (then {@link reserve} and wait). The common case, a body
   * arriving while the budget has room, costs no promise.
   */
  take(bytes: number, bodyBytes = bytes): (() => void) | undefined {
    const small = bodyBytes <= smallBodyBytes
    return this.#tryTake(this.#wanted(bytes, small), small)
  }

  /** Registers the body of `request` being read; `fail` ends it with an error. Returns the function that unregisters it. */
  track(request: object, fail: (error: unknown) => void): () => void {
    this.#readers.set(request, fail)
    return () => this.#readers.delete(request)
  }

  /** Ends the body of `request` with `error`, if it is being read; whether it was. */
  failRead(request: object, error: unknown): boolean {
    const fail = this.#readers.get(request)
    fail?.(error)
    return fail !== undefined
  }

  /**
   * Ends every body still being read with `error` (a drain's 503): a client
   * sending its body slowly held a server's exit for the whole grace.
   */
  failReads(error: unknown): void {
    for (const fail of [...this.#readers.values()]) fail(error)
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

  #tryTake(wanted: number, small: boolean): (() => void) | undefined {
    const queued = small ? this.#waitingSmall > 0 : this.#waiting.length > this.#waitingSmall
    if (queued || !this.#fits(wanted, small)) return undefined
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

/** A body that holds at most this much is small: 64 KiB, some hundred times an ordinary createPet body. */
export const smallBodyBytes = 64 * 1024

/** The share of the budget kept for small bodies: an eighth (4 MiB of the default 32 MiB). */
export const reserveShare = 1 / 8
