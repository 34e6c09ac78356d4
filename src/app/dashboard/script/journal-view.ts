import type { ContractCoverage } from '../../../core/journal/contract-coverage.ts'
import type { JournalBody } from '../../../core/journal/journal-exchange.ts'
import type { JournalEntry } from '../../../core/journal/journal-types.ts'
import { shownBodyText } from './body-text.ts'
import type { ControlClient } from './control-client.ts'
import { byId, el } from './dom.ts'

// The dashboard's journal parts (issue #16; their markup is `journal-panel.ts`): a request's whole exchange in its
// detail dialog (headers, bodies, error code, `Retry-After`) with "Copy as curl", the HAR download, and the contract
// coverage panel. The exchange is fetched when a row is opened (the event stream carries summaries only):
// `GET /__sim/requests/wait?since=<sequence>&timeoutMs=0` answers the entry itself while the journal still holds it.

export interface JournalView {
  /** Fetches and shows the exchange of the request whose detail is open. */
  loadExchange(sequence: number): void
  /** Refreshes the coverage panel within a second, once however many requests come in between. */
  coverageSoon(): void
}

export function createJournalView(client: ControlClient): JournalView {
  let detailSequence = 0
  let coverageTimer: ReturnType<typeof setTimeout> | null = null

  function loadExchange(sequence: number): void {
    detailSequence = sequence
    byId('detail-exchange').textContent = 'Loading the exchange…'
    byId('curl-text').hidden = true
    byId('copy-status').textContent = ''
    client.call<{ request?: JournalEntry } | null>('GET', `/requests/wait?since=${sequence}&timeoutMs=0`).then(
      (data) => {
        if (detailSequence !== sequence) return
        renderExchange(data?.request?.sequence === sequence ? data.request : null)
      },
      () => {
        if (detailSequence === sequence) renderExchange(null)
      },
    )
  }

  function refreshCoverage(): void {
    coverageTimer = null
    client.call<ContractCoverage>('GET', '/coverage').then(renderCoverage, () => {})
  }

  byId('copy-curl').onclick = () => {
    const text = byId('curl-text').textContent ?? ''
    byId('curl-text').hidden = false
    const done = () => {
      byId('copy-status').textContent = 'Copied'
    }
    const shown = () => {
      byId('copy-status').textContent = 'Select and copy the command below'
    }
    if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).then(done, shown)
    else shown()
  }
  byId('download-har').onclick = () => {
    const download = client.call<unknown>('GET', '/requests.har').then((har) => {
      const link = el('a')
      link.href = URL.createObjectURL(new Blob([JSON.stringify(har, null, 2)], { type: 'application/json' }))
      link.download = 'petstore-sim.har'
      document.body.appendChild(link)
      link.click()
      link.remove()
      setTimeout(() => URL.revokeObjectURL(link.href), 10000)
      return har
    })
    client.act(download, 'HAR downloaded')
  }
  byId('coverage-refresh').onclick = () => {
    client.act(client.call<ContractCoverage>('GET', '/coverage').then(renderCoverage), 'Coverage refreshed')
  }
  refreshCoverage()

  return {
    loadExchange,
    coverageSoon() {
      if (coverageTimer === null) coverageTimer = setTimeout(refreshCoverage, 1000)
    },
  }
}

function headerTable(title: string, headers: Readonly<Record<string, string>> | undefined): HTMLElement {
  const wrap = el('div')
  wrap.appendChild(el('h3', '', title))
  const names = Object.keys(headers || {})
  if (headers === undefined || names.length === 0) {
    wrap.appendChild(el('p', 'muted', 'none'))
    return wrap
  }
  const table = el('table')
  for (const name of names) {
    const row = el('tr')
    const key = el('th', '', name)
    key.scope = 'row'
    row.append(key, el('td', '', headers[name]))
    table.appendChild(row)
  }
  wrap.appendChild(table)
  return wrap
}

function bodyBlock(title: string, body: JournalBody | null): HTMLElement {
  const wrap = el('div')
  wrap.appendChild(el('h3', '', title))
  if (!body) {
    wrap.appendChild(el('p', 'muted', 'none'))
    return wrap
  }
  const text = body.encoding === 'utf8' ? shownBodyText(body.text) : body.text
  const note = `${body.size} bytes${body.encoding === 'base64' ? ', not UTF-8: base64' : ''}${body.truncated ? ", truncated to the journal's cap" : ''}`
  wrap.append(el('p', 'muted', note), el('pre', '', text))
  return wrap
}

function shellQuote(text: string): string {
  return `'${String(text).replace(/'/g, "'\\''")}'`
}

function curlFor(entry: JournalEntry): string {
  const request = entry.request
  const host = request.headers.host || location.host
  const query = entry.path.indexOf('?') === -1 ? '' : entry.path.slice(entry.path.indexOf('?'))
  const parts = ['curl', '-X', request.method, shellQuote(`${location.protocol}//${host}${request.path}${query}`)]
  for (const name of Object.keys(request.headers)) {
    if (name === 'host' || name === 'content-length' || name === 'connection') continue
    parts.push('-H', shellQuote(`${name}: ${request.headers[name]}`))
  }
  if (request.body && request.body.encoding === 'utf8') parts.push('--data-raw', shellQuote(request.body.text))
  return parts.join(' ')
}

function renderExchange(entry: JournalEntry | null): void {
  const box = byId('detail-exchange')
  box.textContent = ''
  const copy = byId<HTMLButtonElement>('copy-curl')
  if (!entry) {
    box.appendChild(el('p', 'muted', 'This request is no longer in the journal.'))
    copy.disabled = true
    return
  }
  const list = byId('detail-list')
  let code: string | null = null
  if (entry.response.body && entry.response.body.encoding === 'utf8') {
    try {
      code = (JSON.parse(entry.response.body.text) as { code?: string }).code || null
    } catch {
      code = null
    }
  }
  if (code) list.append(el('dt', '', 'error code'), el('dd', '', code))
  const retryAfter = entry.response.headers['retry-after']
  if (retryAfter) list.append(el('dt', '', 'Retry-After'), el('dd', '', `${retryAfter} s`))
  box.append(
    headerTable('Request headers', entry.request.headers),
    bodyBlock('Request body', entry.request.body),
    headerTable('Response headers', entry.response.headers),
    bodyBlock('Response body', entry.response.body),
  )
  copy.disabled = false
  byId('curl-text').textContent = curlFor(entry)
}

function renderCoverage(coverage: ContractCoverage): void {
  const summary = coverage.summary
  byId('coverage-summary').textContent =
    `${summary.spec.met} of the spec's ${summary.spec.documented} answers met, and ${summary.simulator.met} of the simulator's own ${summary.simulator.documented}` +
    `${summary.undocumented ? `, ${summary.undocumented} undocumented statuses answered` : ''}.`
  const deprecated = coverage.deprecatedCalls.map(
    (called) => `${called.operation} (removed ${(called.removal || '').slice(0, 10)}) called ${called.calls} times`,
  )
  const deprecatedNote = byId('coverage-deprecated')
  deprecatedNote.textContent = deprecated.length ? `Deprecated: ${deprecated.join('; ')}` : ''
  deprecatedNote.hidden = deprecated.length === 0
  const body = byId('coverage-rows')
  body.textContent = ''
  for (const operation of coverage.operations) {
    operation.statuses.forEach((status, index) => {
      const row = el('tr')
      row.dataset.operation = operation.operation
      row.dataset.status = String(status.status)
      const origin = status.documented ? (status.origin === 'simulator' ? ' (simulator)' : '') : ' undocumented'
      row.append(
        el('td', '', index === 0 ? operation.operation + (operation.deprecated ? ' (deprecated)' : '') : ''),
        el('td', status.documented ? '' : 'bad', status.status + origin),
        el('td', `num${status.count === 0 ? ' never' : ''}`, status.count === 0 ? 'never' : status.count),
        el('td', 'num', status.behaviour),
        el('td', 'num', status.forced),
        el('td', 'num', status.fault),
      )
      body.appendChild(row)
    })
  }
}
