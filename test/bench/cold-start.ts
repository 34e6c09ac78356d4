// One cold start, measured in this fresh process: importing the built package and creating a simulator, as the first
// lines of a test file do. Prints the milliseconds. Run by in-process-bench.ts, many times.
const started = performance.now()
const builtEntry = '../../dist/lib/index.js'
const { createSimulator } = (await import(builtEntry)) as typeof import('../../src/index.ts')
const imported = performance.now()
createSimulator()
const created = performance.now()
console.log(JSON.stringify({ importMs: imported - started, createMs: created - imported, totalMs: created - started }))
