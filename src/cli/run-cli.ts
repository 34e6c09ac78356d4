import { resolve } from 'node:path'
import { CommanderError } from 'commander'
import type { ReconfigurableOptions } from '../core/simulator/simulator-core.ts'
import { SimulatorOptionError } from '../core/state/state-control.ts'
import { adminTokenProblem } from '../app/control/control-guard.ts'
import { anyHost, isLoopbackBindAddress } from '../core/access/host-policy.ts'
import { createNodeApp } from '../node/node-app.ts'
import { createRequestLogger } from '../node/request-log.ts'
import { startServer, type RunningServer, type StartServerOptions } from '../node/server.ts'
import { printBanner } from './cli-banner.ts'
import { removeReadyFile, writeReadyFile } from './ready-file.ts'
import { loadHandlers, readFaults, readJsonFile, readKeys } from './cli-inputs.ts'
import { createProgram, type CliOptions } from './cli-options.ts'
import { stopOnSignals } from './cli-shutdown.ts'
import { UsageError, usageExitCode } from './cli-usage-error.ts'
import { applyConfigFile, defaultConfigFile, type ConfigData } from './config-file.ts'
import { cliSecrets, type CliSecrets } from './cli-secrets.ts'
import { guardStandardOutput, type GuardedOutput } from './guarded-output.ts'
import { runVerifyCommand, verifyHelpLine } from './verify-command.ts'
import { watchInputs, type WatchedInputs } from './watch.ts'

/**
 * Runs `petstore-sim` with the given arguments: parses the flags (and the
 * `PETSTORE_SIM_*` environment), starts the server, prints where it listens
 * and the keys in force, and stops gracefully on SIGINT or SIGTERM. With
 * `verify` first, checks another API instead (`verify-command.ts`).
 */
export async function runCli(argv: readonly string[]): Promise<void> {
  // `petstore-sim verify …` checks another API; everything else serves one.
  if (argv[0] === 'verify') return runVerifyCommand(argv.slice(1))
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

  let running: RunningServer
  try {
    if (options.readyFile !== undefined) removeReadyFile(options.readyFile)
    running = await startServer(await toServerOptions(options, config, output, secrets))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') return fail(`port ${options.port} on ${options.host} is already in use (try --port 0 for a free port)`)
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return fail(`cannot bind to --host ${options.host}`)
    if (error instanceof SimulatorOptionError) return fail(`${optionOrigin(error, options, config)}: ${error.problem}`)
    return fail((error as Error).message)
  }
  printBanner(running, options, config, output)
  if (options.readyFile !== undefined) {
    try {
      writeReadyFile(options.readyFile, running.apiUrl)
    } catch (error) {
      fail(`--ready-file: cannot write ${options.readyFile} (${(error as Error).message})`)
      await running.close()
      return
    }
  }
  output.serving()
  stopOnSignals(running, options, output)
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
    .addHelpText('after', verifyHelpLine)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut })
  const parsed = program.parse(argv, { from: 'user' }).opts<CliOptions>()
  const config = applyConfigFile(program, parsed.config)
  const options = program.opts<CliOptions>()
  checkAdminToken(options.adminToken, program.getOptionValueSource('adminToken'), config.path)
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

/** The options the simulator can take again without a restart (`--watch`), each file read. */
function reloadableOptions(options: CliOptions, config: ConfigData, secrets?: CliSecrets): ReconfigurableOptions {
  return {
    seed: options.seed,
    pets: options.pets,
    fixtures: config.inline.fixtures ?? (options.fixtures === undefined ? undefined : readJsonFile(options.fixtures, '--fixtures')),
    keys: readKeys(options, config, secrets),
    faults: readFaults(options, config),
    scenario: options.scenario,
    scenarios: config.scenarios,
  }
}

/** Every input of `--watch`: the reloadable options, the rest, and the files they come from. */
function watchedInputs(options: CliOptions, config: ConfigData): WatchedInputs {
  const { seed: _seed, pets: _pets, fixtures, key: _key, keys, fault: _fault, faults, scenario: _scenario, ...rest } = options
  const configFile = resolve(config.path ?? defaultConfigFile)
  const files = [configFile, fixtures, keys, faults].filter((file) => file !== undefined).map((file) => resolve(file))
  return { simulator: reloadableOptions(options, config), rest, files }
}

async function toServerOptions(
  options: CliOptions,
  config: ConfigData,
  output: GuardedOutput,
  secrets: CliSecrets,
): Promise<StartServerOptions> {
  const app = createNodeApp({
    ...reloadableOptions(options, config, secrets),
    latency: options.latency,
    baseUrl: options.basePath,
    ban: options.banAfter === 'off' ? false : { after: options.banAfter, durationMs: options.banFor },
    bodyLimit: options.bodyLimit,
    defaultStatus: options.defaultStatus,
    // The control plane checks every request itself: the admin token when there is one, else loopback clients under a loopback
    // or allowed host name, however the server is bound.
    control:
      options.adminToken === undefined
        ? { allowedHosts: options.allowedHost }
        : { adminToken: options.adminToken, allowedHosts: options.allowedHost },
    prefer: options.prefer,
    corsOrigins: options.corsOrigin,
    maxPets: options.maxPets,
    sandboxes: { max: options.maxSandboxes, idleMs: options.sandboxIdle, header: options.sandboxHeader === true },
    // Bound to loopback, the Host of every request is checked (DNS rebinding); bound to the network, clients use
    // whatever name reaches the machine, and the control plane alone keeps its own check.
    allowedHosts: isLoopbackBindAddress(options.host) ? options.allowedHost : undefined,
  })
  if (options.allowedHost.includes(anyHost)) {
    process.stderr.write(
      "petstore-sim: warning: --allowed-host '*' accepts every Host name: a web page can reach this simulator by DNS rebinding\n",
    )
  }
  if (options.headersTimeout > options.requestTimeout) {
    throw new UsageError(
      `--headers-timeout (${options.headersTimeout} ms) must not be longer than --request-timeout (${options.requestTimeout} ms)`,
    )
  }
  return {
    app,
    headersTimeoutMs: options.headersTimeout,
    requestTimeoutMs: options.requestTimeout,
    maxPipelinedRequests: options.maxPipelined,
    port: options.port,
    host: options.host,
    // Through the guarded output: a log line for a reader that has gone away is dropped, never fatal.
    log: options.log === 'silent' ? 'silent' : createRequestLogger(options.log, (line) => output.writeLine(line)),
    engine: options.engine,
    handlers: options.handlers === undefined ? undefined : await loadHandlers(options.handlers),
    state: options.state === undefined ? undefined : { path: options.state, intervalMs: options.stateInterval },
  }
}

/**
 * Where a fault rule or the keys the simulator refused came from, as the user wrote it: `--fault "<rule>"`,
 * `--faults <file> (rule 2)`, `faults in --config <file> (rule 2)`, `--keys <file>`, `keys in --config <file>`.
 * (`--key` is checked as it is parsed.)
 */
function optionOrigin(error: SimulatorOptionError, options: CliOptions, config: ConfigData): string {
  const listed = (key: 'faults' | 'keys', flag: string, file: string | undefined) => {
    if (!config.set.includes(key)) return `${flag} ${file}`
    return `${key} in --config ${config.path}${config.inline[key] === undefined ? ` (${file})` : ''}`
  }
  if (error.option === 'keys') return listed('keys', '--keys', options.keys)
  const fromFile = config.inline.faults ?? (options.faults === undefined ? [] : readJsonFile(options.faults, '--faults'))
  const inFile = Array.isArray(fromFile) ? fromFile.length : 0
  const index = error.index ?? 0
  if (index >= inFile) return `--fault ${JSON.stringify(options.fault[index - inFile])}`
  return `${listed('faults', '--faults', options.faults)}, rule ${index + 1}`
}

function failWith(message: string): void {
  process.stderr.write(`petstore-sim: ${message}\n`)
  process.exitCode = usageExitCode
}
