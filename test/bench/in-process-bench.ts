// The in-process half of `npm run bench` (also `npm run bench:in-process` alone): µs per request on each in-process
// lane next to msw's floor on that lane, and the cold start of importing petstore-sim and creating a simulator.
// Each lane runs in a process of its own, the lanes interleaved over `rounds` rounds so that drift on a shared machine
// touches each alike; the figures are ranges over the rounds. Nothing is asserted: the targets are printed beside them.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const rounds = Number(process.env.BENCH_IN_PROCESS_ROUNDS ?? 3)
const coldStarts = Number(process.env.BENCH_COLD_STARTS ?? 15)

interface LaneFigures {
  lane: string
  simulator: { get: number; post: number }
  floor?: { get: number; post: number }
  heapMiB: number
}

const lanes = [
  { lane: 'msw3-setupServer', label: 'msw 3 setupServer', args: [] as string[] },
  { lane: 'msw2-setupServer', label: 'msw 2 setupServer', args: ['--import', './test/bench/msw-2-resolve-hook.ts'] },
  { lane: 'msw3-fetch-network', label: 'msw 3 Fetch-level network', args: [] as string[] },
  { lane: 'simulator.fetch', label: 'simulator.fetch', args: [] as string[] },
]

function runNode(args: readonly string[]): string {
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 300_000 })
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${run.stderr}`)
  return run.stdout.trim().split('\n').at(-1)!
}

const results = new Map<string, LaneFigures[]>(lanes.map(({ lane }) => [lane, []]))
for (let round = 0; round < rounds; round++) {
  for (const { lane, args } of lanes)
    results.get(lane)!.push(JSON.parse(runNode([...args, 'test/bench/in-process-lane.ts', lane])) as LaneFigures)
}

const range = (values: number[], digits = 0) => {
  const sorted = [...values].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)]!
  return `${median.toFixed(digits)} (${sorted[0]!.toFixed(digits)}–${sorted.at(-1)!.toFixed(digits)})`
}
const check = (met: boolean) => (met ? 'met' : 'NOT met')
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

console.log(`\nin-process lanes: µs per request, median (range) over ${rounds} rounds, each lane in its own process`)
console.log(
  `${''.padEnd(28)}${'GET simulator'.padStart(20)}${'GET msw floor'.padStart(20)}${'POST simulator'.padStart(20)}${'POST msw floor'.padStart(20)}${'heap MiB'.padStart(12)}`,
)
for (const { lane, label } of lanes) {
  const runs = results.get(lane)!
  const floor = (pick: (figures: { get: number; post: number }) => number) =>
    runs[0]!.floor === undefined ? '—' : range(runs.map((run) => pick(run.floor!)))
  console.log(
    `${label.padEnd(28)}${range(runs.map((run) => run.simulator.get)).padStart(20)}${floor((figures) => figures.get).padStart(20)}${range(runs.map((run) => run.simulator.post)).padStart(20)}${floor((figures) => figures.post).padStart(20)}${range(runs.map((run) => run.heapMiB)).padStart(12)}`,
  )
}

console.log('\ntargets (in-process):')
const fetchGet = median(results.get('simulator.fetch')!.map((run) => run.simulator.get))
const setupServerGet = median(results.get('msw3-setupServer')!.map((run) => run.simulator.get))
console.log(
  `  simulator.fetch GET <= 50 µs: ${fetchGet.toFixed(0)} µs ${check(fetchGet <= 50)} (${(setupServerGet / fetchGet).toFixed(0)}x faster than msw 3 setupServer)`,
)
for (const { lane, label } of lanes.filter(({ lane }) => lane !== 'simulator.fetch')) {
  const runs = results.get(lane)!
  for (const method of ['get', 'post'] as const) {
    const ratio = median(runs.map((run) => run.simulator[method] / run.floor![method]))
    console.log(
      `  ${label}, ${method.toUpperCase()}: the simulator over msw's floor <= 1.15x: ${ratio.toFixed(2)}x ${check(ratio <= 1.15)}`,
    )
  }
}

// Cold start: a fresh process imports msw (as the test file does), then the package, and creates a simulator.
runNode(['test/bench/cold-start.ts']) // warms the file system cache, as any second run has it
const starts = Array.from(
  { length: coldStarts },
  () => JSON.parse(runNode(['test/bench/cold-start.ts'])) as { mswMs: number; importMs: number; createMs: number; totalMs: number },
)
console.log(
  `\ncold start (fresh process, median (range) of ${coldStarts}): import petstore-sim ${range(
    starts.map((start) => start.importMs),
    1,
  )} ms, createSimulator() ${range(
    starts.map((start) => start.createMs),
    1,
  )} ms; msw itself, imported first as the test file does: ${range(
    starts.map((start) => start.mswMs),
    1,
  )} ms`,
)
const total = median(starts.map((start) => start.totalMs))
console.log(`  import + createSimulator() <= 10 ms: ${total.toFixed(1)} ms ${check(total <= 10)}`)
