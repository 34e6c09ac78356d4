/**
 * Measures the rate limiter's heap for many distinct anonymous callers in one
 * UTC day: `node --expose-gc test/core/access/limiter-memory.ts [callers] [maxAnonymousBuckets]`
 * (Node 24 runs the TypeScript as is). Not part of the test suite: heap
 * figures vary by runtime, so they are stated in the limiter's comments and
 * the report, not asserted.
 */
import { createManualClock } from '../../../src/core/time/clock.ts'
import { standardPlans } from '../../../src/core/access/plans.ts'
import { createRateLimiter } from '../../../src/core/access/rate-limiter.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('Run with node --expose-gc')
const callers = Number(process.argv[2] ?? 1_000_000)
const maxAnonymousBuckets = process.argv[3] === undefined ? undefined : Number(process.argv[3])

const clock = createManualClock('2031-03-01T00:00:00Z')
gc()
const before = process.memoryUsage().heapUsed
const limiter = createRateLimiter({ clock, ...(maxAnonymousBuckets === undefined ? {} : { maxAnonymousBuckets }) })
const step = Math.floor(82_800_000 / callers)
const started = performance.now()
for (let index = 0; index < callers; index++) {
  // Addresses as the transport names them: one flat string each, then the API route's `anonymous:<address>`.
  const address = JSON.parse(`"10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}"`) as string
  limiter.consume(`anonymous:${address}`, standardPlans.free)
  clock.advance(step) // spread over about 23 hours of the same UTC day
}
const elapsed = performance.now() - started
gc()
const after = process.memoryUsage().heapUsed
const buckets = (limiter as { size?: number }).size
const mib = (after - before) / 2 ** 20
console.log(
  JSON.stringify({
    node: process.version,
    callers,
    maxAnonymousBuckets: maxAnonymousBuckets ?? 'default',
    buckets: buckets ?? 'n/a',
    heapUsedMiB: Number(mib.toFixed(1)),
    bytesPerBucket: buckets === undefined || buckets === 0 ? 'n/a' : Math.round((after - before) / buckets),
    microsecondsPerCall: Number(((elapsed * 1000) / callers).toFixed(2)),
    now: new Date(clock.now()).toISOString(),
  }),
)
// Keep the limiter alive through the second measurement.
if (limiter.consume('anonymous:last', standardPlans.free).outcome === undefined) console.log('unreachable')
