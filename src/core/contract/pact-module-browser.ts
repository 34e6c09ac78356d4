import type { JournalFilter } from '../journal/journal-filter.ts'
import type { RequestJournal } from '../journal/request-journal.ts'
import type { PactOptions } from './pact-export.ts'
import type { PactExport } from './pact-module.ts'
import type { PactRecorder } from './pact-recorder.ts'

/**
 * `journal.toPact` in the browser build (rolldown.config.ts swaps `pact-module.ts` for this file): a page under
 * setupWorker does not carry the pact export for a call made in Node. The control plane keeps it: a page that
 * mounts the control handlers answers `GET /__sim/requests.pact`, from the same recorder.
 */
export function withPactExport<Journal extends RequestJournal>(journal: Journal, recorder: PactRecorder): Journal & PactExport {
  return Object.assign(journal, {
    toPact(_options?: PactOptions & { readonly filter?: JournalFilter }): never {
      throw new TypeError(
        'journal.toPact is not in the browser build of petstore-sim (it would weigh on every setupWorker page): ' +
          'export the pact in Node, or from GET /__sim/requests.pact (the standalone simulator, or createControlHandlers)',
      )
    },
    clearPact: () => recorder.clear(),
  })
}
