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
 * Reservations are granted in arrival order. One server, one budget: no
 * module-level state.
 */
export class BodyBudget {
  readonly #total: number
  #available: number
  readonly #waiting: Array<{ readonly bytes: number; readonly grant: () => void }> = []

  constructor(totalBytes: number) {
    this.#total = totalBytes
    this.#available = totalBytes
  }

  /**
   * Reserves `bytes` (at most the whole budget, so that one body larger than
   * the budget can still be read, alone). Resolves with the function that
   * gives them back; `cancel` withdraws a reservation still waiting.
   */
  reserve(bytes: number): { granted: Promise<() => void>; cancel(): void } {
    const wanted = Math.min(bytes, this.#total)
    let released = false
    const release = () => {
      if (released) return
      released = true
      this.#available += wanted
      this.#grantWaiting()
    }
    if (this.#waiting.length === 0 && this.#available >= wanted) {
      this.#available -= wanted
      return { granted: Promise.resolve(release), cancel: release }
    }
    let entry!: { readonly bytes: number; readonly grant: () => void }
    let granted = false
    const promise = new Promise<() => void>((resolve) => {
      entry = {
        bytes: wanted,
        grant: () => {
          granted = true
          resolve(release)
        },
      }
    })
    this.#waiting.push(entry)
    return {
      granted: promise,
      cancel: () => {
        if (granted) {
          release()
          return
        }
        const index = this.#waiting.indexOf(entry)
        if (index !== -1) this.#waiting.splice(index, 1)
        this.#grantWaiting()
      },
    }
  }

  /**
   * Takes `bytes` now if they are free and nobody waits before: the function
   * that gives them back, or undefined (then {@link reserve} and wait). The
   * common case, a body arriving while the budget has room, costs no promise.
   */
  take(bytes: number): (() => void) | undefined {
    const wanted = Math.min(bytes, this.#total)
    if (this.#waiting.length > 0 || this.#available < wanted) return undefined
    this.#available -= wanted
    let released = false
    return () => {
      if (released) return
      released = true
      this.#available += wanted
      this.#grantWaiting()
    }
  }

  /** Bytes not reserved now (for tests and diagnostics). */
  get available(): number {
    return this.#available
  }

  #grantWaiting(): void {
    while (this.#waiting.length > 0 && this.#available >= this.#waiting[0]!.bytes) {
      const entry = this.#waiting.shift()!
      this.#available -= entry.bytes
      entry.grant()
    }
  }
}
