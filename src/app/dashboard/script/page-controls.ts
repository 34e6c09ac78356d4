import type { ControlClient } from './control-client.ts'
import { byId, el, field } from './dom.ts'
import type { RequestsTable } from './requests-table.ts'
import type { StatusPanels } from './status-panels.ts'

// The page's buttons and forms: reset, the clock, forced answers, fault rules, the filters and the scenario.

export interface ControlParts {
  readonly client: ControlClient
  readonly status: StatusPanels
  readonly requests: RequestsTable
}

export function wireControls({ client, status, requests }: ControlParts): void {
  const post = (path: string, body: unknown) => client.call('POST', path, body)
  byId('reset').onclick = () => {
    client.act(client.call('POST', '/reset'), 'Simulator reset')
  }
  byId('freeze').onclick = () => {
    const frozen = status.current()?.clock.frozen === true
    client.act(post('/clock', { freeze: !frozen }), frozen ? 'Clock running' : 'Clock frozen')
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-advance]')) {
    button.onclick = () => {
      client.act(post('/clock', { advance: Number(button.dataset.advance) }), `Clock advanced by ${(button.textContent ?? '').slice(1)}`)
    }
  }
  byId('to-sunset').onclick = () => {
    const state = status.current()
    if (state) client.act(post('/clock', { set: state.getPet.sunsetAt }), 'Clock set to the getPet sunset')
  }
  byId<HTMLFormElement>('set-clock').onsubmit = (event) => {
    event.preventDefault()
    client.act(post('/clock', { set: byId<HTMLInputElement>('clock-input').value.trim() }), 'Clock set')
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-force]')) {
    button.onclick = () => {
      const kind = button.dataset.force ?? ''
      const isFault = status.current()?.faultKinds.some((fault) => fault.kind === kind) === true
      const rule = isFault ? { fault: kind, times: 1 } : { status: Number(kind), times: 1 }
      client.act(post('/faults', rule), `The next API request will get ${button.textContent}`, 'fault-error')
    }
  }
  const faultForm = byId<HTMLFormElement>('fault-form')
  faultForm.onsubmit = (event) => {
    event.preventDefault()
    const rule: Record<string, string | number> = {}
    for (const name of ['operation', 'method', 'path', 'key', 'fault']) {
      const value = field(faultForm, name).value
      if (value) rule[name] = value
    }
    for (const name of ['status', 'delay', 'times', 'probability']) {
      const value = field(faultForm, name).value
      if (value !== '') rule[name] = Number(value)
    }
    client.act(post('/faults', rule), 'Fault rule added', 'fault-error').then((data) => {
      if (data) faultForm.reset()
    })
  }
  for (const id of ['filter-status', 'filter-operation', 'filter-key']) byId(id).onchange = () => requests.render()
  const scenario = byId<HTMLSelectElement>('scenario')
  scenario.onchange = () => {
    const name = scenario.value
    client.act(post('/scenario', { name }), `Scenario ${name}`)
  }
}

interface Scenarios {
  readonly active: string
  readonly available: ReadonlyArray<{ readonly name: string; readonly description: string }>
}

// Scenarios (GET|POST /__sim/scenario): choosing one is a reset into it; a reset from anywhere re-reads the active one.
export function loadScenarios(client: ControlClient): Promise<void> {
  return client.call<Scenarios>('GET', '/scenario').then(
    (data) => {
      const select = byId<HTMLSelectElement>('scenario')
      select.textContent = ''
      for (const scenario of data.available) {
        const option = el('option', '', scenario.name)
        option.value = scenario.name
        option.title = scenario.description
        select.append(option)
      }
      select.value = data.active
    },
    () => {},
  )
}
