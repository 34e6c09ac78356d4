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
 * The first instant the simulator's clock may show: 1970-01-01T00:00:00.000Z.
 * Not earlier, because `X-RateLimit-Reset` is Unix seconds and must be a
 * non-negative integer (`minimum: 0` in fixtures/openapi.yaml), and because
 * window starts computed with `%` would fall after `now` for negative times.
 */
export const earliestInstant = 0

/**
 * The last instant the simulator's clock may show: 9999-12-31T23:59:59.999Z,
 * well inside what a `Date` holds (±8.64e15 ms), so `toISOString()` (the
 * journal, `/__sim/clock`) never throws and keeps its four-digit year, and the
 * `Sunset` HTTP-date keeps the four-digit year its grammar requires
 * (RFC 9110, 5.6.7). A running simulator clock moved to this instant keeps
 * running past it by the real time elapsed, still far inside `Date`'s range.
 */
export const latestInstant = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/** The longest distance between two instants of the range, in ms: any longer move leaves it. */
export const longestDurationMs = latestInstant - earliestInstant

const rangeText = `${new Date(earliestInstant).toISOString()} to ${new Date(latestInstant).toISOString()}`

/**
 * Converts an {@link Instant} to epoch milliseconds.
 * Throws a `RangeError` on a string that is not a valid date, and on an
 * instant outside 1970-01-01T00:00:00.000Z..9999-12-31T23:59:59.999Z (see
 * {@link earliestInstant}, {@link latestInstant}). A number must be a whole
 * number of milliseconds: a fraction is refused rather than rounded, as a
 * `Date` would silently truncate it and the simulator never rounds input
 * silently (compare `limit=1.5`, a 400).
 */
export function toEpochMilliseconds(instant: Instant): number {
  const value = instant instanceof Date ? instant.getTime() : typeof instant === 'string' ? Date.parse(instant) : instant
  if (!Number.isFinite(value)) {
    throw new RangeError(`Not a valid instant: ${String(instant)}`)
  }
  return checkedInstant(value, `The instant ${String(instant)}`)
}

/** Whether `value` is an instant of the clock's range: a whole number of ms from {@link earliestInstant} to {@link latestInstant}. */
export function isInstant(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= earliestInstant && (value as number) <= latestInstant
}

/** `value` if it is a whole number of ms in the clock's range; a `RangeError` starting with `what` otherwise. */
function checkedInstant(value: number, what: string): number {
  if (!Number.isInteger(value)) {
    throw new RangeError(`${what} is not a whole number of milliseconds`)
  }
  if (value < earliestInstant || value > latestInstant) {
    throw new RangeError(`${what} is outside the clock's range, ${rangeText}`)
  }
  return value
}

/** A whole, finite number of ms to move a clock by (negative moves it back). */
function checkedMove(milliseconds: number): number {
  if (!Number.isInteger(milliseconds)) {
    throw new RangeError(`Cannot advance the clock by ${milliseconds} ms: not a whole number of milliseconds`)
  }
  return milliseconds
}

/** The instant `from + milliseconds`, refused (`RangeError`) when it leaves the clock's range. */
function advanced(from: number, milliseconds: number): number {
  const start = Number.isInteger(from) && Math.abs(from) <= 8.64e15 ? new Date(from).toISOString() : `${from} ms`
  return checkedInstant(from + checkedMove(milliseconds), `Advancing the clock by ${milliseconds} ms from ${start}`)
}

/**
 * A clock that can be moved by hand. Time stands still between calls.
 * A move that would leave 1970-01-01..9999-12-31 (UTC), or that is not a whole
 * number of milliseconds, throws a `RangeError` and leaves the clock where it was.
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
      current = advanced(current, milliseconds)
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
  /** @internal Forgets every `advance`, `set` and `freeze` (the simulator's `reset()`): the clock follows its source again. */
  resetOffset(): void
  /** What the clock adds to its source, in ms (while running), and where it stands while frozen. */
  readonly setting: ClockSetting
  /** @internal Puts back a {@link ClockSetting} read earlier (a restored snapshot); checked against the clock's range first. */
  restore(setting: ClockSetting): void
  /** @internal Throws the `RangeError` {@link restore} would for this setting, changing nothing: a restore checks everything before it starts. */
  checkSetting(setting: ClockSetting): void
}

/** A simulator clock's own state: its offset from the source, and the instant it is frozen at, if it is. */
export interface ClockSetting {
  readonly offsetMs: number
  readonly frozenAt: number | null
}

/** @param onChange called after every successful move, freeze, unfreeze or reset of the offset. */
export function createSimulatorClock(source: Clock = systemClock, onChange?: () => void): SimulatorClock {
  let offset = 0
  let frozenAt: number | undefined
  // Called after each move that succeeded (a refused one throws first): the simulator's events.
  const changed = onChange ?? (() => {})
  const checkSetting = (setting: ClockSetting) => {
    if (setting.frozenAt !== null) checkedInstant(setting.frozenAt, `The frozen instant ${setting.frozenAt}`)
    else advanced(source.now(), setting.offsetMs)
  }
  return {
    now: () => frozenAt ?? source.now() + offset,
    advance(milliseconds) {
      // Checked against the time shown now, before anything changes.
      if (frozenAt === undefined) {
        const now = source.now()
        offset = advanced(now + offset, milliseconds) - now
      } else {
        frozenAt = advanced(frozenAt, milliseconds)
      }
      changed()
    },
    set(instant) {
      const target = toEpochMilliseconds(instant)
      if (frozenAt === undefined) offset = target - source.now()
      else frozenAt = target
      changed()
    },
    freeze() {
      frozenAt ??= source.now() + offset
      changed()
    },
    unfreeze() {
      if (frozenAt === undefined) return
      offset = frozenAt - source.now()
      frozenAt = undefined
      changed()
    },
    get frozen() {
      return frozenAt !== undefined
    },
    resetOffset() {
      offset = 0
      frozenAt = undefined
      changed()
    },
    get setting() {
      return { offsetMs: offset, frozenAt: frozenAt ?? null }
    },
    checkSetting,
    restore(setting) {
      checkSetting(setting)
      offset = setting.offsetMs
      frozenAt = setting.frozenAt ?? undefined
      changed()
    },
  }
}
