// A full GC's pause with a large catalogue held, in this fresh process (run with --expose-gc by scale-bench.ts):
// `node --expose-gc test/bench/full-gc.ts <pets> <simulator|objects>`. `simulator` holds a simulator with that many
// seeded pets; `objects` holds the same pets as objects (`generatePets`), as the store kept them before the compact
// catalogue, for comparison. Prints the median of 7 full GCs in milliseconds, and the heap used, as JSON.
const builtEntry = '../../dist/lib/index.js'
const { createSimulator, generatePets } = (await import(builtEntry)) as typeof import('../../src/index.ts')

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('Run with node --expose-gc')
const count = Number(process.argv[2])
const held = process.argv[3] === 'objects' ? generatePets({ count }) : createSimulator({ pets: count })
gc()
const pauses: number[] = []
for (let round = 0; round < 7; round++) {
  const started = performance.now()
  gc()
  pauses.push(performance.now() - started)
}
const heapUsedMiB = process.memoryUsage().heapUsed / 2 ** 20
console.log(
  JSON.stringify({ count, held: process.argv[3], fullGcMs: pauses.sort((a, b) => a - b)[3], heapUsedMiB, kept: held !== undefined }),
)
