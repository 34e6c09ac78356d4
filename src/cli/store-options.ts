import { type Command, InvalidArgumentError } from 'commander'
import { defaults } from '../core/defaults.ts'
import { parseDuration } from '../core/time/duration.ts'
import { parseStoreUrl as readStoreAddress, withEncodedPassword } from '../node/store-url.ts'
import { wholeNumber } from './cli-flag-parsers.ts'
import { UsageError } from './cli-usage-error.ts'
import type { OptionTools } from './state-options.ts'

/** The flags of the shared store and of workers (docs/sharing.md), as the command line gives them. */
export interface StoreCliOptions {
  store?: string
  storeNamespace: string
  storeTimeout: number
  storeWait: number
  workers: number
}

/**
 * The most `--workers`: each is a whole process (about 120 MB of memory at start, and a connection to the store), so more workers
 * than cores only compete for them; 64 covers the largest machines in common use and keeps a typo (`--workers 1000`)
 * from forking a thousand processes.
 */
export const maxWorkers = 64

/** Adds the flags of the shared store and of workers to the command, after the others. */
export function withStoreOptions(program: Command, { option }: Pick<OptionTools, 'option'>): Command {
  return program
    .addOption(
      option(
        '--store <url>',
        'keep the state in a shared store (Redis or Valkey: redis://[user:pass@]host[:port][/db], rediss://…, unix:///path/to/socket) so that several simulators answer as one API',
        'STORE',
      ).argParser(parseStoreUrl),
    )
    .addOption(
      option('--store-namespace <name>', 'the prefix of every key in the store: several fakes can share one Redis', 'STORE_NAMESPACE')
        .argParser(parseNamespace)
        .default(defaults.store.namespace),
    )
    .addOption(
      option(
        '--store-timeout <ms>',
        'the longest a request waits on the store, in milliseconds (or with a unit: 2s); past it the API answers 503',
        'STORE_TIMEOUT',
      )
        .argParser(milliseconds('store-timeout', 1, 60_000))
        .default(defaults.store.timeoutMs),
    )
    .addOption(
      option(
        '--store-wait <ms>',
        'how long start-up retries an unreachable store, in milliseconds (or with a unit: 30s), before it exits with one line',
        'STORE_WAIT',
      )
        .argParser(milliseconds('store-wait', 0, 3_600_000))
        .default(defaults.store.waitMs),
    )
    .addOption(
      option('--workers <n>', `processes serving the port (Node's cluster), 1 to ${maxWorkers}; more than 1 needs --store`, 'WORKERS')
        .argParser(wholeNumber('workers', 1, maxWorkers))
        .default(defaults.workers),
    )
}

const storeSchemes = ['redis:', 'rediss:', 'unix:']

/**
 * `--store`: a URL the store can be reached at, checked for its form only (reaching it is start-up's job). A message
 * never repeats the URL: it may hold a password.
 */
export function parseStoreUrl(value: string): string {
  const given = withEncodedPassword(value.trim())
  const url = URL.canParse(given) ? new URL(given) : undefined
  if (url === undefined || !storeSchemes.includes(url.protocol)) {
    throw new InvalidArgumentError('expected redis://[user:pass@]host[:port][/db], rediss://… or unix:///path/to/socket.')
  }
  if (url.protocol === 'unix:' && (url.host !== '' || url.pathname === '' || url.pathname === '/')) {
    throw new InvalidArgumentError('expected unix:///path/to/socket (three slashes, then the absolute path).')
  }
  if (url.protocol !== 'unix:' && url.hostname === '') throw new InvalidArgumentError(`expected a host: ${url.protocol}//host[:port].`)
  // The rest as the store reads it (its database number, its socket path): a form the flag lets through never fails
  // at start instead. Its messages name no password.
  try {
    readStoreAddress(value.trim())
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}.`)
  }
  return value.trim()
}

/** Letters, digits, `.`, `_`, `-`: no `:` (it separates the key's parts) and no `{`/`}` (they enclose a world's name in its keys). */
function parseNamespace(value: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(value)) {
    throw new InvalidArgumentError('expected 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit.')
  }
  return value
}

/**
 * Milliseconds, as the flag's name says (`1000`), or a duration with its unit (`1s`, `500ms`): the simulator's one
 * duration grammar (`parseDuration`), whose bare number is milliseconds.
 */
function milliseconds(name: string, min: number, max: number) {
  return (value: string): number => {
    let number = Number.NaN
    try {
      number = parseDuration(value)
    } catch {
      // Reported below, with the flag's range.
    }
    if (!(number >= min && number <= max)) {
      throw new InvalidArgumentError(`--${name} must be a whole number of milliseconds from ${min} to ${max} (or with a unit: 2s, 500ms).`)
    }
    return number
  }
}

/** Where an option's value came from, as the user wrote it: `--workers 2`, `PETSTORE_SIM_WORKERS=2`, `workers: 2 in --config <file>`. */
function origin(program: Command, key: string, shown: string, configPath: string | undefined): string {
  const option = program.options.find((candidate) => candidate.attributeName() === key)!
  const source = program.getOptionValueSource(key)
  if (source === 'env') return `${option.envVar}${shown === '' ? '' : `=${shown}`}`
  if (source === 'config') return `${key}${shown === '' ? '' : `: ${shown}`} in --config ${configPath}`
  return `${option.long}${shown === '' ? '' : ` ${shown}`}`
}

/**
 * The combinations start-up refuses, each with why: workers without a store (each would count rate limits on its
 * own: a limit of 60/min would let 120 through two workers), and, with a store, `--state` (the store keeps the state)
 * and `--watch` (a reload on one instance would not reach the others).
 */
export function refuseStoreConflicts(
  program: Command,
  options: StoreCliOptions & { state?: string | undefined; watch?: boolean | undefined },
  configPath: string | undefined,
): void {
  const store = options.store === undefined ? undefined : origin(program, 'store', '', configPath)
  if (store === undefined && options.workers > 1) {
    throw new UsageError(
      `${origin(program, 'workers', String(options.workers), configPath)} needs --store: each worker would count rate limits on its own`,
    )
  }
  if (store === undefined) return
  if (options.state !== undefined) {
    // The image sets PETSTORE_SIM_STATE (a /data volume); a replica given a store must say it wants none.
    const remedy = program.getOptionValueSource('state') === 'env' ? '; set PETSTORE_SIM_STATE empty to start without a file' : ''
    throw new UsageError(
      `${origin(program, 'state', '', configPath)} cannot be used with ${store}: the store keeps the state (take snapshots with GET /__sim/snapshot${remedy})`,
    )
  }
  if (options.watch === true) {
    throw new UsageError(
      `${origin(program, 'watch', '', configPath)} cannot be used with ${store}: a reload on one instance would not reach the others`,
    )
  }
}
