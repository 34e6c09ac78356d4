import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Command, Option } from 'commander'
import { defaults } from '../core/defaults.ts'
import { scenarioTable, type ScenarioDefinition } from '../core/state/scenarios.ts'
import { readInputFile, unreadableReason } from '../node/input-file.ts'

/** The file read from the working directory when there is no `--config`. */
export const defaultConfigFile = 'petstore-sim.config.json'

/** Keys whose value may be the data itself instead of a file's path, as the flag's file would hold it. */
const inlineDataKeys = ['keys', 'faults', 'fixtures', 'providerStates'] as const
type InlineDataKey = (typeof inlineDataKeys)[number]

/** Keys that name files: a relative path in the config file is relative to the config file. */
const pathKeys = new Set(['fixtures', 'keys', 'faults', 'handlers', 'state', 'providerStates'])

/** What the config file adds to the flags: the data given inline, and the user's scenarios. */
export interface ConfigData {
  /** The config file read, if any. */
  readonly path: string | undefined
  readonly inline: Partial<Record<InlineDataKey, unknown>>
  readonly scenarios: Readonly<Record<string, ScenarioDefinition>> | undefined
  /** The options the file set (its keys that no flag or environment variable overrode), so that a message can name them. */
  readonly set: readonly string[]
}

/** A config file that cannot be read or holds an unknown key or a bad value: the CLI exits 2 with this message. */
export class ConfigFileError extends Error {}

/**
 * Reads the config file (`--config`, else `petstore-sim.config.json` in the
 * working directory when present) into the parsed program: a key sets its
 * option only where neither a flag nor an environment variable did, so the
 * order is flags, then environment, then the file, then the defaults.
 *
 * Every flag's key is its camelCase name (`--ban-after` -> `banAfter`), and
 * its value goes through the flag's own parser, so the file accepts exactly
 * what the flag accepts (numbers may be JSON numbers, repeatable flags
 * arrays). `keys`, `faults`, `fixtures` and `providerStates` may also hold the data inline;
 * `scenarios` holds the user's scenarios; `$schema` is ignored.
 */
export function applyConfigFile(program: Command, configFlag: string | undefined, workingDirectory = process.cwd()): ConfigData {
  const path = configFlag ?? (existsSync(resolve(workingDirectory, defaultConfigFile)) ? defaultConfigFile : undefined)
  if (path === undefined) return { path, inline: {}, scenarios: undefined, set: [] }
  const fullPath = resolve(workingDirectory, path)
  const fail = (message: string): never => {
    throw new ConfigFileError(`--config ${path}: ${message}`)
  }
  let text = ''
  try {
    text = readInputFile(fullPath, defaults.maxInputFileBytes)
  } catch (error) {
    fail(`cannot read it (${unreadableReason(error)})`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    fail(`not valid JSON (${(error as Error).message})`)
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('must hold a JSON object')

  const options = new Map(configurableOptions(program).map((option) => [option.attributeName(), option]))
  const entries = Object.entries(data as Record<string, unknown>).filter(([key]) => key !== '$schema')
  const unknown = entries.map(([key]) => key).filter((key) => key !== 'scenarios' && !options.has(key))
  if (unknown.length > 0)
    fail(`unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (the keys are the flags in camelCase, and scenarios)`)

  const inline: Partial<Record<InlineDataKey, unknown>> = {}
  const set: string[] = []
  let scenarios: Record<string, ScenarioDefinition> | undefined
  for (const [key, value] of entries) {
    if (key === 'scenarios') {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('scenarios: must be an object of name -> scenario')
      try {
        scenarioTable(value as Record<string, ScenarioDefinition>)
      } catch (error) {
        fail(`scenarios: ${(error as Error).message}`)
      }
      scenarios = value as Record<string, ScenarioDefinition>
      continue
    }
    const option = options.get(key)!
    const source = program.getOptionValueSource(key)
    // A flag or an environment variable said otherwise: it wins, but a bad value in the file is reported all the
    // same (it was silently ignored, and broke the next run without the flag).
    const overridden = source === 'cli' || source === 'env'
    if (!overridden) set.push(key)
    if ((inlineDataKeys as readonly string[]).includes(key) && typeof value === 'object' && value !== null) {
      if (!overridden) inline[key as InlineDataKey] = value
      continue
    }
    let parsed: unknown
    try {
      parsed = readValue(option, value, overridden ? option.defaultValue : program.getOptionValue(key))
    } catch (error) {
      fail(`${key}: ${(error as Error).message.replace(/^error: /, '')}`)
    }
    if (overridden) continue
    program.setOptionValueWithSource(key, pathKeys.has(key) ? resolve(dirname(fullPath), parsed as string) : parsed, 'config')
  }
  return { path, inline, scenarios, set }
}

/** The options a config file may set: every flag but help, version and `--config` itself. */
export function configurableOptions(program: Command): Option[] {
  return program.options.filter((option) => !['--help', '--version', '--config'].includes(option.long ?? ''))
}

/** A value from the file, read as the flag reads its text: through its parser, or its choices, or as a boolean for a switch. */
function readValue(option: Option, value: unknown, current: unknown): unknown {
  if (option.negate || option.isBoolean()) {
    // `prefer: false` is `--no-prefer`: the key is the attribute, whose value the switch sets.
    if (typeof value !== 'boolean') throw new Error('must be true or false')
    return value
  }
  // Repeatable flags take an array (or one value), each element parsed in turn onto what came before.
  if (Array.isArray(current)) {
    let collected: unknown = []
    for (const element of Array.isArray(value) ? value : [value]) collected = parseOne(option, element, collected)
    return collected
  }
  return parseOne(option, value, undefined)
}

function parseOne(option: Option, value: unknown, previous: unknown): unknown {
  let text: string
  if (typeof value === 'string') text = value
  // A JSON number for a duration is milliseconds (the schema's integer), where the flag's text needs its unit.
  else if (typeof value === 'number' && Number.isFinite(value)) text = option.flags.endsWith('<duration>') ? `${value}ms` : String(value)
  else if (option.long === '--latency' && typeof value === 'object' && value !== null) {
    const { min, max } = value as { min?: unknown; max?: unknown }
    text = `${String(min)}-${String(max)}`
  } else throw new Error(`must be a string${option.parseArg === undefined ? '' : ' or a number'} (got ${JSON.stringify(value)})`)
  if (option.argChoices !== undefined && !option.argChoices.includes(text)) {
    throw new Error(`must be one of ${option.argChoices.join(', ')} (got ${JSON.stringify(text)})`)
  }
  return option.parseArg === undefined ? text : option.parseArg(text, previous)
}
