import type { JournalFilter } from '../journal/journal-filter.ts'
import type { RequestJournal } from '../journal/request-journal.ts'
import { toPact, type Pact, type PactOptions } from './pact-export.ts'

// `journal.toPact`, statically: the sources and the Node build. The browser build swaps this file for
// `pact-module-browser.ts` (rolldown.config.ts): the export weighs 1.8 kB gzipped, which every setupWorker page
// would carry for a call made in Node (`npm run size` measured 61.1 kB against the 60 kB budget with it). The journal
// itself (a floor below the contract) knows nothing of pacts: the simulator adds the export when it composes it.

/** What the simulator's journal adds to a {@link RequestJournal}: its entries as a pact. */
export interface PactExport {
  /** The entries as a Pact 4 file, one interaction per distinct exchange, matching rules from the contract (docs/pact.md). */
  toPact(options?: PactOptions & { readonly filter?: JournalFilter }): Pact
}

/** The journal with {@link PactExport}: the same object, `toPact` added. */
export function withPactExport<Journal extends RequestJournal>(journal: Journal): Journal & PactExport {
  return Object.assign(journal, {
    toPact: ({ filter, ...names }: PactOptions & { readonly filter?: JournalFilter } = {}) => toPact(journal.find(filter), names),
  })
}
