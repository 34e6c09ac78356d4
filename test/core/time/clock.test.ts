import { describe, expect, it } from 'vitest'
import { createManualClock, createSimulatorClock, toEpochMilliseconds, type ManualClock } from '../../../src/core/time/clock.ts'
import { parseDuration } from '../../../src/core/time/duration.ts'

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
    ['the first instant, 1970-01-01', 0, -1],
    ['the first instant, as text', '1970-01-01T00:00:00Z', '1969-12-31T23:59:59.999Z'],
    ['the last instant, 9999-12-31T23:59:59.999Z', lastInstant, lastInstant + 1],
    ['the last instant, as text', '9999-12-31T23:59:59.999Z', '+010000-01-01T00:00:00Z'],
  ])('accepts %s and refuses 1 ms beyond it with a RangeError naming the range', (_edge, inside, outside) => {
    expect(toEpochMilliseconds(inside)).toBe(typeof inside === 'number' ? inside : Date.parse(inside))
    expect(() => toEpochMilliseconds(outside)).toThrow(RangeError)
    expect(() => toEpochMilliseconds(outside)).toThrow(/outside the clock's range, 1970-01-01T00:00:00\.000Z to 9999-12-31T23:59:59\.999Z/)
  })

  it.each([
    ['far before 1970', -1e20],
    ['past what a Date can hold', 8_640_000_000_000_001],
    ['a fraction of a millisecond', 1.5],
  ])('refuses an instant %s with a RangeError', (_name, instant) => {
    expect(() => toEpochMilliseconds(instant)).toThrow(RangeError)
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

  it('moves to the last instant of the range, then refuses 1 ms more', () => {
    const clock = makeClock()
    clock.set(lastInstant)
    expect(new Date(clock.now()).toISOString()).toBe('9999-12-31T23:59:59.999Z')
    expect(() => clock.advance(1)).toThrow(RangeError)
    expect(clock.now()).toBe(lastInstant)
    clock.advance(-lastInstant)
    expect(clock.now()).toBe(0)
    expect(() => clock.advance(-1)).toThrow(RangeError)
    expect(clock.now()).toBe(0)
  })
})

describe('durations', () => {
  it.each([
    ['2920000d', 2_920_000 * 86_400_000, '100000000d'],
    [1_500, 1_500, 1e300],
    [1_500, 1_500, 1.5],
    ['1.5s', 1_500, '1.5ms'],
    ['0.001s', 1, '0.0005s'],
  ])('reads %j as %i ms, and refuses %j (longer than the clock range, or a fraction of a ms)', (valid, milliseconds, invalid) => {
    expect(parseDuration(valid)).toBe(milliseconds)
    expect(() => parseDuration(invalid)).toThrow(RangeError)
  })

  it('computes decimals exactly rather than rounding them', () => {
    // 1.1 * 1000 is 1100.0000000000002 in floating point; 1.0000001s is 1000.0001 ms.
    expect(parseDuration('1.1s')).toBe(1_100)
    expect(() => parseDuration('1.0000001s')).toThrow(/not a whole number of milliseconds/)
  })
})
