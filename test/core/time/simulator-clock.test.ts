import { describe, expect, it } from 'vitest'
import {
  createManualClock,
  createSimulatorClock,
  earliestInstant,
  isInstant,
  latestInstant,
  toEpochMilliseconds,
} from '../../../src/core/time/clock.ts'

// The simulator's clock (docs/in-process.md, `simulator.clock`; `POST /__sim/clock`): a source clock plus an offset
// that advance and set move; frozen, time stands still until moved; reset, it follows its source again. Every change
// that succeeded is reported (the dashboard's events), a refused one is not.

const start = Date.parse('2030-01-01T00:00:00Z')

function clockOverSource() {
  const source = createManualClock(start)
  const changes: number[] = []
  const clock = createSimulatorClock(source, () => changes.push(clock.now()))
  return { source, clock, changes }
}

describe('createSimulatorClock', () => {
  it('follows its source while running, moved by advance and set', () => {
    const { source, clock, changes } = clockOverSource()
    expect(clock.frozen).toBe(false)
    expect(clock.now()).toBe(start)
    source.advance(1000)
    expect(clock.now()).toBe(start + 1000)
    clock.advance(60_000)
    expect(clock.now()).toBe(start + 61_000)
    source.advance(1000)
    expect(clock.now()).toBe(start + 62_000)
    clock.set('2031-01-01T00:00:00Z')
    expect(clock.now()).toBe(Date.parse('2031-01-01T00:00:00Z'))
    source.advance(5)
    expect(clock.now()).toBe(Date.parse('2031-01-01T00:00:00.005Z'))
    expect(clock.setting).toEqual({ offsetMs: Date.parse('2031-01-01T00:00:00Z') - (start + 2000), frozenAt: null })
    expect(changes).toEqual([start + 61_000, Date.parse('2031-01-01T00:00:00Z')])
  })

  it('stands still when frozen, moves only by advance and set, and runs on from there when unfrozen', () => {
    const { source, clock, changes } = clockOverSource()
    source.advance(500)
    clock.freeze()
    expect(clock.frozen).toBe(true)
    source.advance(10_000)
    expect(clock.now()).toBe(start + 500)
    expect(clock.setting).toEqual({ offsetMs: 0, frozenAt: start + 500 })
    clock.advance(1500)
    expect(clock.now()).toBe(start + 2000)
    clock.set(start + 3000)
    expect(clock.now()).toBe(start + 3000)
    // Freezing a frozen clock keeps it where it stands.
    clock.freeze()
    expect(clock.now()).toBe(start + 3000)
    clock.unfreeze()
    expect(clock.frozen).toBe(false)
    expect(clock.now()).toBe(start + 3000)
    source.advance(250)
    expect(clock.now()).toBe(start + 3250)
    expect(changes).toEqual([start + 500, start + 2000, start + 3000, start + 3000, start + 3000])
  })

  it('does nothing, and reports nothing, when unfrozen while running', () => {
    const { source, clock, changes } = clockOverSource()
    clock.advance(100)
    clock.unfreeze()
    source.advance(1)
    expect(clock.now()).toBe(start + 101)
    expect(changes).toEqual([start + 100])
  })

  it('forgets every move and freeze on resetOffset: it follows its source again', () => {
    const { source, clock, changes } = clockOverSource()
    clock.advance(86_400_000)
    clock.freeze()
    clock.resetOffset()
    expect(clock.frozen).toBe(false)
    expect(clock.setting).toEqual({ offsetMs: 0, frozenAt: null })
    source.advance(7)
    expect(clock.now()).toBe(start + 7)
    expect(changes).toHaveLength(3)
  })

  it('reports no refused move, and keeps its time', () => {
    const { clock, changes } = clockOverSource()
    expect(() => clock.advance(0.5)).toThrow(/^Cannot advance the clock by 0\.5 ms: not a whole number of milliseconds$/)
    expect(() => clock.set('not a date')).toThrow(/^Not a valid instant: not a date$/)
    expect(() => clock.advance(-start - 1)).toThrow(
      /^Advancing the clock by -\d+ ms from 2030-01-01T00:00:00\.000Z is outside the clock's range, 1970-01-01T00:00:00\.000Z to 9999-12-31T23:59:59\.999Z$/,
    )
    expect(clock.now()).toBe(start)
    expect(changes).toEqual([])
  })

  it('puts back a setting read earlier, running or frozen, checking it first', () => {
    const { source, clock, changes } = clockOverSource()
    clock.advance(1000)
    const running = clock.setting
    clock.freeze()
    const frozen = clock.setting
    clock.resetOffset()

    clock.restore(frozen)
    source.advance(99)
    expect(clock.frozen).toBe(true)
    expect(clock.now()).toBe(start + 1000)
    clock.restore(running)
    expect(clock.frozen).toBe(false)
    expect(clock.now()).toBe(start + 1099)
    expect(changes).toHaveLength(5)

    const outside = { offsetMs: -start - 1000, frozenAt: null }
    expect(() => clock.checkSetting(outside)).toThrow(RangeError)
    expect(() => clock.restore(outside)).toThrow(RangeError)
    expect(() => clock.restore({ offsetMs: 0, frozenAt: 1.5 })).toThrow(/^The frozen instant 1\.5 is not a whole number of milliseconds$/)
    expect(() => clock.checkSetting({ offsetMs: 0, frozenAt: -1 })).toThrow(/^The frozen instant -1 is outside the clock's range/)
    expect(() => clock.checkSetting({ offsetMs: 0.5, frozenAt: null })).toThrow(/not a whole number of milliseconds/)
    // Refused: nothing changed, nothing reported.
    expect(clock.now()).toBe(start + 1099)
    expect(changes).toHaveLength(5)
    clock.checkSetting({ offsetMs: 0, frozenAt: start })
  })
})

describe('toEpochMilliseconds', () => {
  it('reads a Date, an ISO 8601 string and epoch milliseconds alike', () => {
    expect(toEpochMilliseconds(new Date(start))).toBe(start)
    expect(toEpochMilliseconds('2030-01-01T00:00:00Z')).toBe(start)
    expect(toEpochMilliseconds(start)).toBe(start)
  })

  it('names what it refuses', () => {
    expect(() => toEpochMilliseconds(new Date(Number.NaN))).toThrow(/^Not a valid instant: Invalid Date$/)
    expect(() => toEpochMilliseconds(1.5)).toThrow(/^The instant 1\.5 is not a whole number of milliseconds$/)
    expect(() => toEpochMilliseconds(-1)).toThrow(/^The instant -1 is outside the clock's range/)
  })
})

describe('isInstant (what a restored snapshot may hold as a time)', () => {
  it('is a whole number of ms from 1970-01-01 to the end of 9999, both included', () => {
    for (const value of [earliestInstant, 1, start, latestInstant]) expect(isInstant(value), String(value)).toBe(true)
    for (const value of [-1, latestInstant + 1, 1.5, Number.NaN, '0', null, undefined]) expect(isInstant(value), String(value)).toBe(false)
  })
})

describe('a source clock that gives a fraction of a millisecond (performance.now-based)', () => {
  it('is named as it is in the refusal of a move, not as a date', () => {
    const clock = createSimulatorClock({ now: () => 1.5 })
    expect(() => clock.advance(1)).toThrow(/^Advancing the clock by 1 ms from 1\.5 ms is not a whole number of milliseconds$/)
    const huge = createSimulatorClock({ now: () => 9e15 })
    expect(() => huge.advance(1)).toThrow(/^Advancing the clock by 1 ms from 9000000000000000 ms is outside the clock's range/)
  })
})
