/**
 * The `--state` file at a million pets: its size, how long a save takes
 * (snapshot, JSON, write, fsync, rename), the longest the event loop is held
 * during one, and how long a start-up restore
 * takes (read, parse, validate, load). Nothing is asserted; run it with
 * `npx node test/bench/state-file-bench.ts [pets]`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import { openStateFile } from '../../src/node/state-file.ts'

const pets = Number(process.argv[2] ?? 1_000_000)
const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-state-bench-'))
const path = join(directory, 'state.json')
try {
  const simulator = createSimulatorCore({ pets })
  const file = openStateFile(simulator, { path, intervalMs: 0 })
  const saves: number[] = []
  const stalls: number[] = []
  for (let run = 0; run < 5; run++) {
    // The longest the event loop is held during a save: what a request arriving then waits at worst.
    let last = performance.now()
    let longest = 0
    const probe = setInterval(() => {
      const now = performance.now()
      longest = Math.max(longest, now - last)
      last = now
    }, 1)
    const started = performance.now()
    await file.save()
    saves.push(performance.now() - started)
    clearInterval(probe)
    stalls.push(longest)
  }
  await file.close()
  const restores: number[] = []
  for (let run = 0; run < 3; run++) {
    const started = performance.now()
    openStateFile(createSimulatorCore({ pets: 0 }), { path, intervalMs: 0 }).discard()
    restores.push(performance.now() - started)
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!.toFixed(0)
  const range = (values: number[]) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`
  console.log(`${pets} pets: file ${(statSync(path).size / 2 ** 20).toFixed(1)} MiB`)
  console.log(`save (snapshot + JSON + write + fsync + rename): median ${median(saves)} ms (${range(saves)} over ${saves.length})`)
  console.log(`longest event-loop stall during a save: median ${median(stalls)} ms (${range(stalls)})`)
  console.log(
    `restore at start (read + parse + validate + load): median ${median(restores)} ms (${range(restores)} over ${restores.length})`,
  )
} finally {
  rmSync(directory, { recursive: true, force: true })
}
