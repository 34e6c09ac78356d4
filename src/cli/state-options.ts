import type { Command, Option } from 'commander'
import { defaults } from '../core/defaults.ts'

/** The flags of state and scenarios (docs/state-and-scenarios.md), as the command line gives them. */
export interface StateCliOptions {
  scenario?: string
  state?: string
  stateInterval: number
  config?: string
  watch?: boolean
}

/** How the command makes its options and reads durations, passed in so that these flags read them as every other does. */
export interface OptionTools {
  readonly option: (flags: string, description: string, envName: string) => Option
  readonly parseDuration: (value: string) => number
  readonly formatDuration: (milliseconds: number) => string
}

/** Adds the flags of state and scenarios to the command, after the others. */
export function withStateOptions(program: Command, { option, parseDuration, formatDuration }: OptionTools): Command {
  program
    .addOption(
      option(
        '--scenario <name>',
        'start in a named scenario: default, empty, all-sold, sunset, rate-limited, degraded, or your own',
        'SCENARIO',
      ),
    )
    .addOption(
      option(
        '--state <file>',
        'restore the state from this JSON file at start (when it exists) and save it there on exit and periodically',
        'STATE',
      ),
    )
    .addOption(
      option(
        '--state-interval <duration>',
        'how often a changed state is saved to --state, with its unit (5s); a crash loses at most this much',
        'STATE_INTERVAL',
      )
        .argParser(parseDuration)
        .default(defaults.stateIntervalMs, formatDuration(defaults.stateIntervalMs)),
    )
    .addOption(
      option(
        '--config <file>',
        'a JSON config file: every flag as a camelCase key, and scenarios; default petstore-sim.config.json when present',
        'CONFIG',
      ),
    )
    .addOption(
      option(
        '--watch',
        'reload the config file, fixtures, keys and faults when they change (a reset into the active scenario); an invalid edit keeps the old state',
        'WATCH',
      ),
    )
  // An empty PETSTORE_SIM_STATE is no file: how a compose file or `docker run -e PETSTORE_SIM_STATE=` takes back the
  // image's default (/data/state.json), e.g. for replicas that keep their state in a shared store. Commander makes an
  // empty value '' whatever a parser returns, so it is undone here, after commander's own listener of the event.
  program.on('optionEnv:state', () => {
    if (program.getOptionValue('state') === '') program.setOptionValueWithSource('state', undefined, 'default')
  })
  return program
}
