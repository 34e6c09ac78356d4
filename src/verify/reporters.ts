import { specSections } from './check-catalogue.ts'
import { causeLine, type VerifyCause } from './diagnosis.ts'
import { failsRun, type CheckResult, type VerifyReport } from './verify-report.ts'

export const reporters = ['pretty', 'json', 'junit'] as const
export type Reporter = (typeof reporters)[number]

/**
 * The report as text in a reporter's format. `columns` is the pretty reporter's width (a terminal's, default 100);
 * `causesShown`, how many of its causes were printed already (the CLI prints them as soon as they are found).
 */
export function renderReport(
  report: VerifyReport,
  reporter: Reporter,
  options: { strict?: boolean; columns?: number; causesShown?: number } = {},
): string {
  switch (reporter) {
    case 'pretty':
      return renderPretty(report, options.strict === true, options.columns ?? 100, options.causesShown ?? 0)
    case 'json':
      return `${jsonWithoutControls(JSON.stringify(report, null, 2))}\n`
    case 'junit':
      return renderJunit(report, options.strict === true)
    default: {
      const unreachable: never = reporter
      return unreachable
    }
  }
}

function bySection(report: VerifyReport): [string, CheckResult[]][] {
  return specSections
    .map((section): [string, CheckResult[]] => [section, report.checks.filter((check) => check.section === section)])
    .filter(([, checks]) => checks.length > 0)
}

/** One line per check under its spec section; a failure's expected, actual, request and response below it. */
function renderPretty(report: VerifyReport, strict: boolean, columns: number, causesShown: number): string {
  const width = Math.max(60, columns)
  // Every line is made visible before it is cut: the target's bytes never reach the terminal raw.
  const clip = (raw: string) => {
    const line = visible(raw)
    return line.length > width ? `${line.slice(0, width - 1)}…` : line
  }
  const idWidth = Math.max(...report.checks.map((check) => check.id.length))
  // A cause first, each in one line, whole (what to change is at its end): then the checks decided, none of those
  // it kept from running.
  const lines = (report.causes ?? []).slice(causesShown).map(prettyCauseLine)
  lines.push(clip(`petstore-sim verify ${report.target}`))
  const notRun = (check: CheckResult) =>
    report.causes !== undefined && check.outcome === 'skip' && check.reason?.startsWith('not run: ') === true
  for (const [section, all] of bySection(report)) {
    const checks = all.filter((check) => !notRun(check))
    if (checks.length === 0) continue
    lines.push('', section)
    for (const check of checks) {
      const mark = check.outcome === 'pass' ? '✓' : check.outcome === 'skip' ? '-' : failsRun(check, strict) ? '✗' : '!'
      lines.push(clip(`  ${mark} ${check.id.padEnd(idWidth)}  ${check.title}`))
      const indent = ' '.repeat(idWidth + 6)
      if (check.outcome === 'skip') lines.push(clip(`${indent}skipped: ${check.reason ?? ''}`))
      if (check.note !== undefined) lines.push(clip(`${indent}note: ${check.note}`))
      if (check.outcome !== 'fail') continue
      // The unreachable target's cause is said once, above.
      if (report.unreachable !== undefined && check.reason === report.unreachable) continue
      if (check.advisory !== undefined) lines.push(clip(`${indent}advisory (the spec is silent: ${check.advisory})`))
      for (const [label, value] of [
        ['expected', check.expected],
        ['actual', check.actual],
        ['request', check.request],
        ['response', check.response],
      ] as const) {
        if (value === undefined) continue
        const [first = '', ...rest] = value.split('\n')
        lines.push(clip(`${indent}${`${label}:`.padEnd(10)}${first}`))
        for (const more of rest) lines.push(clip(`${indent}${' '.repeat(10)}${more}`))
      }
    }
  }
  const advisory = report.advisoryFailed > 0 ? `, ${report.advisoryFailed} advisory failed (pass --strict to fail on them)` : ''
  const notRunCount = report.checks.filter(notRun).length
  const skipped = notRunCount > 0 ? `${report.skipped - notRunCount} skipped, ${notRunCount} not run` : `${report.skipped} skipped`
  lines.push(
    '',
    `${report.checks.length} checks: ${report.passed} passed, ${report.failed} failed, ${skipped}${advisory}`,
    `${report.requests} request${report.requests === 1 ? '' : 's'} sent (at most ${report.budget} announced)`,
    report.unreachable !== undefined
      ? 'FAILED: the target cannot be reached'
      : report.failed === 0
        ? 'OK: the target behaves as the spec says'
        : `FAILED: ${failedIds(report, strict).join(', ')}`,
  )
  return `${lines.join('\n')}\n`
}

/** A cause as the pretty report's first lines show it: `KEY REFUSED: …`, `UNREACHABLE: …; the run stopped there`. */
export function prettyCauseLine(cause: VerifyCause): string {
  return visible(`${causeLine(cause)}${cause.kind === 'unreachable' ? '; the run stopped there' : ''}`)
}

function failedIds(report: VerifyReport, strict: boolean): string[] {
  return report.checks.filter((check) => failsRun(check, strict)).map((check) => check.id)
}

/** JUnit XML as CI dashboards read it (Jenkins, GitLab, GitHub test reporters): a suite per spec section. */
function renderJunit(report: VerifyReport, strict: boolean): string {
  const suites = bySection(report).map(([section, checks]) => {
    const failures = checks.filter((check) => failsRun(check, strict)).length
    const skipped = checks.filter((check) => check.outcome === 'skip').length
    const cases = checks.map((check) => {
      const open = `    <testcase classname="petstore-sim verify.${xml(section)}" name="${xml(`${check.id}: ${check.title}`)}" time="0"`
      const detail = [
        check.advisory === undefined ? undefined : `advisory: the spec is silent (${check.advisory})`,
        check.note === undefined ? undefined : `note: ${check.note}`,
        check.expected === undefined ? undefined : `expected: ${check.expected}`,
        check.actual === undefined ? undefined : `actual: ${check.actual}`,
        check.request === undefined ? undefined : `request: ${check.request}`,
        check.response === undefined ? undefined : `response:\n${check.response}`,
      ]
        .filter((line) => line !== undefined)
        .join('\n')
      if (check.outcome === 'skip') return `${open}>\n      <skipped message="${xml(check.reason ?? '')}"/>\n    </testcase>`
      if (failsRun(check, strict)) {
        return `${open}>\n      <failure message="${xml(check.reason ?? '')}" type="${check.id}">${xml(detail)}</failure>\n    </testcase>`
      }
      if (check.outcome === 'fail')
        return `${open}>\n      <system-out>${xml(`${check.reason ?? ''}\n${detail}`)}</system-out>\n    </testcase>`
      if (check.note !== undefined) return `${open}>\n      <system-out>${xml(`note: ${check.note}`)}</system-out>\n    </testcase>`
      return `${open}/>`
    })
    return [
      `  <testsuite name="${xml(section)}" tests="${checks.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n')
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`petstore-sim verify ${report.target}`)}" tests="${report.checks.length}" failures="${report.failed}" errors="0" skipped="${report.skipped}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n')
}

/** Text escaped for XML content and attributes; control characters shown as escapes ({@link visible}), lone surrogates and U+FFFE/U+FFFF dropped. */
function xml(text: string): string {
  return visible(text)
    .replace(/[^\t\n\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')
}

/**
 * What a terminal would act on rather than show: C0 controls but line feed
 * and tab (ESC starts colours, titles, OSC 52 clipboard writes; CR rewrites a
 * line), DEL, C1 controls (U+009B is a CSI for some terminals), the line and
 * paragraph separators, and the bidirectional marks, embeddings, overrides
 * and isolates (Trojan Source, CVE-2021-42574).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this escape's job
const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/** Text with every control character shown as an escape (`\x1b`, `\u202e`); line feeds and tabs kept. */
export function visible(text: string): string {
  return text.replace(controlCharacters, (character) => {
    const code = character.charCodeAt(0)
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}

/** JSON text (where C0 controls are escaped already) with the other control characters as `\u` escapes too: still the same JSON. */
function jsonWithoutControls(json: string): string {
  return json.replace(controlCharacters, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
