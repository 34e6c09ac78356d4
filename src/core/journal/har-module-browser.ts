import type { Har } from './journal-har.ts'
import type { JournalEntry } from './journal-types.ts'

/**
 * `journal.toHar` in the browser build (rolldown.config.ts swaps `har-module.ts` for this file): a page under
 * setupWorker does not carry the HAR export for a call its developer tools answer already. The control plane keeps
 * it: a page that mounts the control handlers answers `GET /__sim/requests.har`.
 */
export function toHar(_entries: readonly JournalEntry[], _origin?: string): Har {
  throw new TypeError(
    "journal.toHar is not in the browser build of petstore-sim (it would weigh on every setupWorker page): use the browser's " +
      'developer tools (Network: "Save all as HAR"), GET /__sim/requests.har (createControlHandlers), or journal.toHar in Node',
  )
}
