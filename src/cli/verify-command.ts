import { writeFileSync } from 'node:fs'
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { parsePlan, planHelp } from '../core/access/plans.ts'
import { parseDuration } from '../core/time/duration.ts'
import { createSecretScrubber, redactUrl } from '../core/journal/journal-redaction.ts'
import { formatBytes, formatMs } from '../verify/request-budget.ts'
import { causeLine, type VerifyCause } from '../verify/diagnosis.ts'
import { prettyCauseLine, renderReport, reporters, visible, type Reporter } from '../verify/reporters.ts'
import { defaultMaxBodyBytes, defaultMaxTimeMs, verify } from '../verify/verify-runner.ts'
import { refuseBareNumber } from './cli-flag-parsers.ts'

/** Exit codes of `petstore-sim verify`: every check passed, a check failed, the command line is wrong, the target cannot be reached. */
export const verifyExitCodes = { passed: 0, failed: 1, usage: 2, unreachable: 3 } as const

/** Waits shorter than this pass without a line: a backoff's first steps, a listing retried after 250 ms. */
const quietWaitMs = 1000

interface VerifyCliOptions {
  key?: string
  plan: string
  writes: boolean
  limits: boolean
  strict: boolean
  reporter: Reporter
  out?: string
  timeout: number
  maxTime: number
  maxBody: number
}

export function createVerifyProgram(): Command {
  return new Command('petstore-sim verify')
    .description(
      'Checks a running Animal Store API (the real one, its staging, or petstore-sim) against the behaviour the spec makes observable.',
    )
    .argument('[base-url]', "the API's base URL, ending with the version segment, e.g. https://staging.api.animal-store.example/v1")
    .addOption(
      new Option('--key <token>', 'an API key of the target (sent as a Bearer token, never printed)').env('PETSTORE_SIM_VERIFY_KEY'),
    )
    .addOption(new Option('--plan <plan>', `the key's plan: the rate limits to expect (${planHelp})`).argParser(checkPlan).default('free'))
    .option('--writes', 'also run the checks that create pets on the target', false)
    .option(
      '--limits',
      "also run the checks that spend the key's minute quota to reach a 429 (the cost is printed before any is spent)",
      false,
    )
    .option('--strict', 'advisory checks (where the spec is silent) fail the run too', false)
    .addOption(new Option('--reporter <format>', 'report format').choices(reporters).default('pretty'))
    .option('--out <file>', 'write the report to this file (the pretty report still goes to stdout)')
    .addOption(
      new Option('--timeout <duration>', 'how long each request may take (500ms, 10s)').argParser(parseTimeout).default(10_000, '10s'),
    )
    .addOption(
      new Option('--max-time <duration>', "the whole run's time bound, waits included (30s, 10m); the checks left past it fail")
        .argParser(parseTimeout)
        .default(defaultMaxTimeMs, formatMs(defaultMaxTimeMs)),
    )
    .addOption(
      new Option('--max-body <bytes>', 'the most bytes read of each response body; a longer one fails its check')
        .argParser(parseBytes)
        .default(defaultMaxBodyBytes, `${defaultMaxBodyBytes} (${formatBytes(defaultMaxBodyBytes)})`),
    )
    .helpOption('-h, --help', 'show this help')
    .addHelpText(
      'after',
      `
Exit codes: 0 every check passed, 1 a check failed, 2 a usage error, 3 the target cannot be reached.

Examples:
  $ petstore-sim verify http://127.0.0.1:4010/v1 --key demo-free-key
  $ PETSTORE_SIM_VERIFY_KEY=... petstore-sim verify https://staging.api.animal-store.example/v1 --plan pro --writes --reporter junit --out verify.xml`,
    )
}

/**
 * `petstore-sim verify <base-url> --key <token>`: says how many requests it
 * will send, runs the checks, prints or writes the report, and sets the exit
 * code (see {@link verifyExitCodes}).
 */
export async function runVerifyCommand(argv: readonly string[]): Promise<void> {
  const program = createVerifyProgram()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: (text) => process.stdout.write(text) })
  // The key is never printed, also not in a message about the command line (commander quotes what it refuses).
  const scrub = createSecretScrubber([...keyArguments(argv), process.env.PETSTORE_SIM_VERIFY_KEY ?? ''])
  const usage = (message: string) => usageLine(visible(scrub(message)))
  let options: VerifyCliOptions
  let baseUrl: string | undefined
  try {
    program.parse(argv, { from: 'user' })
    options = program.opts<VerifyCliOptions>()
    baseUrl = program.args[0]
  } catch (error) {
    if (error instanceof CommanderError && error.code === 'commander.helpDisplayed') return
    return usage(error instanceof CommanderError ? error.message.replace(/^error: /, '') : String(error))
  }
  if (baseUrl === undefined) return usage("missing <base-url>, the API's base URL (e.g. http://127.0.0.1:4010/v1)")
  if (!/^https?:\/\/[^/]/i.test(baseUrl) || !URL.canParse(baseUrl)) return usage(`${baseUrl} is not an http(s) URL`)
  if (options.key === undefined || options.key === '')
    return usage('missing --key <token> (or PETSTORE_SIM_VERIFY_KEY), an API key of the target')

  // Machine-readable reports on stdout keep it for themselves; the announcement and the causes go to stderr then.
  const toStdout = options.out === undefined ? options.reporter : 'pretty'
  const say = (line: string) => (toStdout === 'pretty' ? process.stdout : process.stderr).write(`${visible(scrub(line))}\n`)
  // A CI log is read from its top: a cause the first answers show (a base URL without /v1, a refused key) comes first,
  // so the announcement waits for the authentication checks (4 requests), or for a wait, whichever is first.
  let announcement: string | undefined
  const announce = () => {
    if (announcement !== undefined) say(announcement)
    announcement = undefined
  }
  let causesShown = 0
  const report = await verify({
    baseUrl,
    key: options.key,
    plan: options.plan,
    writes: options.writes,
    limits: options.limits,
    strict: options.strict,
    timeoutMs: options.timeout,
    maxTimeMs: options.maxTime,
    maxBodyBytes: options.maxBody,
    // Never silent for long: each wait of a second or more says how long and what for, before it begins.
    onWait: (wait) => {
      if (wait.milliseconds < quietWaitMs) return
      announce()
      say(`petstore-sim verify: waiting ${formatWait(wait.milliseconds)} for ${wait.reason}`)
    },
    onPlan: (cost) => {
      const limits =
        cost.limitRequests > 0
          ? `; --limits spends ${cost.limitRequests} of them on the ${cost.plan.name} key's minute (${cost.plan.perMinute}/min, ${cost.plan.perDay}/day)`
          : ''
      announcement = `petstore-sim verify: at most ${cost.requests} requests to ${redactUrl(baseUrl)} within ${formatMs(cost.maxTimeMs)}${limits}`
    },
    onDiagnosis: (causes) => {
      for (const cause of causes) say(causeOutput(cause, toStdout))
      causesShown = causes.length
      announce()
    },
  })
  announce()
  // A terminal's width when there is one; CI logs are read in a browser, wider.
  const render = { strict: options.strict, columns: process.stdout.isTTY ? process.stdout.columns : 160 }
  process.stdout.write(renderReport(report, toStdout, { ...render, causesShown }))
  if (options.out !== undefined) {
    try {
      writeFileSync(options.out, renderReport(report, options.reporter, render))
    } catch (error) {
      return usage(`--out: cannot write ${options.out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
    }
  }
  // A cause found later in the run (a key revoked midway): on stderr too when stdout holds a JSON or JUnit report.
  if (toStdout !== 'pretty') for (const cause of (report.causes ?? []).slice(causesShown)) say(causeOutput(cause, toStdout))
  process.exitCode =
    report.unreachable !== undefined ? verifyExitCodes.unreachable : report.failed === 0 ? verifyExitCodes.passed : verifyExitCodes.failed
}

/** A cause's line: as the pretty report shows it, or after the command's name on stderr (beside a JSON or JUnit report). */
function causeOutput(cause: VerifyCause, toStdout: Reporter): string {
  if (toStdout === 'pretty') return prettyCauseLine(cause)
  return `petstore-sim verify: ${cause.kind === 'unreachable' ? cause.message : causeLine(cause)}`
}

/** `1.8 s`, `39 s`, `2 min 5 s`: a wait as a person reads it. */
function formatWait(milliseconds: number): string {
  if (milliseconds < 10_000) return `${(Math.ceil(milliseconds / 100) / 10).toString()} s`
  const seconds = Math.ceil(milliseconds / 1000)
  return seconds < 120 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}

function checkPlan(value: string): string {
  try {
    parsePlan(value)
    return value.trim()
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message)
  }
}

function parseTimeout(value: string): number {
  refuseBareNumber(value)
  try {
    const duration = parseDuration(value)
    if (duration > 0) return duration
  } catch {
    // Reported below.
  }
  throw new InvalidArgumentError('expected a duration such as 500ms or 10s.')
}

function parseBytes(value: string): number {
  const bytes = Number(value)
  if (/^\d+$/.test(value.trim()) && Number.isSafeInteger(bytes) && bytes > 0) return bytes
  throw new InvalidArgumentError('expected a whole number of bytes above 0, such as 1048576.')
}

/** The values of `--key` and `--key=` as given, before parsing. */
function keyArguments(argv: readonly string[]): string[] {
  return argv.flatMap((argument, index) =>
    argument === '--key' ? (argv[index + 1] ?? []) : argument.startsWith('--key=') ? argument.slice('--key='.length) : [],
  )
}

function usageLine(message: string): void {
  process.stderr.write(`petstore-sim verify: ${message}\n`)
  process.exitCode = verifyExitCodes.usage
}

/** The line the main command's help adds about this one. */
export const verifyHelpLine = `
Check a running Animal Store API against the spec (exit 0 pass, 1 fail, 2 usage, 3 unreachable):
  $ petstore-sim verify <base-url> --key <token> [--writes] [--limits]   (petstore-sim verify --help)`
