import { formatFaultRule } from '../core/faults/fault-text.ts'
import type { RunningServer } from '../node/server.ts'

/**
 * What a start with `--state` restored, as the banner says it: the pets (and how many earlier runs created), the keys
 * that have used their windows, the clock, and the fault rules with what is left of them. A restored fault rule answered
 * `404 … (forced)` for a pet that exists, while the banner named only the file (issue 37): now it names the rule.
 */
export interface RestoredState {
  readonly found: 'state' | 'empty' | 'nothing'
  readonly pets?: number
  readonly createdPets?: number
  /** Keys (demo keys by name, others by fingerprint) with requests counted in the restored day. */
  readonly keysUsed?: readonly { readonly key: string; readonly today: number; readonly bannedUntil: string | null }[]
  readonly clock?: { readonly offsetMs: number; readonly frozenAt: string | null }
  /** Each rule in its text form, with its id and what is left of `times`: `f1: getPet 404 (2 left)`. */
  readonly faults?: readonly string[]
}

export function restoredState(running: RunningServer): RestoredState | undefined {
  const file = running.stateFile
  if (file === undefined) return undefined
  if (file.found !== 'state') return { found: file.found }
  const { simulator } = running
  const status = simulator.state()
  const { offsetMs, frozenAt } = simulator.clock.setting
  return {
    found: 'state',
    pets: status.pets,
    createdPets: file.createdPets,
    keysUsed: status.keys
      .filter((key) => key.day.used > 0 || key.bannedUntil !== null)
      .map((key) => ({ key: key.token ?? key.key, today: key.day.used, bannedUntil: key.bannedUntil })),
    clock: { offsetMs, frozenAt: frozenAt === null ? null : new Date(frozenAt).toISOString() },
    faults: status.faults.map((rule) => formatFaultRule(rule, simulator.basePath)),
  }
}

/** The banner's lines for it (pretty log), after the `State file:` line. */
export function restoredStateLines(restored: RestoredState): string[] {
  if (restored.found === 'empty') return ['  the file is empty (0 bytes): a fresh start; it is written at the first save']
  if (restored.found === 'nothing') return ['  no file there yet: a fresh start']
  const keys = restored.keysUsed ?? []
  const clock = restored.clock!
  return [
    `  restored: ${restored.pets} pets (${restored.createdPets} created by earlier runs)`,
    `  keys used today: ${
      keys.length === 0
        ? 'none'
        : keys.map((key) => `${key.key} ${key.today}${key.bannedUntil === null ? '' : ` (banned until ${key.bannedUntil})`}`).join(', ')
    }`,
    `  clock: ${
      clock.frozenAt !== null
        ? `frozen at ${clock.frozenAt}`
        : clock.offsetMs === 0
          ? 'real time'
          : `real time ${signed(clock.offsetMs)} ms`
    }`,
    `  fault rules: ${restored.faults!.length === 0 ? 'none' : restored.faults!.join('; ')}${
      restored.faults!.length === 0 ? '' : ' (DELETE /__sim/faults removes them)'
    }`,
  ]
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : `${value}`
}
