// Run by journal-bench.ts as `node --expose-gc`: the memory a full journal of
// 64 KiB bodies really holds (heap and array buffers, after a full GC),
// against the journal's own estimate and its budget. Prints one JSON line.
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with --expose-gc')
/** After full collections, with time between them for array buffers' backing stores to be freed. */
const used = async () => {
  for (let round = 0; round < 4; round++) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}
const maxBytes = Number(process.argv[2] ?? 16 * 1024 * 1024)
const simulator = createSimulatorCore({ journalMaxBytes: maxBytes })
const before = await used()
const requestBody = new Uint8Array(64 * 1024).fill(0x61)
// Both bodies at the cap, and ordinary headers: the worst case per entry short of 16 KiB of headers.
const rawHeaders = [
  'Host',
  '127.0.0.1:4010',
  'Authorization',
  'Bearer demo-pro-key',
  'Content-Type',
  'application/json',
  'traceparent',
  `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`,
]
for (let index = 0; index < 3000; index++) {
  simulator.journal.record({
    atMs: 0,
    method: 'POST',
    path: '/v1/pets',
    status: 201,
    operation: 'createPet',
    caller: 'anonymous',
    plan: 'anonymous',
    durationMs: 1,
    exchange: {
      rawHeaders: [...rawHeaders],
      requestBody: requestBody.slice(),
      responseHeaders: { 'Content-Type': 'application/json', Location: `/v1/pets/${index}` },
      // A fresh string each time, as a real answer is.
      responseBody: `${index}`.padEnd(64 * 1024, 'x'),
    },
  })
}
const after = await used()
const usage = simulator.journal.usage()
process.stdout.write(`${JSON.stringify({ measuredBytes: after - before, ...usage })}\n`)
