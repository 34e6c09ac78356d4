import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CommanderError } from 'commander'
import type { RequestHandler } from 'msw'
import { defaults } from '../core/defaults.ts'
import type { FaultRuleInput } from '../core/faults/fault-rules.ts'
import { parseFaultText } from '../core/faults/fault-text.ts'
import { demoKeySpec, type ReconfigurableOptions } from '../core/simulator/simulator-core.ts'
import { SimulatorOptionError } from '../core/state/state-control.ts'
import { adminTokenProblem } from '../app/control/control-guard.ts'
import { readInputFile, unreadableReason } from '../node/input-file.ts'
import { anyHost, isLoopbackBindAddress } from '../core/access/host-policy.ts'
import { createNodeApp } from '../node/node-app.ts'
import { createRequestLogger } from '../node/request-log.ts'
import { startServer, type RunningServer, type StartServerOptions } from '../node/server.ts'
import { createProgram, type CliOptions } from './cli-options.ts'
import { applyConfigFile, defaultConfigFile, type ConfigData } from './config-file.ts'
import { cliSecrets, type CliSecrets } from './cli-secrets.ts'
import { guardStandardOutput, type GuardedOutput } from './guarded-output.ts'
import { runVerifyCommand, verifyHelpLine } from './verify-command.ts'
import { watchInputs, type WatchedInputs } from './watch.ts'
import { coverageMarkdown, coverageSummary } from '../core/journal/contract-coverage.ts'

/** Exit code for bad flags, unreadable files and a port that cannot be bound. */
export const usageExitCode = 2

/** Exit code at shutdown when `--state`, `--coverage` or `--pact` could not be written: the run itself went well. */
const notSavedExitCode = 1

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
    running = await startServer(await toServerOptions(options, config, output, secrets))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') return fail(`port ${options.port} on ${options.host} is already in use (try --port 0 for a free port)`)
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return fail(`cannot bind to --host ${options.host}`)
    if (error instanceof SimulatorOptionError) return fail(`${optionOrigin(error, options, config)}: ${error.problem}`)
    return fail((error as Error).message)
  }
  printBanner(running, options, config, output)
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
 * The user's MSW handlers: a module's default export or its `handlers` export, an array of handlers. A handler is
 * what msw's `getResponse` can call: an object with a `run` method (its only call, `executeHandlers` in msw 2 and 3),
 * so handlers from another copy of msw pass; `[{ run: 1 }]` passed the old `'run' in handler` and made every request
 * a 500. The import is bounded by `defaults.handlersLoadTimeoutMs`: a top-level await that never settled hung
 * start-up silently (with a timer running) or ended it with Node's exit 13.
 */
async function loadHandlers(path: string): Promise<RequestHandler[]> {
  let module: { default?: unknown; handlers?: unknown }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>(() => {
    timer = setTimeout(() => {
      // The import cannot be cancelled, and the module's own timers would keep the process alive after the usage error.
      process.stderr.write(`petstore-sim: --handlers: ${path} did not finish loading within ${defaults.handlersLoadTimeoutMs} ms\n`)
      process.exit(usageExitCode)
    }, defaults.handlersLoadTimeoutMs)
  })
  try {
    module = (await Promise.race([import(pathToFileURL(resolve(path)).href), timeout])) as typeof module
  } catch (error) {
    throw new UsageError(`--handlers: cannot load ${path} (${(error as Error).message.split('\n', 1)[0]})`)
  } finally {
    clearTimeout(timer)
  }
  const handlers = module.handlers ?? module.default
  const invalid = Array.isArray(handlers) ? handlers.findIndex((handler) => !isRequestHandler(handler)) : -1
  if (!Array.isArray(handlers) || invalid !== -1) {
    const which = invalid === -1 ? '' : ` (entry ${invalid} has no run method)`
    throw new UsageError(`--handlers: ${path} must export an array of MSW handlers, as its default export or as "handlers"${which}`)
  }
  return handlers as RequestHandler[]
}

function isRequestHandler(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { run?: unknown }).run === 'function'
}

/** The rules of `--faults` (a JSON array), then those of each `--fault` (the short text form). */
function readFaults(options: CliOptions, config: ConfigData): FaultRuleInput[] {
  const rules: FaultRuleInput[] = []
  if (config.inline.faults !== undefined || options.faults !== undefined) {
    const data = config.inline.faults ?? readJsonFile(options.faults!, '--faults')
    if (!Array.isArray(data))
      throw new UsageError(`--faults ${options.faults ?? '(in the config file)'} must hold a JSON array of fault rules`)
    rules.push(...(data as FaultRuleInput[]))
  }
  for (const text of options.fault) {
    try {
      rules.push(parseFaultText(text, options.basePath))
    } catch (error) {
      throw new UsageError(`--fault: ${(error as Error).message}`)
    }
  }
  return rules
}

function readKeys(options: CliOptions, config: ConfigData, secrets: CliSecrets | undefined): Record<string, string> | undefined {
  const keys: Record<string, string> = {}
  if (config.inline.keys !== undefined || options.keys !== undefined) {
    const data = config.inline.keys ?? readJsonFile(options.keys!, '--keys')
    // Its tokens are secrets from now on, also in the message that refuses one of them.
    if (typeof data === 'object' && data !== null) secrets?.add(Object.keys(data))
    if (
      typeof data !== 'object' ||
      data === null ||
      Array.isArray(data) ||
      !Object.values(data).every((plan) => typeof plan === 'string')
    ) {
      throw new UsageError(`--keys ${options.keys ?? '(in the config file)'} must hold a JSON object of "token": "plan"`)
    }
    Object.assign(keys, data)
  }
  for (const entry of options.key) {
    const separator = entry.lastIndexOf('=')
    keys[entry.slice(0, separator)] = entry.slice(separator + 1)
  }
  return Object.keys(keys).length > 0 ? keys : undefined
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

function readJsonFile(path: string, flag: string): unknown {
  let text: string
  try {
    // Regular files within the cap only: /dev/zero or a FIFO as --keys read without end, or hung start-up.
    text = readInputFile(path, defaults.maxInputFileBytes)
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path} (${unreadableReason(error)})`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${flag}: ${path} is not valid JSON (${(error as Error).message})`)
  }
}

function printBanner(running: RunningServer, options: CliOptions, config: ConfigData, output: GuardedOutput): void {
  const usingDemoKeys = options.key.length === 0 && options.keys === undefined && config.inline.keys === undefined
  const keys = running.simulator.keys.map((key) => ({
    key: usingDemoKeys && key.token in demoKeySpec ? key.token : key.fingerprint,
    plan: key.planLabel,
    perMinute: key.plan.perMinute,
    perDay: key.plan.perDay,
  }))
  const headline = `petstore-sim listening on ${running.apiUrl}`
  const control = `${running.url}/__sim`
  if (options.log === 'json') {
    output.writeLine(
      JSON.stringify({
        time: new Date().toISOString(),
        message: headline,
        url: running.url,
        apiUrl: running.apiUrl,
        control,
        dashboard: `${control}/`,
        keys,
        // The config file read, if any: one found in the working directory is applied without a flag naming it.
        ...(config.path === undefined ? {} : { config: resolve(config.path) }),
      }),
    )
    return
  }
  const lines = [headline]
  if (options.log === 'pretty') {
    lines.push(usingDemoKeys ? 'Demo API keys (send "Authorization: Bearer <key>"):' : 'API keys (fingerprints; the keys are yours):')
    for (const key of keys) lines.push(`  ${key.key.padEnd(22)} ${key.plan.padEnd(24)} ${key.perMinute}/min, ${key.perDay}/day`)
    lines.push(
      `Control endpoints: ${control}/health, /reset, /clock, /requests, /faults, /snapshot, /scenario (${options.adminToken === undefined ? 'loopback clients only' : 'with the admin token'})`,
    )
    if (config.path !== undefined) {
      // Without --config, the file in the working directory is read unasked: say so, and how to tell it apart.
      const found = options.config === undefined ? ' (found in the working directory; --config <file> names another)' : ''
      lines.push(`Config file: ${resolve(config.path)}${found}`)
    }
    if (running.simulator.scenario !== 'default') lines.push(`Scenario: ${running.simulator.scenario}`)
    if (options.state !== undefined)
      lines.push(`State file: ${options.state} (saved on exit, and every ${options.stateInterval} ms after a change)`)
    lines.push(`OpenAPI document: ${running.url}/openapi.json (or .yaml)`)
    lines.push(`Dashboard: ${control}/ (keys, limits, requests, clock and faults, live in the browser)`)
  }
  output.writeLine(lines.join('\n'))
}

function stopOnSignals(running: RunningServer, options: CliOptions, output: GuardedOutput): void {
  let stopping = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(signal === 'SIGINT' ? 130 : 143)
    }
    stopping = true
    if (options.log === 'pretty') output.writeLine(`${signal}: finishing requests in flight, then stopping`)
    running
      .close(defaults.shutdownGraceMs)
      .catch((error: Error) => {
        // The last save of --state (the one close() may fail on): one line and a documented exit code, never a stack.
        process.stderr.write(`petstore-sim: ${error.message}; the state of this run is not saved\n`)
        process.exitCode = notSavedExitCode
      })
      .then(() => {
        reportCoverage(running, options, output)
        writePact(running, options)
        process.exit(process.exitCode ?? 0)
      })
  }
  process.on('SIGINT', onSignal)
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

/** At shutdown: the journal as a Pact 4 file to `--pact <file>` (docs/pact.md). */
function writePact(running: RunningServer, options: CliOptions): void {
  if (options.pact === undefined) return
  try {
    const pact = running.simulator.journal.toPact({ consumer: options.pactConsumer, provider: options.pactProvider })
    writeFileSync(options.pact, `${JSON.stringify(pact, null, 2)}\n`)
  } catch (error) {
    process.stderr.write(`petstore-sim: --pact: cannot write ${options.pact} (${(error as Error).message})\n`)
    process.exitCode = notSavedExitCode
  }
}

class UsageError extends Error {}

function failWith(message: string): void {
  process.stderr.write(`petstore-sim: ${message}\n`)
  process.exitCode = usageExitCode
}
