const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/**
 * Reads a duration: a whole number of milliseconds, or a number with a unit
 * (`ms`, `s`, `m`, `h`, `d`). Throws a `RangeError` on anything else.
 *
 * @example
 * parseDuration('10m') // 600000
 * parseDuration(1500) // 1500
 */
export function parseDuration(value: string | number): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= 0) return value
  } else {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(value)
    if (match) return Math.round(Number(match[1]) * units[match[2] ?? 'ms']!)
  }
  throw new RangeError(`Not a duration: ${JSON.stringify(value)} (use e.g. 500ms, 30s, 10m, 1h, 1d or a number of ms)`)
}
