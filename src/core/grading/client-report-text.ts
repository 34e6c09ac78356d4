import type { ClientReport } from './client-grader.ts'

/** A client report as text for a terminal or a CI log: each caller's verdict and plan advice, then its findings. */
export function clientReportText(report: ClientReport): string {
  const lines: string[] = []
  for (const grade of report.callers) {
    const advice = grade.planAdvice
    lines.push(
      `${grade.verdict === 'pass' ? 'PASS' : 'FAIL'} ${grade.keyName ?? grade.caller} (${grade.plan}): ${grade.requests} requests; ` +
        `busiest minute ${advice.busiestMinute}, busiest day ${advice.busiestDay}, fits ${advice.smallestPlan}`,
    )
    for (const finding of grade.findings) {
      lines.push(
        `  ${finding.severity === 'violation' ? 'violation' : 'advice   '} ${finding.rule}: ${finding.message} (requests #${finding.firstSequences.join(', #')})`,
      )
    }
  }
  const callers = `${report.callers.length} caller${report.callers.length === 1 ? '' : 's'}`
  const forgotten = report.forgottenCallers > 0 ? `, ${report.forgottenCallers} forgotten` : ''
  lines.push(
    `${report.verdict === 'pass' ? 'pass' : 'fail'}: ${callers}${forgotten}, ${report.violations} violations, ${report.advice} advice`,
  )
  return `${lines.join('\n')}\n`
}
