import type { FaultRule } from '../../core/faults/fault-rules.ts'
import { ApiError } from '../../core/http/api-error.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-options.ts'

// How a world's copy is written to the store and read back from it (the publish script's and the buckets script's
// layouts, see store-scripts.ts and publish-script.ts), and what the mirror answers when the fleet keeps it from writing.

/** How many times a control request is run, each time on a copy brought up to date, while others change the world first. */
export const maxControlRuns = 5

/** An `epoch` or `init` publish's arguments after its kind: the whole state of the world as `core` holds it. */
export function epochArgs(core: SimulatorCore, fingerprint: string): (string | number)[] {
  const setting = core.clock.setting
  const buckets = core.limiter
    .records()
    .flatMap((record) => [
      record.caller,
      record.minute,
      record.minuteCount,
      record.day,
      record.dayCount,
      record.refusedInARow,
      record.bannedUntil ?? '',
    ])
  return [
    JSON.stringify(core.snapshot()),
    core.store.nextId,
    setting.offsetMs,
    setting.frozenAt ?? '',
    JSON.stringify({ nextId: core.faults.nextId, rules: core.faults.list() }),
    fingerprint,
    core.store.size,
    core.scenario,
    ...buckets,
  ]
}

/** The rules as published, with what is left of each one's `times` across the fleet (`fault-times`): spent ones gone. */
export function fleetRules(rules: readonly FaultRule[], left: ReadonlyMap<string, number>): FaultRule[] {
  return rules
    .map((rule) => (rule.remaining === undefined || !left.has(rule.id) ? rule : { ...rule, remaining: left.get(rule.id) }))
    .filter((rule) => rule.remaining === undefined || rule.remaining > 0)
}

/** A control request the fleet's other instances changed the world before, on every run: nothing of it was changed. */
export function fleetBusy(display: string): ApiError {
  return new ApiError(
    'store_unavailable',
    `The shared store at ${display} had its world changed by other instances before each of ${maxControlRuns} runs of this control request; nothing was changed`,
    { 'Retry-After': '1' },
  )
}
