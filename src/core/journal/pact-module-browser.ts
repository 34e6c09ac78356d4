import type { JournalEntry } from './request-journal.ts'
import type { Pact, PactOptions } from './pact-export.ts'

/**
 * `journal.toPact` in the browser build (rolldown.config.ts swaps `pact-module.ts` for this file): a page under
 * setupWorker does not carry the pact export for a call made in Node. The control plane keeps it: a page that
 * mounts the control handlers answers `GET /__sim/requests.pact`.
 */
export function toPact(_entries: readonly JournalEntry[], _options?: PactOptions): Pact {
  throw new TypeError(
    'journal.toPact is not in the browser build of petstore-sim (it would weigh on every setupWorker page): ' +
      'export the pact in Node, or from GET /__sim/requests.pact (the standalone simulator, or createControlHandlers)',
  )
}
