import { ApiError } from '../../core/http/api-error.ts'
import type { KeySpec } from '../../core/access/api-keys.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import type { ReconfigurableOptions } from '../../core/simulator/simulator-options.ts'
import { defaultScenario } from '../../core/state/scenarios.ts'

/**
 * What `PUT /__sim/sandboxes/{name}` may send: the sandbox's scenario and its API keys (token → plan), chosen when it
 * is made, so that a Playwright worker's sandbox starts as its suite needs without a second call (docs/sharing.md).
 * Each replaces the configured one in that sandbox only; one left out is the configured one. A reset returns to them.
 */
export interface SandboxSettings {
  readonly scenario?: string
  readonly keys?: KeySpec
}

/** The fields a PUT body may hold, in the order the usage message names them. */
const settingFields = ['scenario', 'keys'] as const
const usage = `Send {"scenario": "<name>", "keys": {"<token>": "<plan>"}}, either or both, or no body`

/**
 * The settings of a PUT body, checked; undefined for an empty body (the sandbox made, or left, as it is). `shared`: with
 * a shared store (`--store`) the fleet's sandboxes are made from the configured options only: a copy here put into
 * other settings would answer otherwise than the fleet's other instances.
 */
export function readSandboxSettings(body: Record<string, unknown>, shared: boolean): SandboxSettings | undefined {
  const fields = Object.keys(body)
  if (fields.length === 0) return undefined
  const unknown = fields.find((field) => !(settingFields as readonly string[]).includes(field))
  if (unknown !== undefined) throw new ApiError('invalid_body', `A sandbox has no setting ${JSON.stringify(unknown)}: ${usage}`)
  if (shared)
    throw new ApiError(
      'invalid_body',
      'With a shared store (--store) every sandbox is made from the configured scenario and keys: send no body, and choose the scenario with POST /sandboxes/<name>/__sim/scenario',
    )
  const { scenario, keys } = body
  if (scenario !== undefined && typeof scenario !== 'string')
    throw new ApiError('invalid_body', `scenario must be a scenario's name (GET /__sim/scenario lists them): ${usage}`)
  if (keys !== undefined && !isKeySpec(keys))
    throw new ApiError('invalid_body', `keys must be an object of token → plan ("pro", "enterprise:500/50000"): ${usage}`)
  return { ...(scenario === undefined ? {} : { scenario }), ...(keys === undefined ? {} : { keys }) }
}

/**
 * Puts the sandbox's simulator into the settings: the configured options with the settings' in their place, and a
 * reset into them. All or nothing: 404 `scenario_not_found`, or 400 `invalid_body` naming the key, and nothing changes.
 */
export function applySandboxSettings(simulator: SimulatorCore, configured: ReconfigurableOptions, settings: SandboxSettings): void {
  // One left out is the configured one, not the sandbox's active one: the same PUT makes the same sandbox.
  const scenario = settings.scenario ?? configured.scenario ?? defaultScenario
  if (!simulator.scenarios().some((known) => known.name === scenario))
    throw new ApiError('scenario_not_found', `No scenario ${JSON.stringify(scenario)}; GET /__sim/scenario lists them`)
  try {
    simulator.reconfigure({ ...configured, ...settings, scenario })
  } catch (error) {
    if (error instanceof RangeError) throw new ApiError('invalid_body', error.message)
    throw error
  }
}

function isKeySpec(value: unknown): value is KeySpec {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((plan) => typeof plan === 'string' || (typeof plan === 'object' && plan !== null))
  )
}
