import type { RecordedRequest } from '../../core/journal/journal-types.ts'
import { durationBuckets, metricFamilies } from './metric-families.ts'
import type { Exposition } from './prometheus-text.ts'
import { createHistogram, type Histogram } from './histogram.ts'

/**
 * One world's request counts, kept by the app (one per simulator, never module-level): fed by the simulator's meter
 * with every recorded request, read when `/__sim/metrics` is scraped. Recording is a few map lookups and additions:
 * no string is built and nothing is allocated once a series exists (test/bench/metrics-bench.ts measures it).
 */
export interface RequestMetrics {
  record(entry: RecordedRequest): void
  /** Adds this world's samples, labelled `sandbox` (`""` for the default world). */
  write(out: Exposition, sandbox: string): void
}

export function createRequestMetrics(): RequestMetrics {
  const byOperation = new Map<string, Map<number, number>>()
  const durations = new Map<string, Histogram>()
  /** plan -> code -> count */
  const refused = new Map<string, Map<string, number>>()
  const faults = new Map<string, number>()
  return {
    record(entry) {
      const { operation, status, durationMs } = entry
      let statuses = byOperation.get(operation)
      if (statuses === undefined) {
        statuses = new Map()
        byOperation.set(operation, statuses)
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      let histogram = durations.get(operation)
      if (histogram === undefined) {
        histogram = createHistogram(durationBuckets)
        durations.set(operation, histogram)
      }
      histogram.observe(durationMs / 1000)
      if (entry.fault !== undefined) faults.set(entry.fault, (faults.get(entry.fault) ?? 0) + 1)
      if (status === 429) {
        // Which refusal it was is in the answer's code; read only for 429s.
        const body = entry.exchange?.responseBody
        const code = typeof body === 'string' && body.includes('"api_key_banned"') ? 'api_key_banned' : 'rate_limit_exceeded'
        let codes = refused.get(entry.plan)
        if (codes === undefined) {
          codes = new Map()
          refused.set(entry.plan, codes)
        }
        codes.set(code, (codes.get(code) ?? 0) + 1)
      }
    },
    write(out, sandbox) {
      for (const [operation, statuses] of byOperation) {
        for (const [status, count] of statuses) out.sample(metricFamilies.requests, { sandbox, operation, status: String(status) }, count)
      }
      for (const [plan, codes] of refused) {
        for (const [code, count] of codes) out.sample(metricFamilies.tooManyRequests, { sandbox, plan, code }, count)
      }
      for (const [rule, count] of faults) out.sample(metricFamilies.faults, { sandbox, rule }, count)
      for (const [operation, histogram] of durations) out.histogram(metricFamilies.duration, { sandbox, operation }, histogram)
    },
  }
}
