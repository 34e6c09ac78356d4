import type { JournalSummary } from '../../../core/journal/journal-types.ts'
import type { KeyStatus } from '../../../core/state/simulator-status.ts'
import { addOption, byId, el, hms } from './dom.ts'
import type { JournalView } from './journal-view.ts'
import type { RequestFilterBox } from './request-filter-box.ts'

// The Requests table: the newest `maxRows` summaries the event stream sent, filtered by status, operation and key,
// and by what the requests carried (the filter box, request-filter-box.ts), each row opening the request's detail.

const maxRows = 300

/** What the event stream's `requests` event carries. */
export interface RequestsBatch {
  readonly requests: readonly JournalSummary[]
  /** Requests left out of the batch: they came too fast to list. */
  readonly skipped: number
}

export interface RequestsTable {
  /** Adds a batch, newest first; `replace`: the batch is the whole list (a stream just opened). */
  add(batch: RequestsBatch, replace: boolean): void
  /** Empties the list (a reset). */
  clear(): void
  /** Shows the list again through the filters. */
  render(): void
}

export function createRequestsTable(journal: JournalView, createBox: (render: () => void) => RequestFilterBox): RequestsTable {
  let entries: JournalSummary[] = []
  const box = createBox(() => render())
  const passes = (entry: JournalSummary) => passesSelects(entry) && box.passes(entry.sequence)

  function rowFor(entry: JournalSummary): HTMLTableRowElement {
    const row = el('tr')
    row.dataset.sequence = String(entry.sequence)
    row.dataset.status = String(entry.status)
    const timeCell = el('td')
    const open = el('button', '', hms(entry.at))
    open.type = 'button'
    open.setAttribute('aria-label', `Details of request ${entry.sequence}, ${entry.method} ${entry.path}`)
    open.onclick = () => showDetail(entry)
    timeCell.appendChild(open)
    const marker = entry.fault ? `fault ${entry.fault}` : entry.forced ? 'forced' : ''
    row.append(
      timeCell,
      el('td', '', entry.method),
      el('td', 'path', entry.path),
      el('td', statusClass(entry.status), entry.status === 0 ? 'none' : entry.status),
      el('td', '', entry.operation),
      el('td', '', entry.keyName ? `${entry.keyName} (${entry.caller})` : entry.caller),
      el('td', 'num', entry.durationMs.toFixed(1)),
    )
    const markerCell = el('td')
    if (marker) {
      markerCell.appendChild(el('span', `badge ${entry.fault ? 'bad' : 'warn'}`, marker))
      row.dataset.marker = marker
    }
    row.appendChild(markerCell)
    return row
  }

  function showDetail(entry: JournalSummary): void {
    const list = byId('detail-list')
    list.textContent = ''
    for (const [name, value] of Object.entries(entry)) list.append(el('dt', '', name), el('dd', '', value))
    byId('detail-h').textContent = `Request ${entry.sequence}`
    byId<HTMLDialogElement>('detail').showModal()
    journal.loadExchange(entry.sequence)
  }

  function render(): void {
    const body = byId('rows')
    body.textContent = ''
    const fragment = document.createDocumentFragment()
    for (let index = entries.length - 1; index >= 0; index--) if (passes(entries[index]!)) fragment.appendChild(rowFor(entries[index]!))
    body.appendChild(fragment)
    byId('no-rows').hidden = entries.length > 0
  }

  return {
    add(batch, replace) {
      if (replace) entries = []
      for (const entry of batch.requests) {
        entries.push(entry)
        noteOperation(entry.operation)
      }
      if (entries.length > maxRows) entries = entries.slice(entries.length - maxRows)
      journal.coverageSoon()
      byId('skipped').textContent = batch.skipped ? `${batch.skipped} more requests came too fast to list` : ''
      box.refreshSoon()
      if (replace) return render()
      const body = byId<HTMLTableSectionElement>('rows')
      const fragment = document.createDocumentFragment()
      for (let index = batch.requests.length - 1; index >= 0; index--) {
        const entry = batch.requests[index]!
        if (passes(entry)) fragment.appendChild(rowFor(entry))
      }
      body.insertBefore(fragment, body.firstChild)
      while (body.rows.length > maxRows) body.deleteRow(body.rows.length - 1)
      byId('no-rows').hidden = entries.length > 0
    },
    clear() {
      entries = []
      render()
    },
    render,
  }
}

function statusClass(status: number): string {
  return status === 0 ? 'bad' : status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok'
}

function passesSelects(entry: JournalSummary): boolean {
  const wanted = byId<HTMLSelectElement>('filter-status').value
  if (wanted === '0' && entry.status !== 0) return false
  if (wanted === '429' && entry.status !== 429) return false
  if (wanted.length === 1 && wanted !== '0' && Math.floor(entry.status / 100) !== Number(wanted)) return false
  const key = byId<HTMLSelectElement>('filter-key').value
  if (key && entry.caller !== key) return false
  const operation = byId<HTMLSelectElement>('filter-operation').value
  return !operation || entry.operation === operation
}

/** An operation for the operation filter, from the state's route table or a request seen. */
export function noteOperation(operation: string): void {
  addOption(byId<HTMLSelectElement>('filter-operation'), operation)
}

/** A key for the key filter: a demo key by its name and fingerprint, any other by its fingerprint. */
export function noteKey(key: KeyStatus): void {
  const select = byId<HTMLSelectElement>('filter-key')
  for (const option of select.options) if (option.value === key.key) return
  const option = el('option', '', key.token ? `${key.token} (${key.key})` : key.key)
  option.value = key.key
  select.appendChild(option)
}
