/**
 * A source of the current time, in milliseconds since the Unix epoch.
 * Everything time-dependent in the simulator (rate-limit windows, bans,
 * the getPet sunset) reads time through a `Clock`, never from `Date.now()`.
 *
 * @example
 * const clock: Clock = { now: () => Date.UTC(2030, 0, 1) }
 */
export interface Clock {
  now(): number
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => Date.now() }

/** Anything that names an instant: epoch milliseconds, a `Date` or an ISO 8601 string. */
export type Instant = number | Date | string

/**
 * Converts an {@link Instant} to epoch milliseconds.
 * Throws a `RangeError` on a string that is not a valid date.
 */
export function toEpochMilliseconds(instant: Instant): number {
  const value = instant instanceof Date ? instant.getTime() : typeof instant === 'string' ? Date.parse(instant) : instant
  if (!Number.isFinite(value)) {
    throw new RangeError(`Not a valid instant: ${String(instant)}`)
  }
  return value
}

/**
 * A clock that can be moved by hand. Time stands still between calls.
 *
 * @example
 * const clock = createManualClock('2030-01-01T00:00:00Z')
 * clock.advance(60_000) // one minute later
 */
export interface ManualClock extends Clock {
  /** Moves the clock forward (or back, with a negative value) by `milliseconds`. */
  advance(milliseconds: number): void
  /** Sets the clock to an instant. */
  set(instant: Instant): void
}

export function createManualClock(start: Instant = 0): ManualClock {
  let current = toEpochMilliseconds(start)
  return {
    now: () => current,
    advance(milliseconds) {
      current += milliseconds
    },
    set(instant) {
      current = toEpochMilliseconds(instant)
    },
  }
}

/**
 * The simulator's own clock: a source clock (real time by default) plus an
 * offset that `advance` and `set` move. It can also be frozen, so that time
 * stands still until moved (for deterministic tests against a running
 * server). Used so that a running simulator's time can be moved (for
 * example through `POST /__sim/clock`) whatever clock it was given.
 *
 * @example
 * const clock = createSimulatorClock(systemClock)
 * clock.advance(86_400_000) // tomorrow, from the simulator's point of view
 * clock.freeze() // time stands still until advanced or set
 */
export interface SimulatorClock extends ManualClock {
  /** Stops time where it is: `now()` changes only through `advance` and `set`. */
  freeze(): void
  /** Lets time run again from where it stands. */
  unfreeze(): void
  readonly frozen: boolean
  /** Forgets every `advance`, `set` and `freeze`: the clock follows its source again. */
  resetOffset(): void
}

export function createSimulatorClock(source: Clock = systemClock): SimulatorClock {
  let offset = 0
  let frozenAt: number | undefined
  return {
    now: () => frozenAt ?? source.now() + offset,
    advance(milliseconds) {
      if (frozenAt === undefined) offset += milliseconds
      else frozenAt += milliseconds
    },
    set(instant) {
      const target = toEpochMilliseconds(instant)
      if (frozenAt === undefined) offset = target - source.now()
      else frozenAt = target
    },
    freeze() {
      frozenAt ??= source.now() + offset
    },
    unfreeze() {
      if (frozenAt === undefined) return
      offset = frozenAt - source.now()
      frozenAt = undefined
    },
    get frozen() {
      return frozenAt !== undefined
    },
    resetOffset() {
      offset = 0
      frozenAt = undefined
    },
  }
}
