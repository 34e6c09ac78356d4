/**
 * Observations counted into buckets of fixed upper bounds, as a Prometheus histogram reads them: a typed array and a
 * sum, so that an observation allocates nothing.
 */
export interface Histogram {
  readonly bounds: readonly number[]
  /** Observations per bucket, not cumulative; the last is past every bound. */
  readonly counts: Float64Array
  readonly sum: number
  observe(value: number): void
}

export function createHistogram(bounds: readonly number[]): Histogram {
  const counts = new Float64Array(bounds.length + 1)
  let sum = 0
  return {
    bounds,
    counts,
    get sum() {
      return sum
    },
    observe(value) {
      let bucket = 0
      while (bucket < bounds.length && value > bounds[bucket]!) bucket++
      counts[bucket]!++
      sum += value
    },
  }
}
