import type { ClientReport } from '../../../core/grading/client-grader.ts'
import { controlBase, type ControlClient } from './control-client.ts'
import { byId, el } from './dom.ts'

// The client report (`GET /__sim/clients`, docs/grading-clients.md): each caller's verdict, its findings, and links
// to the first offending requests in the journal.

/** Shows the report now and every 5 s while the page is open. */
export function watchClients(client: ControlClient): void {
  const refresh = () => {
    client.call<ClientReport>('GET', '/clients').then(render, () => {
      byId('clients-panel').hidden = true
    })
  }
  refresh()
  setInterval(refresh, 5000)
}

function render(report: ClientReport): void {
  byId('clients-panel').hidden = false
  byId('clients-summary').textContent =
    report.callers.length === 0
      ? 'No callers yet: each is graded against the spec\u2019s rules for clients as its requests are answered.'
      : `${report.verdict === 'pass' ? 'Pass' : 'Fail'}: ${report.callers.length} callers, ${report.violations} violations, ${report.advice} advice.`
  const box = byId('clients')
  box.textContent = ''
  for (const grade of report.callers) {
    const item = el('li')
    item.dataset.caller = grade.caller
    item.append(
      el('strong', grade.verdict === 'pass' ? 'ok' : 'bad', grade.verdict === 'pass' ? 'PASS ' : 'FAIL '),
      el('span', '', `${grade.keyName ?? grade.caller} (${grade.plan})`),
      el('span', 'muted', ` · ${grade.requests} requests · fits ${grade.planAdvice.smallestPlan}`),
    )
    const findings = el('ul')
    for (const finding of grade.findings) {
      const line = el('li', finding.severity === 'violation' ? 'bad' : 'muted', `${finding.rule} (${finding.count}): ${finding.message} `)
      for (const sequence of finding.firstSequences) {
        const link = el('a', '', `#${sequence}`)
        link.href = `${controlBase}/requests?since=${sequence}&until=${sequence}`
        line.append(link, ' ')
      }
      findings.appendChild(line)
    }
    if (grade.findings.length > 0) item.appendChild(findings)
    box.appendChild(item)
  }
}
