import { writeFileSync } from 'node:fs'
import { writeTextAtomically } from '../node/atomic-write.ts'
import { defaults } from '../core/defaults.ts'
import { coverageMarkdown, coverageSummary } from '../core/journal/contract-coverage.ts'
import type { RunningServer } from '../node/server.ts'
import type { CliOptions } from './cli-options.ts'
import type { GuardedOutput } from './guarded-output.ts'
import type { SharedStore } from '../node/shared-store/connect-store.ts'
import type { WorkerRole } from './cluster-worker.ts'
import { removeReadyFile } from './ready-file.ts'
import { writeClientReport } from './client-report-output.ts'

/** Exit code at shutdown when `--state`, `--coverage` or `--pact` could not be written: the run itself went well. */
const notSavedExitCode = 1

/** What else a shutdown ends: the shared store's connection (`--store`), and, in a `--workers` fleet, this worker's part. */
export interface ShutdownParts {
  readonly store?: SharedStore | undefined
  readonly role?: WorkerRole | undefined
}

export function stopOnSignals(running: RunningServer, options: CliOptions, output: GuardedOutput, parts: ShutdownParts = {}): void {
  let stopping = false
  // In a fleet, the first worker alone writes --coverage and --pact (each worker sees the fleet's traffic through the
  // store) and says what it does: one line for the fleet, not one per worker.
  const speaks = parts.role === undefined || parts.role.slot === 0
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(signal === 'SIGINT' ? 130 : 143)
    }
    stopping = true
    if (options.log === 'pretty' && parts.role === undefined) output.writeLine(`${signal}: finishing requests in flight, then stopping`)
    running
      .close(defaults.shutdownGraceMs)
      .catch((error: Error) => {
        // The last save of --state (the one close() may fail on): one line and a documented exit code, never a stack.
        process.stderr.write(`petstore-sim: ${error.message}; the state of this run is not saved\n`)
        process.exitCode = notSavedExitCode
      })
      .then(async () => {
        // Not ready any more: a script that checks the file must not take a stopped simulator's URL for a live one.
        try {
          if (options.readyFile !== undefined && parts.role === undefined) removeReadyFile(options.readyFile)
        } catch {
          // Gone already, or its folder with it: nothing is left to mislead.
        }
        if (speaks) {
          reportCoverage(running, options, output)
          await writePact(running, options, output)
          if (await writeClientReport(running, options, output)) process.exitCode = notSavedExitCode
        }
        await parts.store?.close().catch((error: Error) => {
          process.stderr.write(`petstore-sim: --store: ${error.message.split('\n', 1)[0]} (while closing; nothing is lost)\n`)
        })
        process.exit(process.exitCode ?? 0)
      })
  }
  // A worker stops when its primary says so (it forwards SIGINT and SIGTERM); a SIGTERM sent to the worker itself still stops it.
  parts.role?.onStop((message) => (message.now ? process.exit(message.signal === 'SIGINT' ? 130 : 143) : onSignal(message.signal)))
  if (parts.role === undefined) process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

/** At shutdown: contract coverage to `--coverage <file>` (Markdown for `.md`, else JSON), and its summary on the pretty log. */
function reportCoverage(running: RunningServer, options: CliOptions, output: GuardedOutput): void {
  const coverage = running.simulator.coverage()
  if (options.log === 'pretty') output.writeLine(coverageSummary(coverage))
  if (options.coverage === undefined) return
  try {
    const text = options.coverage.endsWith('.md') ? coverageMarkdown(coverage) : `${JSON.stringify(coverage, null, 2)}\n`
    writeFileSync(options.coverage, text)
  } catch (error) {
    process.stderr.write(`petstore-sim: --coverage: cannot write ${options.coverage} (${(error as Error).message})\n`)
    process.exitCode = notSavedExitCode
  }
}

/**
 * At shutdown: the run's pact to `--pact <file>` (docs/pact.md), written like `--state` (whole or not at all, never
 * through a symbolic link), then one line saying what was written; an empty pact is written too, with a warning.
 */
async function writePact(running: RunningServer, options: CliOptions, output: GuardedOutput): Promise<void> {
  if (options.pact === undefined) return
  try {
    const pact = running.simulator.journal.toPact({
      consumer: options.pactConsumer,
      provider: options.pactProvider,
      simulatorChoices: options.pactSimulatorChoices === true,
    })
    await writeTextAtomically(options.pact, `${JSON.stringify(pact, null, 2)}\n`, 'shared')
    const count = pact.interactions.length
    const message = `pact written: ${options.pact}, ${count} interaction${count === 1 ? '' : 's'}`
    // A JSON log stays JSON lines to its end: a collector reading --log json parses every line of stdout.
    output.writeLine(
      options.log === 'json'
        ? JSON.stringify({ time: new Date().toISOString(), message, pact: options.pact, interactions: count })
        : message,
    )
    if (count === 0) {
      const leftOut = pact.metadata['petstore-sim'].simulatorChoicesLeftOut
      process.stderr.write(
        `petstore-sim: --pact: warning: ${options.pact} has no interactions` +
          (leftOut > 0
            ? ` (${leftOut} left out as the simulator's own answers: --pact-simulator-choices writes them)\n`
            : // True whether nothing was asked or every answer was one a pact never holds: the recorder sees neither.
              ' (no answer a pact holds was recorded: forced and faulted answers, 5xx and requests that matched no operation never are)\n'),
      )
    }
  } catch (error) {
    process.stderr.write(`petstore-sim: --pact: cannot write ${options.pact} (${(error as Error).message})\n`)
    process.exitCode = notSavedExitCode
  }
}
