import type { ClientReport } from './core/grading/client-grader.ts'

/**
 * Throws when a caller of the report broke one of the spec's rules for clients (a violation; advice never throws),
 * with a message listing each finding on a line of its own: what a test runner (Vitest, Jest, `node:test`) shows
 * as the failure; the report is its `cause`. Returns the report otherwise.
 *
 * @example
 * afterEach(() => assertClientsCompliant(simulator.clientReport()))
 */
export function assertClientsCompliant(report: ClientReport): ClientReport {
  if (report.verdict === 'pass') return report
  const lines = [
    `The client broke the spec's rules for clients (${report.violations} ${report.violations === 1 ? 'violation' : 'violations'}):`,
  ]
  for (const grade of report.callers) {
    if (grade.verdict === 'pass') continue
    lines.push(`  ${grade.keyName ?? grade.caller} (${grade.plan}, ${grade.requests} requests):`)
    for (const finding of grade.findings) {
      if (finding.severity !== 'violation') continue
      const more = finding.count > finding.firstSequences.length ? ', …' : ''
      lines.push(`    ${finding.rule}: ${finding.message} (requests #${finding.firstSequences.join(', #')}${more})`)
    }
  }
  // A plain Error (the report as its cause): every runner prints its message, none needs to know a class of ours.
  throw new Error(lines.join('\n'), { cause: report })
}
