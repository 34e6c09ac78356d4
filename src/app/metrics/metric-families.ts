import type { MetricFamily } from './prometheus-text.ts'

// Every metric `GET /__sim/metrics` serves, declared once: the writer writes them in this order, and docs/metrics.md
// lists the same names (test/docs checks it).

const family = (name: string, type: MetricFamily['type'], help: string): MetricFamily => ({ name: `petstore_sim_${name}`, type, help })

export const metricFamilies = {
  requests: family(
    'requests_total',
    'counter',
    'API requests answered, by sandbox, operation and status (0: no answer, a reset or hang fault).',
  ),
  tooManyRequests: family(
    'too_many_requests_total',
    'counter',
    'API requests answered 429, by sandbox, plan and code: rate_limit_exceeded (over a window) or api_key_banned (during a ban).',
  ),
  faults: family('faults_fired_total', 'counter', 'API requests a fault rule shaped, by sandbox and rule id.'),
  duration: family('request_duration_seconds', 'histogram', 'Time the simulator took to answer an API request, by sandbox and operation.'),
  journalEntries: family('journal_entries', 'gauge', 'Requests held in the journal, by sandbox.'),
  journalBytes: family('journal_bytes', 'gauge', 'Estimated bytes the journal holds, by sandbox.'),
  journalEvictions: family(
    'journal_evictions_total',
    'counter',
    'Journal entries evicted to keep within its bounds, by sandbox (0 again after a clear).',
  ),
  sandboxes: family('sandboxes', 'gauge', 'Sandboxes held by this instance.'),
  sandboxesMax: family('sandboxes_max', 'gauge', 'The most sandboxes held at once.'),
  storeUp: family('store_up', 'gauge', 'With --store: 1 while the shared store answers, else 0.'),
  storeRoundTrip: family('store_round_trip_seconds', 'histogram', 'With --store: the round trip of each call to the shared store.'),
  storeErrors: family('store_errors_total', 'counter', 'With --store: calls to the shared store that failed.'),
} as const satisfies Record<string, MetricFamily>

/** The upper bounds of the request-duration buckets, in seconds: sub-millisecond answers up to the latency option's seconds. */
export const durationBuckets: readonly number[] = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
]
