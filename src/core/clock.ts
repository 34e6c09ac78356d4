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
 * offset that `advance` and `set` move. Used so that a running simulator's
 * time can be moved (for example through `POST /__sim/clock`) whatever
 * clock it was given.
 *
 * @example
 * const clock = createSimulatorClock(systemClock)
 * clock.advance(86_400_000) // tomorrow, from the simulator's point of view
 */
export interface SimulatorClock extends ManualClock {
  /** Forgets every `advance` and `set`: the clock follows its source again. */
  resetOffset(): void
}

export function createSimulatorClock(source: Clock = systemClock): SimulatorClock {
  let offset = 0
  return {
    now: () => source.now() + offset,
    advance(milliseconds) {
      offset += milliseconds
    },
    set(instant) {
      offset = toEpochMilliseconds(instant) - source.now()
    },
    resetOffset() {
      offset = 0
    },
  }
}
