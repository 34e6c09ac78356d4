import { longestDurationMs } from './clock.ts'

const units: Record<string, bigint> = { ms: 1n, s: 1_000n, m: 60_000n, h: 3_600_000n, d: 86_400_000n }

/**
 * Reads a duration: a whole number of milliseconds, or a number with a unit
 * (`ms`, `s`, `m`, `h`, `d`). Throws a `RangeError` on anything else, on a
 * duration that is not a whole number of milliseconds (`1.5ms`, `0.0005s`:
 * refused, not rounded, as the simulator never rounds input silently), and
 * on one longer than the clock's whole range (1970 to 9999, about 8,000
 * years), which no clock move or ban could use without leaving that range.
 *
 * @example
 * parseDuration('10m') // 600000
 * parseDuration('1.5s') // 1500
 * parseDuration(1500) // 1500
 */
export function parseDuration(value: string | number): number {
  const milliseconds = typeof value === 'number' ? value : fromText(value)
  if (
    milliseconds === 'fraction' ||
    (typeof milliseconds === 'number' && Number.isFinite(milliseconds) && !Number.isInteger(milliseconds))
  ) {
    throw new RangeError(`The duration ${JSON.stringify(value)} is not a whole number of milliseconds`)
  }
  if (milliseconds === 'too long' || (milliseconds !== undefined && milliseconds > longestDurationMs)) {
    throw new RangeError(`The duration ${JSON.stringify(value)} is longer than the clock's whole range (${longestDurationMs} ms)`)
  }
  if (milliseconds !== undefined && milliseconds >= 0) return milliseconds
  throw new RangeError(`Not a duration: ${JSON.stringify(value)} (use a whole number of ms, or e.g. 500ms, 30s, 10m, 1h, 1d)`)
}

/**
 * The ms of a duration in text, computed exactly in decimal (`1.1s` is 1100,
 * where `1.1 * 1000` is 1100.0000000000002); `undefined` when it is not a
 * duration. Digits beyond 20 on either side cannot make a duration in range
 * (or a whole one), so they are not handed to `BigInt` (a body may be 1 MiB).
 */
function fromText(text: string): number | 'fraction' | 'too long' | undefined {
  // Trimmed first and matched without white space inside: `\s*` on both sides of an optional unit, and `0+$` on a
  // long fraction, backtracked quadratically (16 KiB of spaces held the event loop for long: test/bench/HISTORY.md,
  // "Figures moved out of source comments"), and a body may be 1 MiB.
  const match = /^(\d+)(?:\.(\d+))?(?:\s*(ms|s|m|h|d))?$/.exec(text.trim())
  if (!match) return undefined
  const whole = match[1]!.replace(/^0+(?=\d)/, '')
  const fraction = withoutTrailingZeros(match[2] ?? '')
  if (whole.length > 20) return 'too long'
  if (fraction.length > 20) return 'fraction'
  const scaled = BigInt(`${whole}${fraction}`) * units[match[3] ?? 'ms']!
  const divisor = 10n ** BigInt(fraction.length)
  return scaled % divisor === 0n ? Number(scaled / divisor) : 'fraction'
}

function withoutTrailingZeros(digits: string): string {
  let end = digits.length
  while (end > 0 && digits[end - 1] === '0') end--
  return digits.slice(0, end)
}
