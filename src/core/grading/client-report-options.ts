import type { JournalFilter } from '../journal/journal-filter.ts'
import type { RequestJournal } from '../journal/request-journal.ts'
import { createClientGrader, gradeRequests, type ClientGrader, type ClientGraderOptions, type ClientReport } from './client-grader.ts'
import { clientRuleIds, type ClientRuleId } from './client-rules.ts'
import { fromEntry, fromRecorded } from './gradable-request.ts'
import type { RecordedRequest } from '../journal/journal-types.ts'

/** Requests a test sends on purpose: a rule (all of its findings), requests a filter takes (every rule), or both. */
export interface ClientIgnore {
  /** A rule's id: its findings are left out (of the requests `filter` takes, when given). */
  readonly rule?: ClientRuleId
  /** The journal's filter grammar (`{ operation: 'listPets', 'query.limit': '500' }`…, as `journal.find` takes). */
  readonly filter?: JournalFilter
}

/** What `simulator.clientReport` takes. */
export interface ClientReportOptions {
  /** What not to count against the callers. */
  readonly ignore?: readonly ClientIgnore[]
}

/** The simulator's grader: fed by the journal as it records, read as a report. */
export interface LiveClientGrader {
  observe(recorded: RecordedRequest): void
  report(options?: ClientReportOptions): ClientReport
  clear(): void
}

/**
 * The grader the simulator keeps, incremental: each request is graded once, as it is journaled. An ignore list of
 * rules alone filters that report; one with a request filter grades again the requests the journal still holds
 * (bounded by the journal's size), since which requests a filter takes is known only when it is given.
 */
export function createLiveClientGrader(journal: RequestJournal, options: ClientGraderOptions): LiveClientGrader {
  const grader: ClientGrader = createClientGrader(options)
  let lastSequence = 0
  return {
    observe(recorded) {
      // A journal cleared (a reset, `journal.clear()`) starts its sequence over; the report starts over with it.
      if (recorded.sequence <= lastSequence) grader.clear()
      lastSequence = recorded.sequence
      grader.observe(fromRecorded(recorded))
    },
    report(reportOptions = {}) {
      const ignore = checkedIgnore(reportOptions.ignore ?? [])
      if (ignore.length === 0) return grader.report()
      if (ignore.every((entry) => entry.filter === undefined))
        return withoutRules(grader.report(), new Set(ignore.map((entry) => entry.rule!)))
      const matched = ignore.map((entry) => ({
        rule: entry.rule,
        sequences:
          entry.filter === undefined
            ? undefined
            : new Set(journal.find({ ...entry.filter, limit: undefined }).map((found) => found.sequence)),
      }))
      return gradeRequests(journal.entries().map(fromEntry), {
        ...options,
        ignored: (rule, request) =>
          matched.some(
            (entry) =>
              (entry.rule === undefined || entry.rule === rule) && (entry.sequences === undefined || entry.sequences.has(request.sequence)),
          ),
      })
    },
    clear() {
      grader.clear()
      lastSequence = 0
    },
  }
}

/** The ignore list checked: each entry names a known rule, a filter, or both (a `RangeError` otherwise). */
function checkedIgnore(ignore: readonly ClientIgnore[]): readonly ClientIgnore[] {
  for (const entry of ignore) {
    if (entry.rule === undefined && entry.filter === undefined) throw new RangeError('An ignore entry names a rule, a filter, or both')
    if (entry.rule !== undefined && !clientRuleIds.includes(entry.rule)) {
      throw new RangeError(`Unknown client rule ${JSON.stringify(entry.rule)}: use ${clientRuleIds.join(', ')}`)
    }
  }
  return ignore
}

/** A report without the findings of some rules, verdicts and totals counted again. */
export function withoutRules(report: ClientReport, rules: ReadonlySet<ClientRuleId>): ClientReport {
  let violations = 0
  let advice = 0
  const callers = report.callers.map((grade) => {
    const findings = grade.findings.filter((finding) => !rules.has(finding.rule))
    for (const finding of findings) {
      if (finding.severity === 'violation') violations += finding.count
      else advice += finding.count
    }
    const verdict = findings.some((finding) => finding.severity === 'violation') ? ('fail' as const) : ('pass' as const)
    return { ...grade, findings, verdict }
  })
  return { ...report, verdict: violations > 0 ? 'fail' : 'pass', callers, violations, advice }
}
