/**
 * What a transport fault does, as data: whether the operation runs (its state
 * changes happen, a pet is stored) and whether an answer (status and headers)
 * reaches the client. The pipeline and the journal read this table; each lane
 * carries the damage out in an exhaustive `switch` over {@link TransportFault},
 * so a kind added here fails to compile until every lane handles it.
 *
 * `reset` and `hang` drop the request before the operation runs, as a
 * connection lost on the way in would; `truncate` and `empty` are the real
 * answer, broken on the way out, so what it changed stays changed.
 */
export interface FaultKind {
  /** Whether the operation runs, its state changes included. */
  readonly operationRuns: boolean
  /** Whether the status line and headers reach the client. The journal records status 0 (no answer) when not. */
  readonly answerSent: boolean
  /** What the client sees, for the dashboard and the docs. */
  readonly description: string
}

export const faultKinds = {
  reset: { operationRuns: false, answerSent: false, description: 'the connection is dropped, no answer' },
  hang: { operationRuns: false, answerSent: false, description: 'no answer for hangMs, then the connection is dropped' },
  truncate: { operationRuns: true, answerSent: true, description: 'the status and headers, half the body, then the connection is dropped' },
  empty: { operationRuns: true, answerSent: true, description: 'the status and headers with an empty body' },
} as const satisfies Readonly<Record<string, FaultKind>>

/** A transport fault kind: a key of {@link faultKinds}. */
export type TransportFault = keyof typeof faultKinds

/** The kinds, in the table's order. */
export const transportFaults = Object.freeze(Object.keys(faultKinds) as TransportFault[])

/** The status the journal records for an answer a fault shaped: the answer's, or 0 when none was sent. */
export function journalStatus(kind: TransportFault | undefined, status: number): number {
  return kind === undefined || faultKinds[kind].answerSent ? status : 0
}
