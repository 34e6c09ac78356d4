import { describe, expect, it } from 'vitest'
import { type CheckDefinition, checkCatalogue, type CheckId } from '../../src/verify/check-catalogue.ts'
import { renderReport, visible } from '../../src/verify/reporters.ts'
import { summarise, type CheckResult, type VerifyReport } from '../../src/verify/verify-report.ts'

// docs/verify.md, "Reports": the pretty report by spec section with a failure's details under it, the summary
// lines and the exit line; the JSON report as it is; JUnit with a suite per section, <failure>, <skipped>, and an
// advisory failure as a passing case with its finding in <system-out>. On a report made by hand.

function result(id: CheckId, outcome: CheckResult['outcome'], extra: Partial<CheckResult> = {}): CheckResult {
  const { title, section, advisory }: CheckDefinition = checkCatalogue[id]
  return { id, title, section, outcome, ...(advisory === undefined ? {} : { advisory }), ...extra }
}

const failure = result('getPet.deprecation', 'fail', {
  reason: 'expected a Deprecation header, got no Deprecation header',
  expected: 'a Deprecation header',
  actual: 'no Deprecation header',
  request: 'GET https://staging.example/v1/pets/1 (Authorization: Bearer <key>)',
  response: '200\ncontent-type: application/json',
})
const advisoryFailure = result('createPet.location', 'fail', { reason: 'expected Location, got none', expected: 'Location: /v1/pets/3' })
const checks = [result('auth.missing-key', 'pass'), result('limits.429', 'skip', { reason: 'needs --limits' }), failure, advisoryFailure]
const report: VerifyReport = summarise('https://staging.example/v1', checks, false, 20, 23)

/** A line as the pretty report shows it at its default width, 100 columns: cut, with an ellipsis. */
const at100 = (line: string) => (line.length > 100 ? `${line.slice(0, 99)}…` : line)

/** XML's five escapes. */
const xmlText = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;')

// Rendered in each test, not when the file is collected: a report rendered once up front would not show a change
// made to the reporter for one test only (Stryker's per-test mutants).
const prettyLines = () => renderReport(report, 'pretty').split('\n')

describe('the pretty report', () => {
  const indent = ' '.repeat('getPet.deprecation'.length + 6)
  const line = (mark: string, id: CheckId) => at100(`  ${mark} ${id.padEnd(18)}  ${checkCatalogue[id].title}`)

  it('groups the checks by spec section, in the spec order, one line each with its mark', () => {
    const lines = prettyLines()
    expect(lines[0]).toBe('petstore-sim verify https://staging.example/v1')
    const sections = lines.filter((line) => line !== '' && !line.startsWith(' ')).slice(1, -3)
    expect(sections).toEqual(['Authentication', 'Endpoints: POST /pets (createPet)', 'Versioning', 'Limits: Exceeding the limit'])
    expect(lines).toContain(line('✓', 'auth.missing-key'))
    expect(lines).toContain(line('-', 'limits.429'))
    expect(lines).toContain(`${indent}skipped: needs --limits`)
    expect(lines).toContain(line('✗', 'getPet.deprecation'))
    expect(lines).toContain(line('!', 'createPet.location'))
  })

  it("shows a failure's expected, actual, request and response under it, a response line by line", () => {
    const lines = prettyLines()
    const at = lines.indexOf(line('✗', 'getPet.deprecation'))
    expect(lines.slice(at + 1, at + 6)).toEqual([
      at100(`${indent}expected: a Deprecation header`),
      at100(`${indent}actual:   no Deprecation header`),
      at100(`${indent}request:  GET https://staging.example/v1/pets/1 (Authorization: Bearer <key>)`),
      at100(`${indent}response: 200`),
      at100(`${indent}          content-type: application/json`),
    ])
  })

  it('says an advisory failure is one, with its question', () => {
    const lines = prettyLines()
    const at = lines.findIndex((line) => line.startsWith('  ! createPet.location'))
    expect(lines[at + 1]).toBe(`${indent}advisory (the spec is silent: ${checkCatalogue['createPet.location'].advisory})`)
    expect(lines[at + 2]).toBe(`${indent}expected: Location: /v1/pets/3`)
    expect(lines[at + 3]).toBe('')
  })

  it('ends with the counts, the requests and the failed ids', () => {
    const lines = prettyLines()
    expect(lines.slice(-4)).toEqual([
      '4 checks: 1 passed, 1 failed, 1 skipped, 1 advisory failed (pass --strict to fail on them)',
      '20 requests sent (at most 23 announced)',
      'FAILED: getPet.deprecation',
      '',
    ])
  })

  it('fails the advisory check too with strict', () => {
    const strict = renderReport(summarise(report.target, checks, true, 20, 23), 'pretty', { strict: true })
    expect(strict).toContain('  ✗ createPet.location')
    expect(strict).toContain('4 checks: 1 passed, 2 failed, 1 skipped\n')
    expect(strict).toContain('FAILED: getPet.deprecation, createPet.location\n')
  })

  it('says OK when nothing failed', () => {
    const passed = summarise(report.target, [result('auth.missing-key', 'pass')], false, 1, 4)
    expect(renderReport(passed, 'pretty').split('\n').slice(-4)).toEqual([
      '1 checks: 1 passed, 0 failed, 0 skipped',
      '1 request sent (at most 4 announced)',
      'OK: the target behaves as the spec says',
      '',
    ])
  })

  it("cuts every check's lines to the terminal width, 60 columns at the least", () => {
    const lines = prettyLines()
    for (const columns of [80, 20]) {
      const width = Math.max(60, columns)
      const cut = renderReport(report, 'pretty', { columns }).split('\n').slice(0, -4)
      expect(Math.max(...cut.map((shown) => shown.length))).toBe(width)
      const long = cut.find((shown) => shown.startsWith('  ✗ getPet.deprecation'))!
      expect(long).toBe(`${`  ✗ getPet.deprecation  ${checkCatalogue['getPet.deprecation'].title}`.slice(0, width - 1)}…`)
    }
    expect(Math.max(...lines.slice(0, -4).map((shown) => shown.length))).toBe(100)
  })
})

describe('the JSON report', () => {
  it('is the report, and parses back to it', () => {
    const text = renderReport(report, 'json')
    expect(text.endsWith('}\n')).toBe(true)
    expect(JSON.parse(text)).toEqual(report)
  })

  it('holds the control characters a target sent as escapes that parse back to them', () => {
    const hostile = summarise('t', [result('auth.missing-key', 'fail', { actual: 'a\u001b[2Jb\u009bc\u202ed\u2028e' })], false, 1, 1)
    const text = renderReport(hostile, 'json')
    expect(text).toContain('a\\u001b[2Jb\\u009bc\\u202ed\\u2028e')
    expect(JSON.parse(text)).toEqual(hostile)
  })
})

describe('the JUnit report', () => {
  it('is one testsuites with the counts, a testsuite per section', () => {
    const text = renderReport(report, 'junit')
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true)
    expect(text).toContain(
      '<testsuites name="petstore-sim verify https://staging.example/v1" tests="4" failures="1" errors="0" skipped="1">',
    )
    expect(text).toContain('  <testsuite name="Authentication" tests="1" failures="0" errors="0" skipped="0">')
    expect(text).toContain('  <testsuite name="Versioning" tests="1" failures="1" errors="0" skipped="0">')
    expect(text).toContain('  <testsuite name="Limits: Exceeding the limit" tests="1" failures="0" errors="0" skipped="1">')
    expect(text.match(/<testsuite /g)).toHaveLength(4)
    expect(text.endsWith('</testsuites>\n')).toBe(true)
  })

  it('has a passing case, a skipped one, a failure with its details, and an advisory finding in system-out', () => {
    const text = renderReport(report, 'junit')
    const title = (id: CheckId) => xmlText(`${id}: ${checkCatalogue[id].title}`)
    expect(text).toContain(`<testcase classname="petstore-sim verify.Authentication" name="${title('auth.missing-key')}" time="0"/>`)
    expect(text).toContain(`name="${title('limits.429')}" time="0">\n      <skipped message="needs --limits"/>\n    </testcase>`)
    expect(text).toContain(
      `<failure message="expected a Deprecation header, got no Deprecation header" type="getPet.deprecation">expected: a Deprecation header\nactual: no Deprecation header\nrequest: GET https://staging.example/v1/pets/1 (Authorization: Bearer &lt;key&gt;)\nresponse:\n200\ncontent-type: application/json</failure>`,
    )
    expect(text).toContain(
      `<system-out>expected Location, got none\nadvisory: the spec is silent (${checkCatalogue['createPet.location'].advisory})\nexpected: Location: /v1/pets/3</system-out>`,
    )
  })

  it('escapes what XML would read, shows control characters, and drops what XML cannot hold', () => {
    const hostile = summarise('t', [result('auth.missing-key', 'fail', { reason: `<a href="x">'&'</a>\u001b\uFFFE\uD800` })], false, 1, 1)
    expect(renderReport(hostile, 'junit')).toContain('<failure message="&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;\\x1b" ')
  })
})

describe('visible', () => {
  it.each([
    ['\u0000', '\\x00'],
    ['\u0008', '\\x08'],
    ['\u000b', '\\x0b'],
    ['\u001b[31m', '\\x1b[31m'],
    ['\r', '\\x0d'],
    ['\u007f', '\\x7f'],
    ['\u009b', '\\x9b'],
    ['\u061c', '\\u061c'],
    ['\u200e\u200f', '\\u200e\\u200f'],
    ['\u2028\u2029', '\\u2028\\u2029'],
    ['\u202a\u202e', '\\u202a\\u202e'],
    ['\u2066\u2069', '\\u2066\\u2069'],
    ['line\nand\ttab, é, \u00a0, \u2030', 'line\nand\ttab, é, \u00a0, \u2030'],
  ])('shows %j as %j', (raw, shown) => {
    expect(visible(raw)).toBe(shown)
  })
})
