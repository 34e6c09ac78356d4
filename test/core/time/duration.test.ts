import { describe, expect, it } from 'vitest'
import { longestDurationMs } from '../../../src/core/time/clock.ts'
import { parseDuration } from '../../../src/core/time/duration.ts'

// Durations as users write them (`--latency`, `--ban-duration`, fault delays, `POST /__sim/clock` `advance`): a whole
// number of ms, or a number with a unit; never rounded, never past the clock's range; each refusal says why.

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    [0, 0],
    ['250', 250],
    ['250ms', 250],
    ['30s', 30_000],
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['1d', 86_400_000],
    ['1.5s', 1_500],
    ['0.5m', 30_000],
    ['007s', 7_000],
    ['000', 0],
    ['2.000s', 2_000],
    ['1.10000000000000000000s', 1_100],
    [' 5 s ', 5_000],
    ['5\tms', 5],
    // Zeros before the number and after its decimals change nothing, however many (a body may hold 1 MiB of them).
    [`${'0'.repeat(40)}5s`, 5_000],
    [`1.5${'0'.repeat(40)}s`, 1_500],
    [`${'0'.repeat(40)}.${'0'.repeat(40)}`, 0],
    [longestDurationMs, longestDurationMs],
    [String(longestDurationMs), longestDurationMs],
  ])('reads %j as %i ms', (text, milliseconds) => {
    expect(parseDuration(text)).toBe(milliseconds)
  })

  it.each([
    ['1.5ms', '"1.5ms" is not a whole number of milliseconds'],
    [1.5, '1.5 is not a whole number of milliseconds'],
    ['0.0005s', '"0.0005s" is not a whole number of milliseconds'],
    [`0.${'0'.repeat(20)}1s`, `"0.${'0'.repeat(20)}1s" is not a whole number of milliseconds`],
  ])('refuses %j: a fraction of a millisecond', (text, message) => {
    expect(() => parseDuration(text)).toThrow(new RangeError(`The duration ${message}`))
  })

  it.each([[longestDurationMs + 1], [String(longestDurationMs + 1)], ['1'.repeat(21)], ['100000000d'], [1e300]])(
    "refuses %j: longer than the clock's whole range",
    (text) => {
      expect(() => parseDuration(text)).toThrow(
        new RangeError(`The duration ${JSON.stringify(text)} is longer than the clock's whole range (${longestDurationMs} ms)`),
      )
    },
  )

  it.each([['-1'], [-1], [''], ['ms'], ['1 w'], ['1sx'], ['x1s'], ['1..5s'], ['.5s'], ['1e3'], [Number.NaN], [Number.NEGATIVE_INFINITY]])(
    'refuses %j: not a duration, naming the forms',
    (text) => {
      expect(() => parseDuration(text)).toThrow(
        new RangeError(`Not a duration: ${JSON.stringify(text)} (use a whole number of ms, or e.g. 500ms, 30s, 10m, 1h, 1d)`),
      )
    },
  )
})
