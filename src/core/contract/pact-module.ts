import type { JournalFilter } from '../journal/journal-filter.ts'
import type { RequestJournal } from '../journal/request-journal.ts'
import { toPact, type Pact, type PactOptions } from './pact-export.ts'
import type { PactRecorder } from './pact-recorder.ts'

// `journal.toPact`, statically: the sources and the Node build. The browser build swaps this file for
// `pact-module-browser.ts` (rolldown.config.ts): the export would add its weight (test/bench/HISTORY.md, "Figures
// moved out of source comments") to every setupWorker page for a call made in Node. The journal itself (a floor below
// the contract) knows nothing of pacts: the simulator adds the export, and the recorder that keeps its interactions
// past a reset, when it composes it.

/** What the simulator's journal adds to a {@link RequestJournal}: its pact, kept apart from the journal's entries. */
export interface PactExport {
  /**
   * The interactions recorded since the simulator was created or `clearPact()` was called, resets and journal clears
   * included, as a Pact 4 file: one interaction per distinct shape, what the spec promises (docs/pact.md).
   */
  toPact(options?: PactOptions & { readonly filter?: JournalFilter }): Pact
  /** Forgets the pact's interactions (not the journal's entries); returns how many there were. */
  clearPact(): number
}

/** The journal with {@link PactExport}: the same object, `toPact` and `clearPact` added. */
export function withPactExport<Journal extends RequestJournal>(journal: Journal, recorder: PactRecorder): Journal & PactExport {
  return Object.assign(journal, {
    toPact: ({ filter, ...options }: PactOptions & { readonly filter?: JournalFilter } = {}) =>
      toPact(recorder.entries(filter), options, recorder.overflow(), recorder.conversions),
    clearPact: () => recorder.clear(),
  })
}
