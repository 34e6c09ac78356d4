import type { FaultRule } from '../../../core/faults/fault-rules.ts'
import type { SimulatorStatus, WindowStatus } from '../../../core/state/simulator-status.ts'
import type { ControlClient } from './control-client.ts'
import { addOption, byId, el, field, hms, utc } from './dom.ts'
import { noteKey, noteOperation } from './requests-table.ts'

// What `GET /__sim/state` (and the stream's `state` event) shows: the clock, the keys and their limits, the fault
// rules in force, the request counts, and the choices of the fault form.

export interface StatusPanels {
  /** The last state shown, or null before the first. */
  current(): SimulatorStatus | null
  /** Shows a state. */
  render(next: SimulatorStatus): void
  /** Moves the clock on (a running clock moves between states) and reads the state again when a window has reset. */
  tick(): void
}

export function createStatusPanels(client: ControlClient): StatusPanels {
  let state: SimulatorStatus | null = null
  let stateAt = 0
  let lastRefresh = 0

  function simulatedNow(): number {
    if (!state) return 0
    return state.clock.epochMs + (state.clock.frozen ? 0 : Math.round(performance.now() - stateAt))
  }

  function renderClock(): void {
    if (!state) return
    const iso = new Date(simulatedNow()).toISOString()
    const time = byId<HTMLTimeElement>('clock-now')
    time.textContent = utc(iso)
    time.dateTime = iso
    const mode = byId('clock-mode')
    mode.textContent = state.clock.frozen ? 'frozen' : 'running'
    mode.className = `badge ${state.clock.frozen ? 'warn' : 'ok'}`
    const freeze = byId('freeze')
    freeze.textContent = state.clock.frozen ? 'Unfreeze' : 'Freeze'
    freeze.setAttribute('aria-pressed', String(state.clock.frozen))
  }

  function renderFaults(faults: readonly FaultRule[]): void {
    const body = byId('faults')
    body.textContent = ''
    for (const rule of faults) {
      const row = el('tr')
      row.dataset.rule = rule.id
      const often: string[] = []
      if (rule.remaining !== undefined) often.push(`${rule.remaining} more`)
      if (rule.probability !== undefined) often.push(`p=${rule.probability}`)
      row.append(
        el('td', '', rule.id),
        el('td', '', describeMatch(rule)),
        el('td', '', describeAction(rule)),
        el('td', '', often.length ? often.join(', ') : 'always'),
      )
      const cell = el('td')
      const remove = el('button', 'danger', 'Remove')
      remove.type = 'button'
      remove.setAttribute('aria-label', `Remove fault rule ${rule.id}`)
      remove.onclick = () => {
        client.act(client.call('DELETE', `/faults/${encodeURIComponent(rule.id)}`), `Fault rule ${rule.id} removed`, 'fault-error')
      }
      cell.appendChild(remove)
      row.appendChild(cell)
      body.appendChild(row)
    }
    byId('no-faults').hidden = faults.length > 0
  }

  function render(next: SimulatorStatus): void {
    state = next
    stateAt = performance.now()
    renderClock()
    renderKeys(next)
    renderFaults(next.faults)
    renderChoices(next)
    const counts = next.requests.byStatusClass
    byId('counts').textContent =
      `${next.requests.total} requests: ${counts['2xx']} 2xx, ${counts['4xx']} 4xx, ${counts['5xx']} 5xx` +
      `${counts.none ? `, ${counts.none} without an answer` : ''} · ${next.pets} pets`
  }

  return {
    current: () => state,
    render,
    tick() {
      renderClock()
      if (!state || state.clock.frozen) return
      const now = simulatedNow()
      const due = state.keys.some(
        (key) => (key.minute.used > 0 && Date.parse(key.minute.resetAt) <= now) || (key.bannedUntil && Date.parse(key.bannedUntil) <= now),
      )
      if (due && performance.now() - lastRefresh > 5000) {
        lastRefresh = performance.now()
        client.call<SimulatorStatus>('GET', '/state').then(render, () => {})
      }
    },
  }
}

function windowRow(name: string, usage: WindowStatus): HTMLElement {
  const wrap = el('div', 'window')
  const label = el('span', '', name)
  const bar = el('div', 'bar')
  const fill = el('div', `fill${usage.remaining === 0 ? ' full' : ''}`)
  fill.style.width = `${Math.min(100, (usage.used / usage.limit) * 100)}%`
  bar.appendChild(fill)
  bar.setAttribute('role', 'meter')
  bar.setAttribute('aria-valuemin', '0')
  bar.setAttribute('aria-valuemax', String(usage.limit))
  bar.setAttribute('aria-valuenow', String(usage.used))
  const text = `${usage.used}/${usage.limit} · ${usage.remaining} left · resets ${hms(usage.resetAt)}`
  bar.setAttribute(
    'aria-label',
    `${name}: ${usage.used} of ${usage.limit} used, ${usage.remaining} left, resets at ${hms(usage.resetAt)} UTC`,
  )
  bar.dataset.window = name.toLowerCase()
  wrap.append(label, bar, el('span', 'text muted', text))
  return wrap
}

function renderKeys(state: SimulatorStatus): void {
  const box = byId('keys')
  box.textContent = ''
  for (const key of state.keys) {
    const card = el('div', 'key')
    card.dataset.key = key.key
    const title = el('h3')
    title.append(el('code', '', key.token || key.key), ' ', el('span', 'muted', key.plan))
    // A demo key's name and its fingerprint, as the Requests table shows its caller.
    if (key.token) title.append(' ', el('code', 'muted', key.key))
    noteKey(key)
    if (key.bannedUntil) title.append(' ', el('span', 'badge bad', `banned until ${hms(key.bannedUntil)}`))
    card.append(title, windowRow('Minute', key.minute), windowRow('Day', key.day))
    box.appendChild(card)
  }
  const anonymous = state.anonymous
  byId('anonymous').textContent =
    `Callers without a valid key (${anonymous.perMinute}/min, ${anonymous.perDay}/day, one bucket per address): ` +
    `${anonymous.buckets} buckets, ${anonymous.banned} banned.`
}

function describeMatch(rule: FaultRule): string {
  const parts: string[] = []
  if (rule.operation) parts.push(rule.operation)
  if (rule.method || rule.path) parts.push(`${rule.method || '*'} ${rule.path || ''}`)
  if (rule.key) parts.push(`key ${rule.key}`)
  return parts.length ? parts.join(', ') : 'every operation'
}

function describeAction(rule: FaultRule): string {
  const parts: string[] = []
  if (rule.status) parts.push(String(rule.status))
  if (rule.fault) parts.push(rule.fault + (rule.hangMs ? ` ${rule.hangMs} ms` : ''))
  if (rule.delay !== undefined)
    parts.push(`delay ${typeof rule.delay === 'number' ? rule.delay : `${rule.delay.min}–${rule.delay.max}`} ms`)
  return parts.join(', ')
}

// The operations, methods and fault kinds come from the state (the route table and the fault-kind table), not from this page.
function renderChoices(state: SimulatorStatus): void {
  const form = byId<HTMLFormElement>('fault-form')
  for (const route of state.operations) {
    noteOperation(route.operation)
    addOption(field(form, 'operation') as HTMLSelectElement, route.operation)
    addOption(field(form, 'method') as HTMLSelectElement, route.method)
    // The route table answers HEAD on every GET route, and fault rules match it as its GET.
    if (route.method === 'GET') addOption(field(form, 'method') as HTMLSelectElement, 'HEAD')
  }
  for (const fault of state.faultKinds) addOption(field(form, 'fault') as HTMLSelectElement, fault.kind, fault.description)
}
