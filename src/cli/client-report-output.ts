import { writeTextAtomically } from '../node/atomic-write.ts'
import { clientReportJUnit } from '../core/grading/client-junit.ts'
import type { RunningServer } from '../node/server.ts'
import type { CliOptions } from './cli-options.ts'
import type { GuardedOutput } from './guarded-output.ts'

/** Exit code at shutdown with `--fail-on-client-violations` when a caller broke a rule for clients: `verify`'s "failed". */
export const clientViolationsExitCode = 1

/**
 * At shutdown: the client report to `--client-report <file>` (JUnit XML if the name ends in `.xml`, else JSON), written
 * like `--pact` (whole or not at all, never through a symbolic link), one line saying what it holds; and with
 * `--fail-on-client-violations`, exit code 1 when it has a violation. Returns whether the file could not be written.
 */
export async function writeClientReport(running: RunningServer, options: CliOptions, output: GuardedOutput): Promise<boolean> {
  if (options.clientReport === undefined && options.failOnClientViolations !== true) return false
  const report = running.simulator.clientReport()
  const failing = report.callers.filter((grade) => grade.verdict === 'fail').length
  const summary = `client report: ${report.verdict}, ${report.callers.length} caller${report.callers.length === 1 ? '' : 's'}, ${report.violations} violation${report.violations === 1 ? '' : 's'}`
  let unwritten = false
  if (options.clientReport !== undefined) {
    try {
      const text = options.clientReport.endsWith('.xml') ? clientReportJUnit(report) : `${JSON.stringify(report, null, 2)}\n`
      await writeTextAtomically(options.clientReport, text, 'shared')
      const message = `${summary}, written: ${options.clientReport}`
      output.writeLine(
        options.log === 'json'
          ? JSON.stringify({ time: new Date().toISOString(), message, clientReport: options.clientReport, verdict: report.verdict })
          : message,
      )
    } catch (error) {
      process.stderr.write(`petstore-sim: --client-report: cannot write ${options.clientReport} (${(error as Error).message})\n`)
      unwritten = true
    }
  }
  if (options.failOnClientViolations === true && report.verdict === 'fail') {
    process.stderr.write(
      `petstore-sim: --fail-on-client-violations: ${failing} of ${report.callers.length} callers broke the spec's rules for clients (${report.violations} violations; GET /__sim/clients lists them)\n`,
    )
    process.exitCode = clientViolationsExitCode
  }
  return unwritten
}
