// Everything one world keeps, in bytes (issue 45: "everything kept is bounded in bytes, wherever it is kept"): each
// store estimates what it holds and has a budget, and a world's budget is their sum. The table of docs/journal.md
// ("Memory budgets") is these figures, and test/docs keeps it equal to them.

/** One store of a world: the bytes it holds (estimated, an over-estimate) against its budget. */
export interface StoreMemory {
  readonly bytes: number
  readonly maxBytes: number
}

/** What a world keeps, store by store, and in all (`GET /__sim/health`'s `memory`). */
export interface WorldMemory {
  /** The journal's exchanges (`journal.usage()`). */
  readonly journal: StoreMemory
  /** The pact's examples, kept across resets (`pact.usage()`). */
  readonly pact: StoreMemory
  /** Contract coverage's counts: one per operation, status and kind answered. */
  readonly coverage: StoreMemory
  /** The rate limiter's buckets: one per key in use, and per client address without one (the least recent forgotten). */
  readonly callers: StoreMemory
  readonly bytes: number
  readonly maxBytes: number
}

/** A world's memory from its stores' figures. */
export function worldMemory(stores: Omit<WorldMemory, 'bytes' | 'maxBytes'>): WorldMemory {
  const parts = [stores.journal, stores.pact, stores.coverage, stores.callers]
  return {
    ...stores,
    bytes: parts.reduce((sum, part) => sum + part.bytes, 0),
    maxBytes: parts.reduce((sum, part) => sum + part.maxBytes, 0),
  }
}
