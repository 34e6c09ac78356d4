import { dirname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { RequestHandler } from 'msw'
import { defaults } from '../core/defaults.ts'
import type { FaultRuleInput } from '../core/faults/fault-rules.ts'
import { parseFaultText } from '../core/faults/fault-text.ts'
import { checkMappedProviderStates, type MappedProviderStates } from '../core/simulator/mapped-provider-states.ts'
import { builtInScenarios } from '../core/state/scenarios.ts'
import { readInputFile, unreadableReason } from '../node/input-file.ts'
import type { CliOptions } from './cli-options.ts'
import type { ConfigData } from './config-file.ts'
import type { CliSecrets } from './cli-secrets.ts'
import { UsageError, usageExitCode } from './cli-usage-error.ts'

/** How long `--handlers` may take to load, and what giving up does (the CLI's: {@link cliHandlersLoad}). */
export interface HandlersLoad {
  readonly timeoutMs: number
  /** Called with the message once `timeoutMs` have passed; when it returns, the load fails with that message. */
  readonly onTimeout: (message: string) => void
}

/**
 * The CLI gives up on a module after `defaults.handlersLoadTimeoutMs` by exiting: the import cannot be cancelled, and
 * the module's own timers would keep the process alive after the usage error.
 */
const cliHandlersLoad: HandlersLoad = {
  timeoutMs: defaults.handlersLoadTimeoutMs,
  onTimeout: (message) => {
    process.stderr.write(`petstore-sim: ${message}\n`)
    process.exit(usageExitCode)
  },
}

/**
 * The user's MSW handlers: a module's default export or its `handlers` export, an array of handlers. A handler is
 * what msw's `getResponse` can call: an object with a `run` method (its only call, `executeHandlers` in msw 2 and 3),
 * so handlers from another copy of msw pass; `[{ run: 1 }]` passed the old `'run' in handler` and made every request
 * a 500. The import is bounded (`load.timeoutMs`): a top-level await that never settled hung start-up silently (with a
 * timer running) or ended it with Node's exit 13.
 */
export async function loadHandlers(path: string, load: HandlersLoad = cliHandlersLoad): Promise<RequestHandler[]> {
  let module: { default?: unknown; handlers?: unknown }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const message = `--handlers: ${path} did not finish loading within ${load.timeoutMs} ms`
      load.onTimeout(message)
      reject(new UsageError(message))
    }, load.timeoutMs)
  })
  try {
    module = (await Promise.race([import(pathToFileURL(resolve(path)).href), timeout])) as typeof module
  } catch (error) {
    if (error instanceof UsageError) throw error
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
export function readFaults(options: CliOptions, config: ConfigData): FaultRuleInput[] {
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

export function readKeys(options: CliOptions, config: ConfigData, secrets: CliSecrets | undefined): Record<string, string> | undefined {
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

export function readJsonFile(path: string, flag: string): unknown {
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

/**
 * The team's provider states (`--provider-states <file>`, or `providerStates` in the config file, inline or a file's
 * path), each `snapshot` file read (relative to the file that names it), checked whole: a one-line usage error
 * naming the state and its field otherwise.
 */
export function readProviderStates(options: CliOptions, config: ConfigData): MappedProviderStates | undefined {
  const inline = config.inline.providerStates
  if (inline === undefined && options.providerStates === undefined) return undefined
  const where = inline !== undefined ? `providerStates in --config ${config.path}` : `--provider-states ${options.providerStates}`
  const data = inline ?? readJsonFile(options.providerStates!, '--provider-states')
  const folder = dirname(resolve(inline !== undefined ? config.path! : options.providerStates!))
  const fail = (message: string): never => {
    throw new UsageError(`${where}: ${message}`)
  }
  const withSnapshots =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? Object.fromEntries(
          Object.entries(data as Record<string, unknown>).map(([name, entry]) => {
            const snapshot = typeof entry === 'object' && entry !== null ? (entry as { snapshot?: unknown }).snapshot : undefined
            if (snapshot === undefined) return [name, entry]
            if (typeof snapshot !== 'string') fail(`${JSON.stringify(name)}.snapshot: must be a snapshot file's path`)
            const file = resolve(folder, snapshot as string)
            return [name, { ...(entry as object), snapshot: readJsonFile(file, `${where}: ${JSON.stringify(name)}.snapshot`) }]
          }),
        )
      : data
  const scenarios = [...new Set([...Object.keys(builtInScenarios), ...Object.keys(config.scenarios ?? {})])]
  try {
    return checkMappedProviderStates(withSnapshots, scenarios)
  } catch (error) {
    return fail((error as Error).message)
  }
}
