/** How an answer came about: the operation's behaviour, `Prefer: code=`, or a fault rule. */
export type AnswerKind = 'behaviour' | 'forced' | 'fault'

/** Whose answer a documented status is: the spec's, or the simulator's own where the spec is silent (`x-petstore-sim`). */
export type AnswerOrigin = 'spec' | 'simulator'

/** One status of an operation: how often it was answered, and how. */
export interface StatusCoverage {
  readonly status: number
  /** Whether the OpenAPI document lists it for the operation. An undocumented one is a finding. */
  readonly documented: boolean
  /** Of a documented status: whether the spec documents it, or the simulator adds it (413, 415, 507, 410, 501…). */
  readonly origin?: AnswerOrigin
  readonly count: number
  readonly behaviour: number
  readonly forced: number
  readonly fault: number
}

/** One operation of the route table and the answers it gave. */
export interface OperationCoverage {
  readonly operation: string
  readonly method: string
  /** As in the OpenAPI document, under the base path. */
  readonly path: string
  readonly deprecated: boolean
  /** When a deprecated operation is removed (ISO 8601). */
  readonly removal?: string
  /** Requests answered, in all. */
  readonly calls: number
  /** Every documented status (count 0 when never answered), then undocumented ones seen. */
  readonly statuses: readonly StatusCoverage[]
}

/**
 * Which documented answers the requests met (`simulator.coverage()`,
 * `GET /__sim/coverage`): counted from every request since creation or
 * `resetCoverage()`, not only those the journal still holds.
 */
export interface ContractCoverage {
  readonly operations: readonly OperationCoverage[]
  /** Requests under the API prefix that matched no operation: no path (404), or not that method (405). */
  readonly unmatched: { readonly routeNotFound: number; readonly methodNotAllowed: number }
  /** The deprecated operations that were called, with their removal date: calls to move off. */
  readonly deprecatedCalls: ReadonlyArray<{ readonly operation: string; readonly removal: string | undefined; readonly calls: number }>
  readonly summary: {
    /** The spec's own answers (statuses), over all operations, and how many were answered at least once. */
    readonly spec: { readonly documented: number; readonly met: number }
    /** The simulator's own answers where the spec is silent, over all operations, and how many were answered. */
    readonly simulator: { readonly documented: number; readonly met: number }
    /** Documented statuses, over all operations: the spec's and the simulator's. */
    readonly documented: number
    /** Documented statuses answered at least once. */
    readonly met: number
    /** Statuses answered that the document does not list for their operation. */
    readonly undocumented: number
  }
}

/** An operation as coverage needs it: the route table's entry. */
export interface CoveredOperation {
  readonly operation: string
  readonly method: string
  readonly path: string
  readonly statuses: readonly number[]
  /** Of `statuses`, the simulator's own (see `AnswerOrigin`). */
  readonly simulatorStatuses: readonly number[]
  readonly deprecated?: boolean
}

/** Counts answers per operation and status; the report is built on demand. */
export interface CoverageTally {
  /** One answer. Cheap: it runs for every request. */
  count(operation: string, status: number, kind: AnswerKind): void
  /** The bytes the counts hold (estimated) against the most they can: see {@link coverageMaxBytes}. */
  usage(): { readonly bytes: number; readonly maxBytes: number }
  report(): ContractCoverage
  clear(): void
}

/** Bytes counted for one count of coverage (a map entry and its array of three), and for each operation's map. */
export const coverageTallyBytes = 128

/**
 * The statuses coverage can tell apart per operation: every three-digit status a fault rule may answer (100-599)
 * and 0 for no answer. With the operations (a fixed list: the route table's and the two unmatched), what bounds
 * coverage whatever is sent.
 */
export const coverageStatuses = 501

/** The most bytes of coverage for `operations` operations (the route table's; routeNotFound and methodNotAllowed added). */
export function coverageMaxBytes(operations: number): number {
  return (operations + 2) * (coverageStatuses + 1) * coverageTallyBytes
}

const kindIndex = { behaviour: 0, forced: 1, fault: 2 } as const satisfies Record<AnswerKind, number>

/** `removal`: a deprecated operation's removal instant (epoch ms), if it has one. */
export function createCoverageTally(
  operations: readonly CoveredOperation[],
  removal: (operation: string) => number | undefined,
): CoverageTally {
  /** Operation -> status -> [behaviour, forced, fault]. */
  let counts = new Map<string, Map<number, [number, number, number]>>()
  /** Maps and counts held, for {@link CoverageTally.usage}. */
  let held = 0
  const maxBytes = coverageMaxBytes(operations.length)
  return {
    count(operation, status, kind) {
      let byStatus = counts.get(operation)
      if (byStatus === undefined) {
        byStatus = new Map()
        counts.set(operation, byStatus)
        held++
      }
      let tally = byStatus.get(status)
      if (tally === undefined) {
        tally = [0, 0, 0]
        byStatus.set(status, tally)
        held++
      }
      tally[kindIndex[kind]]++
    },
    usage: () => ({ bytes: held * coverageTallyBytes, maxBytes }),
    clear() {
      counts = new Map()
      held = 0
    },
    report() {
      const tally = { spec: { documented: 0, met: 0 }, simulator: { documented: 0, met: 0 } }
      let undocumented = 0
      const list = operations.map((operation): OperationCoverage => {
        const byStatus = counts.get(operation.operation) ?? new Map<number, [number, number, number]>()
        const seen = [...byStatus.keys()].filter((status) => !operation.statuses.includes(status)).sort((a, b) => a - b)
        const statuses = [
          ...operation.statuses.map((status) =>
            statusCoverage(status, operation.simulatorStatuses.includes(status) ? 'simulator' : 'spec', byStatus.get(status)),
          ),
          ...seen.map((status) => statusCoverage(status, undefined, byStatus.get(status))),
        ]
        for (const status of statuses) {
          if (status.origin === undefined) continue
          tally[status.origin].documented++
          if (status.count > 0) tally[status.origin].met++
        }
        undocumented += seen.length
        const removalAt = operation.deprecated === true ? removal(operation.operation) : undefined
        return {
          operation: operation.operation,
          method: operation.method,
          path: operation.path,
          deprecated: operation.deprecated === true,
          ...(removalAt === undefined ? {} : { removal: new Date(removalAt).toISOString() }),
          calls: statuses.reduce((sum, status) => sum + status.count, 0),
          statuses,
        }
      })
      const total = (operation: string) => [...(counts.get(operation)?.values() ?? [])].reduce((sum, [b, f, x]) => sum + b + f + x, 0)
      return {
        operations: list,
        unmatched: { routeNotFound: total('routeNotFound'), methodNotAllowed: total('methodNotAllowed') },
        deprecatedCalls: list
          .filter((operation) => operation.deprecated && operation.calls > 0)
          .map(({ operation, removal: removed, calls }) => ({ operation, removal: removed, calls })),
        summary: {
          ...tally,
          documented: tally.spec.documented + tally.simulator.documented,
          met: tally.spec.met + tally.simulator.met,
          undocumented,
        },
      }
    },
  }
}

/** `origin`: whose documented answer the status is; `undefined` for a status the document does not list. */
function statusCoverage(
  status: number,
  origin: AnswerOrigin | undefined,
  tally: readonly [number, number, number] | undefined,
): StatusCoverage {
  const [behaviour, forced, fault] = tally ?? [0, 0, 0]
  const count = behaviour + forced + fault
  return { status, documented: origin !== undefined, ...(origin === undefined ? {} : { origin }), count, behaviour, forced, fault }
}

/**
 * The report in one line, for a log at shutdown.
 *
 * @example
 * coverageSummary(simulator.coverage())
 * // 'contract coverage: 7 of the spec's 13 answers met, and 2 of the simulator's own 7; deprecated getPet (removed 2030-12-05) called 3 times'
 */
export function coverageSummary(coverage: ContractCoverage): string {
  const { spec, simulator, undocumented } = coverage.summary
  const parts = [
    `contract coverage: ${spec.met} of the spec's ${spec.documented} answers met, and ${simulator.met} of the simulator's own ${simulator.documented}`,
  ]
  if (undocumented > 0) parts.push(`${undocumented} undocumented ${undocumented === 1 ? 'status' : 'statuses'} answered`)
  for (const call of coverage.deprecatedCalls) {
    parts.push(
      `deprecated ${call.operation}${call.removal === undefined ? '' : ` (removed ${call.removal.slice(0, 10)})`} called ${call.calls} ${call.calls === 1 ? 'time' : 'times'}`,
    )
  }
  return parts.join('; ')
}

/** The report as a Markdown document: a table per operation, missing answers marked. */
export function coverageMarkdown(coverage: ContractCoverage): string {
  const lines = ['# Contract coverage', '', `${coverageSummary(coverage)}.`, '']
  for (const operation of coverage.operations) {
    const deprecated = operation.deprecated
      ? ` (deprecated${operation.removal === undefined ? '' : `, removed ${operation.removal.slice(0, 10)}`})`
      : ''
    lines.push(`## ${operation.operation}: ${operation.method} ${operation.path}${deprecated}`, '')
    lines.push('| status | documented | answered | by behaviour | forced | by a fault rule |', '| --- | --- | --- | --- | --- | --- |')
    for (const status of operation.statuses) {
      const answered = status.count === 0 ? '**never**' : String(status.count)
      const documented = status.origin === undefined ? '**no**' : status.origin === 'spec' ? 'yes, the spec' : "yes, the simulator's own"
      lines.push(`| ${status.status} | ${documented} | ${answered} | ${status.behaviour} | ${status.forced} | ${status.fault} |`)
    }
    lines.push('')
  }
  const { routeNotFound, methodNotAllowed } = coverage.unmatched
  lines.push(
    `Requests that matched no operation: ${routeNotFound} with no such path (404), ${methodNotAllowed} with another method (405).`,
    '',
  )
  return lines.join('\n')
}
