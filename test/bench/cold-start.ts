// One cold start, measured in this fresh process, as the first lines of a test file run it: msw first (the test file
// imports it for setupServer, and petstore-sim's handlers are msw's), then importing the built package and creating a
// simulator, which is what petstore-sim adds to every test file. Prints the milliseconds. Run by in-process-bench.ts,
// many times.
const started = performance.now()
await import('msw')
const mswImported = performance.now()
const builtEntry = '../../dist/lib/index.js'
const { createSimulator } = (await import(builtEntry)) as typeof import('../../src/index.ts')
const imported = performance.now()
createSimulator()
const created = performance.now()
console.log(
  JSON.stringify({
    mswMs: mswImported - started,
    importMs: imported - mswImported,
    createMs: created - imported,
    totalMs: created - mswImported,
  }),
)
