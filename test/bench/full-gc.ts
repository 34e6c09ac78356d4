// A full GC's pause with a large catalogue held, in this fresh process (run with --expose-gc by scale-bench.ts):
// `node --expose-gc test/bench/full-gc.ts <pets> <simulator|objects>`. `simulator` holds a simulator with that many
// seeded pets; `objects` holds the same pets as objects (`generatePets`), as the store kept them before the compact
// catalogue, for comparison. Prints, as JSON, the time to create it, the shortest and the median of 9 full GCs in
// milliseconds, and the heap used and resident set after them (the CLI takes at most --pets 1000000; the library more).
const builtEntry = '../../dist/lib/index.js'
const { createSimulator } = (await import(builtEntry)) as typeof import('../../src/index.ts')
// Not part of the package's API: the sources' own, as the store called it before.
const { generatePets } = await import('../../src/core/catalogue/seed-pets.ts')

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('Run with node --expose-gc')
const count = Number(process.argv[2])
const started = performance.now()
const held = process.argv[3] === 'objects' ? generatePets({ count }) : createSimulator({ pets: count })
const createMs = performance.now() - started
gc()
const pauses: number[] = []
for (let round = 0; round < 9; round++) {
  const gcStarted = performance.now()
  gc()
  pauses.push(performance.now() - gcStarted)
}
const { heapUsed, rss } = process.memoryUsage()
console.log(
  JSON.stringify({
    count,
    held: process.argv[3],
    createMs,
    shortestGcMs: Math.min(...pauses),
    medianGcMs: pauses.sort((a, b) => a - b)[4],
    heapUsedMiB: heapUsed / 2 ** 20,
    rssMiB: rss / 2 ** 20,
    kept: held !== undefined,
  }),
)
