import { createSecretScrubber } from '../core/journal/journal-redaction.ts'
import { storeUrlPassword as storePassword } from '../node/store-url.ts'

/**
 * The key tokens a command line names, read from the raw arguments and the
 * environment before any parsing: a message about a flag that failed to
 * parse (`--key <token>=platinum`) must not echo the token, and commander
 * quotes the argument it refuses. Tokens of `--keys` and config files are
 * added by whoever reads them ({@link CliSecrets.add}).
 */
export interface CliSecrets {
  add(tokens: Iterable<string>): void
  /** The text with every token known so far replaced by its label (`key#…`; a demo key stays as it is). */
  scrub(text: string): string
}

export function cliSecrets(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliSecrets {
  const tokens = new Set<string>()
  let scrubber: ((text: string) => string) | undefined
  const add = (values: Iterable<string>) => {
    for (const value of values) {
      if (value === '' || tokens.has(value)) continue
      tokens.add(value)
      scrubber = undefined
    }
  }
  add(tokensInArguments(argv))
  add((env.PETSTORE_SIM_KEY ?? '').split(',').flatMap(keyTokens))
  add((env.PETSTORE_SIM_FAULT ?? '').split(';').flatMap(faultKeyTokens))
  add([env.PETSTORE_SIM_VERIFY_KEY ?? '', env.PETSTORE_SIM_ADMIN_TOKEN ?? '', storePassword(env.PETSTORE_SIM_STORE ?? '')])
  return {
    add,
    scrub(text) {
      scrubber ??= createSecretScrubber(tokens)
      return scrubber(text)
    },
  }
}

/** Keys of `--key` and `--key=`, `key=` of `--fault`, the tokens of `verify --key` and `--admin-token`, and `--store`'s password. */
function tokensInArguments(argv: readonly string[]): string[] {
  const found: string[] = []
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!
    const equals = argument.indexOf('=')
    const flag = argument.startsWith('--') && equals !== -1 ? argument.slice(0, equals) : argument
    const value = flag === argument ? argv[index + 1] : argument.slice(equals + 1)
    if (value === undefined) continue
    if (flag === '--key') found.push(...keyTokens(value))
    else if (flag === '--fault') found.push(...faultKeyTokens(value))
    else if (flag === '--admin-token') found.push(value)
    else if (flag === '--store') found.push(storePassword(value))
  }
  return found
}

/** `<token>=<plan>` (the token may hold `=`, the plan never): the token; the whole value when the `=` is missing. */
function keyTokens(value: string): string[] {
  const separator = value.lastIndexOf('=')
  return [(separator === -1 ? value : value.slice(0, separator)).trim()]
}

/** The values of `key=` in a fault's text form. */
function faultKeyTokens(text: string): string[] {
  return text
    .split(/\s+/)
    .filter((word) => word.startsWith('key='))
    .map((word) => word.slice('key='.length))
}
