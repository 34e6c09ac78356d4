import type { ClientReport } from './client-grader.ts'

/** XML text escaped for an attribute or an element (the five predefined entities; control characters dropped). */
function xml(text: string): string {
  let kept = ''
  for (const char of text) {
    const code = char.codePointAt(0)!
    // What XML 1.0 cannot carry at all: C0 controls but tab, line feed and carriage return, and U+FFFE, U+FFFF.
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff) continue
    kept += char
  }
  return kept.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

/**
 * A client report as JUnit XML, what CI systems show as test results: one test suite, one test case per caller
 * (named as the journal names it), failed when it has a violation, each violation a line of the failure; advice in
 * the case's `system-out`.
 */
export function clientReportJUnit(report: ClientReport, suiteName = 'petstore-sim client report'): string {
  const failures = report.callers.filter((grade) => grade.verdict === 'fail').length
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suiteName)}" tests="${report.callers.length}" failures="${failures}">`,
    `  <testsuite name="${xml(suiteName)}" tests="${report.callers.length}" failures="${failures}" errors="0" skipped="0">`,
  ]
  for (const grade of report.callers) {
    const name = `${grade.keyName ?? grade.caller} (${grade.plan})`
    lines.push(`    <testcase classname="clients" name="${xml(name)}">`)
    const violations = grade.findings.filter((finding) => finding.severity === 'violation')
    const advice = grade.findings.filter((finding) => finding.severity === 'advice')
    if (violations.length > 0) {
      const text = violations
        .map((finding) => `${finding.rule}: ${finding.message} (requests #${finding.firstSequences.join(', #')})`)
        .join('\n')
      lines.push(
        `      <failure type="client-rules" message="${xml(violations.map((finding) => finding.rule).join(', '))}">${xml(text)}</failure>`,
      )
    }
    if (advice.length > 0) {
      lines.push(`      <system-out>${xml(advice.map((finding) => `${finding.rule}: ${finding.message}`).join('\n'))}</system-out>`)
    }
    lines.push('    </testcase>')
  }
  lines.push('  </testsuite>', '</testsuites>', '')
  return lines.join('\n')
}
