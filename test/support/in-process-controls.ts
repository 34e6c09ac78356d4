import type { ManualClock } from '../../src/core/time/clock.ts'
import type { SimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import { scenarioStart, type ApiTarget } from './api-target.ts'

/** How a target with the simulator in this process resets it, moves its clock, sets faults and reads its journal. */
export function inProcessControls(
  simulator: SimulatorCore,
  manualClock: ManualClock,
): Pick<ApiTarget, 'reset' | 'advanceClock' | 'setClock' | 'addFault' | 'removeFault' | 'journal'> {
  return {
    async reset() {
      simulator.reset()
      manualClock.set(scenarioStart)
    },
    async advanceClock(milliseconds) {
      simulator.clock.advance(milliseconds)
    },
    async setClock(iso) {
      simulator.clock.set(iso)
    },
    async addFault(rule) {
      return simulator.faults.add(rule)
    },
    async removeFault(id) {
      simulator.faults.remove(id)
    },
    async journal() {
      return simulator.journal.entries()
    },
  }
}
