import { describe, expect, it } from 'vitest'
import { createManualClock, createSimulatorClock, toEpochMilliseconds, type ManualClock } from '../../src/core/clock.ts'
import { parseDuration } from '../../src/core/duration.ts'

const start = Date.parse('2030-01-01T00:00:00Z')
const lastInstant = Date.parse('9999-12-31T23:59:59.999Z')

/** Both in-process clocks a user can move: a manual one, and the simulator's over a source, frozen or running. */
const movableClocks: Array<[string, () => ManualClock]> = [
  ['manual clock', () => createManualClock(start)],
  ['running simulator clock', () => createSimulatorClock(createManualClock(start))],
  [
    'frozen simulator clock',
    () => {
      const clock = createSimulatorClock(createManualClock(start))
      clock.freeze()
      return clock
    },
  ],
]

describe('instants', () => {
  it.each([
    ['1970-01-01T00:00:00Z', 0],
    ['9999-12-31T23:59:59.999Z', lastInstant],
    [0, 0],
    [lastInstant, lastInstant],
    [new Date(start), start],
  ])('accepts %j', (instant, epochMs) => {
    expect(toEpochMilliseconds(instant)).toBe(epochMs)
  })

  it.each([
    ['before 1970', -1],
    ['before 1970, as a string', '1969-12-31T23:59:59.999Z'],
    ['far before 1970', -1e20],
    ['after 9999', lastInstant + 1],
    ['after 9999, as a string', '+010000-01-01T00:00:00Z'],
    ['past what a Date can hold', 8_640_000_000_000_001],
    ['a fraction of a millisecond', 1.5],
    ['not a date', 'tomorrow'],
    ['not a number', Number.NaN],
  ])('refuses an instant %s with a RangeError', (_name, instant) => {
    expect(() => toEpochMilliseconds(instant)).toThrow(RangeError)
  })

  it.each([-1, lastInstant + 1, 8_640_000_000_000_001])('names the range when refusing %j', (instant) => {
    expect(() => toEpochMilliseconds(instant)).toThrow(/outside the clock's range, 1970-01-01T00:00:00\.000Z to 9999-12-31T23:59:59\.999Z/)
  })
})

describe.each(movableClocks)('%s', (_name, makeClock) => {
  it.each([
    ['advance(1e300)', (clock: ManualClock) => clock.advance(1e300)],
    ['advance(-1e20)', (clock: ManualClock) => clock.advance(-1e20)],
    ['advance past the end of 9999', (clock: ManualClock) => clock.advance(lastInstant - start + 1)],
    ['advance back before 1970', (clock: ManualClock) => clock.advance(-start - 1)],
    ['advance(Infinity)', (clock: ManualClock) => clock.advance(Number.POSITIVE_INFINITY)],
    ['advance(NaN)', (clock: ManualClock) => clock.advance(Number.NaN)],
    ['advance(0.5)', (clock: ManualClock) => clock.advance(0.5)],
    ['set(8640000000000001)', (clock: ManualClock) => clock.set(8_640_000_000_000_001)],
    ['set(-1e20)', (clock: ManualClock) => clock.set(-1e20)],
    ['set(1.5)', (clock: ManualClock) => clock.set(1.5)],
  ])('refuses %s with a RangeError and keeps its time', (_move, move) => {
    const clock = makeClock()
    expect(() => move(clock)).toThrow(RangeError)
    expect(clock.now()).toBe(start)
    expect(new Date(clock.now()).toISOString()).toBe('2030-01-01T00:00:00.000Z')
  })

  it('still moves to the first and last instants of the range', () => {
    const clock = makeClock()
    clock.set(lastInstant)
    expect(new Date(clock.now()).toISOString()).toBe('9999-12-31T23:59:59.999Z')
    clock.advance(-lastInstant)
    expect(clock.now()).toBe(0)
  })
})

describe('durations', () => {
  it.each([
    ['10m', 600_000],
    ['1.5s', 1_500],
    ['1.1s', 1_100],
    ['0.001s', 1],
    [1_500, 1_500],
    ['2920000d', 2_920_000 * 86_400_000],
  ])('reads %j as %i ms', (text, milliseconds) => {
    expect(parseDuration(text)).toBe(milliseconds)
  })

  it.each([
    ['longer than the clock range', '100000000d'],
    ['longer than the clock range, in ms', 1e300],
    ['a fraction of a millisecond', 1.5],
    ['a fraction of a millisecond, as text', '1.5ms'],
    ['a fraction of a millisecond, in seconds', '0.0005s'],
  ])('refuses a duration %s', (_name, value) => {
    expect(() => parseDuration(value)).toThrow(RangeError)
  })
})
