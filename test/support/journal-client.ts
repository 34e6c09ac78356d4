import type { ContractCoverage } from '../../src/core/journal/contract-coverage.ts'
import type { JournalFilter } from '../../src/core/journal/journal-filter.ts'
import type { Har } from '../../src/core/journal/journal-har.ts'
import type { JournalEntry } from '../../src/core/journal/request-journal.ts'
import type { SimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import { checkedControl } from './control-contract.ts'

/**
 * The journal's queries as a target offers them: in-process through
 * `simulator.journal`, or over HTTP through `/__sim/requests…` and
 * `/__sim/coverage`. The scenarios run the same checks on both.
 */
export interface JournalClient {
  find(filter?: JournalFilter): Promise<JournalEntry[]>
  count(filter?: JournalFilter): Promise<number>
  clear(): Promise<void>
  /** Resolves with the entry, or rejects with the message listing the nearest entries. */
  waitFor(filter: JournalFilter, timeoutMs: number): Promise<JournalEntry>
  har(): Promise<Har>
  coverage(): Promise<ContractCoverage>
  resetCoverage(): Promise<void>
}

export function inProcessJournalClient(simulator: SimulatorCore): JournalClient {
  return {
    find: async (filter) => simulator.journal.find(filter),
    count: async (filter) => simulator.journal.count(filter),
    clear: async () => simulator.journal.clear(),
    waitFor: (filter, timeoutMs) => simulator.journal.waitFor(filter, { timeoutMs }),
    har: async () => simulator.journal.toHar(),
    coverage: async () => simulator.coverage(),
    resetCoverage: async () => simulator.resetCoverage(),
  }
}

/** `send` is the target's `fetch` (a real one, or `app.fetch`); `origin` is where `/__sim` is. */
export function httpJournalClient(send: (input: string, init?: RequestInit) => Promise<Response>, origin: string): JournalClient {
  // Every journal answer the scenarios see is checked against the control plane's own document.
  send = checkedControl(send)
  const query = (filter: JournalFilter = {}, extra: Record<string, string> = {}) => {
    const params = new URLSearchParams(extra)
    for (const [name, value] of Object.entries(filter)) if (value !== undefined) params.set(name, String(value))
    const text = params.toString()
    return text === '' ? '' : `?${text}`
  }
  const json = async (path: string, init?: RequestInit) => {
    const response = await send(`${origin}/__sim${path}`, init)
    const body = await response.json()
    if (!response.ok) throw new Error(`${init?.method ?? 'GET'} /__sim${path} answered ${response.status}: ${body.message}`)
    return body
  }
  return {
    find: async (filter) => (await json(`/requests${query(filter)}`)).requests,
    count: async (filter) => (await json(`/requests/count${query(filter)}`)).count,
    clear: async () => {
      await json('/requests', { method: 'DELETE' })
    },
    waitFor: async (filter, timeoutMs) => (await json(`/requests/wait${query(filter, { timeoutMs: String(timeoutMs) })}`)).request,
    har: () => json('/requests.har'),
    coverage: () => json('/coverage'),
    resetCoverage: async () => {
      await json('/coverage', { method: 'DELETE' })
    },
  }
}
