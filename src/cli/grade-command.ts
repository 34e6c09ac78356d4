import { writeFileSync } from 'node:fs'
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { gradeHar } from '../core/grading/har-grading.ts'
import { clientReportJUnit } from '../core/grading/client-junit.ts'
import { clientReportText } from '../core/grading/client-report-text.ts'
import type { ClientReport } from '../core/grading/client-grader.ts'
import { readInputFile, unreadableReason } from '../node/input-file.ts'

/** Exit codes of `petstore-sim grade`, as `verify`'s: every caller passed, one broke a rule, the command line is wrong, the file cannot be graded. */
export const gradeExitCodes = { passed: 0, failed: 1, usage: 2, unreadable: 3 } as const

const gradeReporters = ['pretty', 'json', 'junit'] as const
type GradeReporter = (typeof gradeReporters)[number]

/** The largest HAR file read by default: 64 MiB (some 100,000 entries of an ordinary app). */
const defaultMaxBytes = 64 * 1024 * 1024

interface GradeCliOptions {
  reporter: GradeReporter
  out?: string
  maxBytes: number
}

export function createGradeProgram(): Command {
  return new Command('petstore-sim grade')
    .description("Grades a HAR 1.2 recording of an app's traffic against the spec's rules for clients (docs/grading-clients.md).")
    .argument('[file.har]', "the recording: the simulator's GET /__sim/requests.har, or a browser's or proxy's")
    .addOption(new Option('--reporter <format>', 'report format').choices(gradeReporters).default('pretty'))
    .option('--out <file>', 'write the report to this file (the pretty report still goes to stdout)')
    .addOption(
      new Option('--max-bytes <bytes>', 'the largest file read; a larger one is refused')
        .argParser(parseBytes)
        .default(defaultMaxBytes, '67108864 (64 MiB)'),
    )
    .helpOption('-h, --help', 'show this help')
    .addHelpText(
      'after',
      `
Exit codes: 0 every caller passed, 1 a caller broke a rule, 2 a usage error, 3 the file cannot be read or graded.

Examples:
  $ curl -s http://127.0.0.1:4010/__sim/requests.har > run.har && petstore-sim grade run.har
  $ petstore-sim grade staging-session.har --reporter junit --out client-report.xml`,
    )
}

/** `petstore-sim grade <file.har>`: reads the file within its bounds, grades it, prints or writes the report, sets the exit code. */
export function runGradeCommand(argv: readonly string[]): void {
  const program = createGradeProgram()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: (text) => process.stdout.write(text) })
  let options: GradeCliOptions
  let file: string | undefined
  try {
    program.parse(argv, { from: 'user' })
    options = program.opts<GradeCliOptions>()
    file = program.args[0]
  } catch (error) {
    if (error instanceof CommanderError && error.code === 'commander.helpDisplayed') return
    failWith(gradeExitCodes.usage, error instanceof CommanderError ? error.message.replace(/^error: /, '') : String(error))
    return
  }
  if (file === undefined) {
    failWith(gradeExitCodes.usage, 'missing <file.har>, a HAR 1.2 recording (GET /__sim/requests.har saves one)')
    return
  }
  let report: ClientReport
  try {
    report = gradeHar(readInputFile(file, options.maxBytes))
  } catch (error) {
    failWith(gradeExitCodes.unreadable, `cannot grade ${file}: ${error instanceof RangeError ? error.message : unreadableReason(error)}`)
    return
  }
  const toStdout = options.out === undefined ? options.reporter : 'pretty'
  process.stdout.write(render(report, toStdout))
  if (options.out !== undefined) {
    try {
      writeFileSync(options.out, render(report, options.reporter))
    } catch (error) {
      failWith(
        gradeExitCodes.usage,
        `--out: cannot write ${options.out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      )
      return
    }
  }
  process.exitCode = report.verdict === 'pass' ? gradeExitCodes.passed : gradeExitCodes.failed
}

function render(report: ClientReport, reporter: GradeReporter): string {
  if (reporter === 'json') return `${JSON.stringify(report, null, 2)}\n`
  if (reporter === 'junit') return clientReportJUnit(report)
  return clientReportText(report)
}

function parseBytes(value: string): number {
  const bytes = Number(value)
  if (/^\d+$/.test(value.trim()) && Number.isSafeInteger(bytes) && bytes > 0) return bytes
  throw new InvalidArgumentError('expected a whole number of bytes above 0, such as 1048576.')
}

function failWith(code: number, message: string): void {
  process.stderr.write(`petstore-sim grade: ${message}\n`)
  process.exitCode = code
}

/** The line the main command's help adds about this one. */
export const gradeHelpLine = `
Grade a HAR recording of an app against the spec's rules for clients (exit 0 pass, 1 fail, 2 usage, 3 unreadable):
  $ petstore-sim grade <file.har> [--reporter json|junit]   (petstore-sim grade --help)`
