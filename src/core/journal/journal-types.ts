import type { CapturedExchange, ExchangeParts, JournalRequest, JournalResponse } from './journal-exchange.ts'

// The journal's records and views, apart from the journal that keeps them: its views (journal-views.ts) and HAR
// (journal-har.ts) read these types, and the journal imports those, so the types sit below both (no import cycle).
/** One request the simulator answered without its exchange: what the dashboard's table and the logs show. */
export interface JournalSummary {
  /** 1, 2, 3… in the order requests were answered, never reused before `clear()`. */
  readonly sequence: number
  /** ISO 8601 time on the simulator's clock. */
  readonly at: string
  /** ISO 8601 wall time (the machine's clock), whatever the simulator's clock says. */
  readonly wallAt: string
  readonly method: string
  /** Path and query string, credential-named query parameters redacted. */
  readonly path: string
  readonly status: number
  /** `listPets`, `createPet`, `getPet`…; `routeNotFound` or `methodNotAllowed` for a request that matched no operation. */
  readonly operation: string
  /** The key's fingerprint (never the key), or `anonymous`. */
  readonly caller: string
  /** The name of a documented demo key (`demo-free-key`), next to its fingerprint in `caller`. */
  readonly keyName?: string
  /** The caller's plan, e.g. `pro`; `anonymous` without a valid key. */
  readonly plan: string
  readonly durationMs: number
  /** Present when the answer was forced with `Prefer: code=`: it changed nothing and counted nothing. */
  readonly forced?: true
  /** The id of the fault rule that shaped the answer, if one did. `status` is 0 when there was no answer (reset, hang). */
  readonly fault?: string
  /** Present for a request that matched no operation (404 `route_not_found`, 405). */
  readonly unmatched?: true
}

/** One request the simulator answered, as `GET /__sim/requests` lists it: the summary and the whole exchange. */
export interface JournalEntry extends JournalSummary {
  readonly request: JournalRequest
  readonly response: JournalResponse
}

/**
 * A request as the journal keeps it: references to what the request and its
 * answer already hold, and times as epoch milliseconds. The JSON view
 * ({@link JournalEntry}) is built only when the journal is read: formatting a
 * date on every request was a large share of the pipeline's own time
 * (test/bench/HISTORY.md, "Figures moved out of source comments").
 */
export interface RecordedRequest {
  readonly sequence: number
  /** Epoch milliseconds on the simulator's clock. */
  readonly atMs: number
  /** Epoch milliseconds on the wall clock. */
  readonly wallMs: number
  readonly method: string
  /** Path and query string, as sent. */
  readonly path: string
  readonly status: number
  readonly operation: string
  readonly caller: string
  readonly plan: string
  readonly durationMs: number
  readonly forced?: true | undefined
  readonly fault?: string | undefined
  /**
   * @internal Present for a request the simulator refused before the API ran (a foreign `Host`, a page of a foreign
   * origin): journaled, so that a developer sees what was tried, but counted in no coverage and no pact, for the API
   * never answered it.
   */
  readonly refused?: true | undefined
  /** @internal The exchange, captured (read it as a {@link JournalEntry}); undefined in a journal that keeps nothing. */
  readonly exchange: CapturedExchange | undefined
}

/** What the pipeline records: a request's facts and references to its exchange. */
export interface RecordInput extends Omit<RecordedRequest, 'sequence' | 'wallMs' | 'exchange'> {
  readonly exchange: ExchangeParts
  /** @internal The body as the operation parsed it, handed to the journal's `onRecord` (the pact's shape), never kept. */
  readonly requestJson?: object | undefined
}
