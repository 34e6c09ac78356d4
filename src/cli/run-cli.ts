import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CommanderError } from 'commander'
import type { RequestHandler } from 'msw'
import { defaults } from '../core/simulator/defaults.ts'
import type { FaultRuleInput } from '../core/faults/fault-rules.ts'
import { parseFaultText } from '../core/faults/fault-text.ts'
import { demoKeySpec } from '../core/simulator/simulator-core.ts'
import { createApp, startServer, type RunningServer, type StartServerOptions } from '../node/server.ts'
import { createProgram, type CliOptions } from './cli-options.ts'
import { guardStandardOutput, type GuardedOutput } from './guarded-output.ts'
import { createRequestLogger } from '../node/request-log.ts'

/** Exit code for bad flags, unreadable files and a port that cannot be bound. */
export const usageExitCode = 2

/**
 * Runs `petstore-sim` with the given arguments: parses the flags (and the
 * `PETSTORE_SIM_*` environment), starts the server, prints where it listens
 * and the keys in force, and stops gracefully on SIGINT or SIGTERM.
 */
export async function runCli(argv: readonly string[]): Promise<void> {
  let options: CliOptions
  const output = guardStandardOutput()
  const program = createProgram()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: (text) => output.writeLine(text.replace(/\n$/, '')) })
  try {
    options = program.parse(argv, { from: 'user' }).opts<CliOptions>()
  } catch (error) {
    if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')) return
    return fail(error instanceof CommanderError ? error.message.replace(/^error: /, '') : String(error))
  }

  let running: RunningServer
  try {
    running = await startServer(await toServerOptions(options, output))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') return fail(`port ${options.port} on ${options.host} is already in use (try --port 0 for a free port)`)
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return fail(`cannot bind to --host ${options.host}`)
    return fail((error as Error).message)
  }
  printBanner(running, options, output)
  output.serving()
  stopOnSignals(running, options, output)
}

async function toServerOptions(options: CliOptions, output: GuardedOutput): Promise<StartServerOptions> {
  const app = createApp({
    seed: options.seed,
    pets: options.pets,
    fixtures: options.fixtures === undefined ? undefined : readJsonFile(options.fixtures, '--fixtures'),
    keys: readKeys(options),
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
    faults: readFaults(options),
    corsOrigins: options.corsOrigin,
    maxPets: options.maxPets,
  })
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
  }
}

/** The user's MSW handlers: a module's default export or its `handlers` export, an array of handlers. */
async function loadHandlers(path: string): Promise<RequestHandler[]> {
  let module: { default?: unknown; handlers?: unknown }
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as typeof module
  } catch (error) {
    throw new UsageError(`--handlers: cannot load ${path} (${(error as Error).message.split('\n', 1)[0]})`)
  }
  const handlers = module.handlers ?? module.default
  if (!Array.isArray(handlers) || !handlers.every((handler) => typeof handler === 'object' && handler !== null && 'run' in handler)) {
    throw new UsageError(`--handlers: ${path} must export an array of MSW handlers, as its default export or as "handlers"`)
  }
  return handlers as RequestHandler[]
}

/** The rules of `--faults` (a JSON array), then those of each `--fault` (the short text form). */
function readFaults(options: CliOptions): FaultRuleInput[] {
  const rules: FaultRuleInput[] = []
  if (options.faults !== undefined) {
    const data = readJsonFile(options.faults, '--faults')
    if (!Array.isArray(data)) throw new UsageError(`--faults ${options.faults} must hold a JSON array of fault rules`)
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

function readKeys(options: CliOptions): Record<string, string> | undefined {
  const keys: Record<string, string> = {}
  if (options.keys !== undefined) {
    const data = readJsonFile(options.keys, '--keys')
    if (
      typeof data !== 'object' ||
      data === null ||
      Array.isArray(data) ||
      !Object.values(data).every((plan) => typeof plan === 'string')
    ) {
      throw new UsageError(`--keys ${options.keys} must hold a JSON object of "token": "plan"`)
    }
    Object.assign(keys, data)
  }
  for (const entry of options.key) {
    const separator = entry.lastIndexOf('=')
    keys[entry.slice(0, separator)] = entry.slice(separator + 1)
  }
  return Object.keys(keys).length > 0 ? keys : undefined
}

function readJsonFile(path: string, flag: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${flag}: ${path} is not valid JSON (${(error as Error).message})`)
  }
}

function printBanner(running: RunningServer, options: CliOptions, output: GuardedOutput): void {
  const usingDemoKeys = options.key.length === 0 && options.keys === undefined
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
      }),
    )
    return
  }
  const lines = [headline]
  if (options.log === 'pretty') {
    lines.push(usingDemoKeys ? 'Demo API keys (send "Authorization: Bearer <key>"):' : 'API keys (fingerprints; the keys are yours):')
    for (const key of keys) lines.push(`  ${key.key.padEnd(22)} ${key.plan.padEnd(24)} ${key.perMinute}/min, ${key.perDay}/day`)
    lines.push(
      `Control endpoints: ${control}/health, /reset, /clock, /requests, /faults (${options.adminToken === undefined ? 'loopback clients only' : 'with the admin token'})`,
    )
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
    running.close(defaults.shutdownGraceMs).then(() => process.exit(0))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

class UsageError extends Error {}

function fail(message: string): void {
  process.stderr.write(`petstore-sim: ${message}\n`)
  process.exitCode = usageExitCode
}
