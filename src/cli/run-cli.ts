import { resolve } from 'node:path'
import { CommanderError } from 'commander'
import { adminTokenProblem } from '../app/control/control-guard.ts'
import { printBanner } from './cli-banner.ts'
import { removeReadyFile, writeReadyFile } from './ready-file.ts'
import { workerRole } from './cluster-worker.ts'
import { runPrimary } from './run-primary.ts'
import { reloadableOptions, startFailure, startServing, warnAboutOptions, type Serving } from './start-serving.ts'
import { createProgram, type CliOptions } from './cli-options.ts'
import { stopOnSignals } from './cli-shutdown.ts'
import { failWith, UsageError } from './cli-usage-error.ts'
import { applyConfigFile, defaultConfigFile, type ConfigData } from './config-file.ts'
import { cliSecrets } from './cli-secrets.ts'
import { guardStandardOutput } from './guarded-output.ts'
import { runVerifyCommand, verifyHelpLine } from './verify-command.ts'
import { gradeHelpLine, runGradeCommand } from './grade-command.ts'
import { refuseStoreConflicts } from './store-options.ts'
import { watchInputs, type WatchedInputs } from './watch.ts'

/**
 * Runs `petstore-sim` with the given arguments: parses the flags (and the
 * `PETSTORE_SIM_*` environment), starts the server, prints where it listens
 * and the keys in force, and stops gracefully on SIGINT or SIGTERM. With
 * `verify` first, checks another API instead (`verify-command.ts`); with `grade`, grades a HAR recording (`grade-command.ts`).
 */
export async function runCli(argv: readonly string[]): Promise<void> {
  // `petstore-sim verify …` checks another API; everything else serves one.
  if (argv[0] === 'verify') return runVerifyCommand(argv.slice(1))
  // `petstore-sim grade <file.har>` grades a recording instead.
  if (argv[0] === 'grade') return runGradeCommand(argv.slice(1))
  let options: CliOptions
  let config: ConfigData
  const output = guardStandardOutput()
  // Every message the CLI prints goes through `fail` or `warn`: neither shows a key token it was given.
  const secrets = cliSecrets(argv)
  const fail = (message: string) => failWith(secrets.scrub(message))
  try {
    ;({ options, config } = readOptions(argv, (text) => output.writeLine(text.replace(/\n$/, ''))))
  } catch (error) {
    if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')) return
    return fail(error instanceof CommanderError ? error.message.replace(/^error: /, '') : (error as Error).message)
  }
  const inlineKeys = config.inline.keys
  if (typeof inlineKeys === 'object' && inlineKeys !== null) secrets.add(Object.keys(inlineKeys))

  const role = workerRole()
  if (role === undefined && options.workers > 1) return runPrimary(argv, options, config, output, secrets)
  if (role === undefined) warnAboutOptions(options)

  let serving: Serving
  try {
    if (options.readyFile !== undefined && role === undefined) removeReadyFile(options.readyFile)
    serving = await startServing(options, config, output, secrets, role)
  } catch (error) {
    const { message, exitCode } = startFailure(error, options, config)
    if (role !== undefined) {
      // The primary prints it, once for the fleet.
      role.send({ petstoreSim: 'start-failed', message: secrets.scrub(message), exitCode }, () => process.exit(exitCode))
      return
    }
    failWith(secrets.scrub(message), exitCode)
    // A store client may still hold a timer or a socket: the one line is written (stderr is synchronous), nothing is left to do.
    if (options.store !== undefined) process.exit(exitCode)
    return
  }
  const { running, store } = serving
  // Before the line that says where it listens: a script that sends SIGTERM the moment it reads that line found a
  // process with no handler yet, which the signal's default action ended (no drain, no --pact, no exit code).
  stopOnSignals(running, options, output, { store, role })
  if (role !== undefined) {
    let banner = ''
    printBanner(running, options, config, { writeLine: (text) => (banner = text), open: true, serving: () => {} }, store?.display)
    role.send({ petstoreSim: 'listening', url: running.url, apiUrl: running.apiUrl, banner })
  } else {
    // The file before the banner, as with --workers: a script that waits for the banner finds the file too.
    if (options.readyFile !== undefined) {
      try {
        writeReadyFile(options.readyFile, running.apiUrl)
      } catch (error) {
        fail(`--ready-file: cannot write ${options.readyFile} (${(error as Error).message})`)
        await running.close()
        await store?.close()
        return
      }
    }
    printBanner(running, options, config, output, store?.display)
  }
  output.serving()
  if (options.watch === true) {
    const report = {
      info: (message: string) => {
        if (options.log === 'json') output.writeLine(JSON.stringify({ time: new Date().toISOString(), message }))
        else if (options.log === 'pretty') output.writeLine(message)
      },
      warn: (message: string) => process.stderr.write(`petstore-sim: ${secrets.scrub(message)}\n`),
    }
    watchInputs(
      running.simulator,
      watchedInputs(options, config),
      () => {
        const next = readOptions(argv)
        // An editor that saves by removing or renaming the old file leaves a moment without one. Read then, the file
        // in the working directory (no --config) was simply not there: every key of it fell back to its default, and
        // --watch reported "banAfter, stateInterval, latency, state changed; restart" (issue #31). Wait for it instead.
        if (config.path !== undefined && next.config.path === undefined) {
          throw new Error(`${resolve(config.path)} is gone; it is read again when it is back`)
        }
        return watchedInputs(next.options, next.config)
      },
      report,
    )
  }
}

/** Flags, then environment variables, then the config file, then the defaults; throws a CommanderError or a ConfigFileError. */
function readOptions(argv: readonly string[], writeOut: (text: string) => void = () => {}): { options: CliOptions; config: ConfigData } {
  const program = createProgram()
    .addHelpText('after', `${verifyHelpLine}\n${gradeHelpLine}`)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut })
  const parsed = program.parse(argv, { from: 'user' }).opts<CliOptions>()
  const config = applyConfigFile(program, parsed.config)
  const options = program.opts<CliOptions>()
  checkAdminToken(options.adminToken, program.getOptionValueSource('adminToken'), config.path)
  refuseStoreConflicts(program, options, config.path)
  return { options, config }
}

/**
 * An admin token that protects nothing stops start-up, naming where it came from (the token itself is never printed):
 * an empty one opened the control plane to every client, `--host 0.0.0.0` included (see `adminTokenProblem`).
 */
function checkAdminToken(token: string | undefined, source: string | undefined, configPath: string | undefined): void {
  if (token === undefined) return
  const problem = adminTokenProblem(token)
  if (problem === undefined) return
  const origin =
    source === 'env' ? 'PETSTORE_SIM_ADMIN_TOKEN' : source === 'config' ? `adminToken in --config ${configPath}` : '--admin-token'
  throw new UsageError(`${origin} ${problem}: an admin token that can be left out protects nothing`)
}

/** Every input of `--watch`: the reloadable options, the rest, and the files they come from. */
function watchedInputs(options: CliOptions, config: ConfigData): WatchedInputs {
  const { seed: _seed, pets: _pets, fixtures, key: _key, keys, fault: _fault, faults, scenario: _scenario, ...rest } = options
  const configFile = resolve(config.path ?? defaultConfigFile)
  const files = [configFile, fixtures, keys, faults].filter((file) => file !== undefined).map((file) => resolve(file))
  return { simulator: reloadableOptions(options, config), rest, files }
}
