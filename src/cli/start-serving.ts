import { CommanderError } from 'commander'
import type { AppOptions } from '../app/app.ts'
import type { ReconfigurableOptions } from '../core/simulator/simulator-core.ts'
import { SimulatorOptionError } from '../core/state/state-control.ts'
import { anyHost, isLoopbackBindAddress } from '../core/access/host-policy.ts'
import { createNodeApp } from '../node/node-app.ts'
import { createRequestLogger } from '../node/request-log.ts'
import type { SharedStore } from '../node/shared-store/connect-store.ts'
import { startServer, type RunningServer, type StartServerOptions } from '../node/server.ts'
import { loadHandlers, readFaults, readJsonFile, readKeys, readProviderStates } from './cli-inputs.ts'
import type { CliOptions } from './cli-options.ts'
import type { CliSecrets } from './cli-secrets.ts'
import { UsageError, usageExitCode } from './cli-usage-error.ts'
import type { ConfigData } from './config-file.ts'
import type { GuardedOutput } from './guarded-output.ts'

/** Exit code of a start that failed on something outside the command line: the shared store cannot be used. */
export const startFailedExitCode = 1

/** A simulator serving, and the store it serves from (`--store`). */
export interface Serving {
  readonly running: RunningServer
  readonly store: SharedStore | undefined
}

/**
 * Starts serving as the flags say: with `--store`, connects to the store first (the module and its Redis client are
 * loaded only then), builds the app on it, attaches it (the default world seeded once, or adopted), then listens.
 */
export async function startServing(
  options: CliOptions,
  config: ConfigData,
  output: GuardedOutput,
  secrets: CliSecrets,
  worker?: { readonly slot: number; readonly port: number | undefined } | undefined,
): Promise<Serving> {
  // In a fleet, the first worker alone reports retries: the others wait on the same store.
  const reportRetries = worker === undefined || worker.slot === 0
  const store = options.store === undefined ? undefined : await connectCliStore(options, output, secrets, reportRetries)
  const port = worker?.port
  try {
    const serverOptions = await toServerOptions(options, config, output, secrets, { appOptions: store?.appOptions, port })
    await store?.attach(serverOptions.app!)
    return { running: await startServer(serverOptions), store }
  } catch (error) {
    await store?.close()
    throw error
  }
}

/**
 * `--store`: the shared store's module, imported here and only here, so a simulator without a store never loads it
 * nor the Redis client. Each retry at start is a line, and so is each of the store's events while serving (lost, back,
 * a world seeded again): on stderr with the pretty log, a JSON line with `--log json`.
 */
async function connectCliStore(
  options: CliOptions,
  output: GuardedOutput,
  secrets: CliSecrets,
  reportRetries: boolean,
): Promise<SharedStore> {
  const { connectStore } = await import('../node/shared-store/connect-store.ts')
  return connectStore({
    url: options.store!,
    namespace: options.storeNamespace,
    timeoutMs: options.storeTimeout,
    waitMs: options.storeWait,
    onRetry: (attempt, cause) => {
      if (!reportRetries) return
      const message = `the shared store does not answer yet (${secrets.scrub(cause)}); attempt ${attempt}, retrying for up to ${options.storeWait} ms in all`
      if (options.log === 'json') output.writeLine(JSON.stringify({ time: new Date().toISOString(), level: 'warn', message, attempt }))
      else if (options.log === 'pretty') process.stderr.write(`petstore-sim: ${message}\n`)
    },
    // The store lost and back, a world it lost seeded again: by every process, each has its own link to the store.
    onEvent: ({ event, level, message }) => {
      if (options.log === 'json') output.writeLine(JSON.stringify({ time: new Date().toISOString(), level, message, event }))
      else if (options.log === 'pretty') process.stderr.write(`petstore-sim: ${message}\n`)
    },
  })
}

/**
 * Checks the inputs as a start would, without listening: the primary of `--workers` does, so that a bad `--keys`
 * file is one usage error before any worker is forked.
 */
export async function checkInputs(options: CliOptions, config: ConfigData, output: GuardedOutput, secrets: CliSecrets): Promise<void> {
  await toServerOptions(options, config, output, secrets)
}

/** Said once at start, by the process the user started (never by each worker). */
export function warnAboutOptions(options: CliOptions): void {
  if (options.allowedHost.includes(anyHost)) {
    process.stderr.write(
      "petstore-sim: warning: --allowed-host '*' accepts every Host name: a web page can reach this simulator by DNS rebinding\n",
    )
  }
}

/** What a failed start prints (one line) and its exit code. */
export function startFailure(error: unknown, options: CliOptions, config: ConfigData): { message: string; exitCode: number } {
  const code = (error as NodeJS.ErrnoException).code
  const usage = (message: string) => ({ message, exitCode: usageExitCode })
  if (error instanceof CommanderError) return usage(error.message.replace(/^error: /, ''))
  if (code === 'EADDRINUSE') return usage(`port ${options.port} on ${options.host} is already in use (try --port 0 for a free port)`)
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return usage(`cannot bind to --host ${options.host}`)
  if (error instanceof SimulatorOptionError) return usage(`${optionOrigin(error, options, config)}: ${error.problem}`)
  // The store's own one line (connect-store.ts); its class is compared by name: the module is loaded only with --store.
  if ((error as Error).name === 'StoreStartError') return { message: (error as Error).message, exitCode: startFailedExitCode }
  return usage((error as Error).message)
}

/** The options the simulator can take again without a restart (`--watch`), each file read. */
export function reloadableOptions(options: CliOptions, config: ConfigData, secrets?: CliSecrets): ReconfigurableOptions {
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

async function toServerOptions(
  options: CliOptions,
  config: ConfigData,
  output: GuardedOutput,
  secrets: CliSecrets | undefined,
  sharing: { readonly appOptions?: Partial<AppOptions> | undefined; readonly port?: number | undefined } = {},
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
    control: {
      ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
      allowedHosts: options.allowedHost,
      providerStates: readProviderStates(options, config),
    },
    prefer: options.prefer,
    corsOrigins: options.corsOrigin,
    maxPets: options.maxPets,
    sandboxes: { max: options.maxSandboxes, idleMs: options.sandboxIdle, header: options.sandboxHeader === true },
    // Bound to loopback, the Host of every request is checked (DNS rebinding); bound to the network, clients use
    // whatever name reaches the machine, and the control plane alone keeps its own check.
    allowedHosts: isLoopbackBindAddress(options.host) ? options.allowedHost : undefined,
    // Last: with --store, every world (the default one and the sandboxes) lives in the store.
    ...sharing.appOptions,
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
    trustProxy: options.trustProxy,
    // A worker restarted under --workers listens where the fleet does, --port 0 included.
    port: sharing.port ?? options.port,
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
