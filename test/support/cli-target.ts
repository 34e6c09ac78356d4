import { pageOrigin, scenarioPetCount, scenarioSeed, scenarioStart, testKeySpec, type ApiTarget } from './api-target.ts'
import type { JournalEntry } from '../../src/core/journal/request-journal.ts'
import { httpJournalClient } from './journal-client.ts'
import { startCli } from './cli-process.ts'

/** The real `petstore-sim` process on a free port, driven through its control endpoints; `args` are more flags (`--engine msw`). */
export async function startCliTarget(args: readonly string[] = []): Promise<ApiTarget & { close(): Promise<unknown> }> {
  const keyArgs = Object.entries(testKeySpec).flatMap(([token, plan]) => ['--key', `${token}=${plan}`])
  const cli = await startCli([
    '--port',
    '0',
    '--log',
    'silent',
    '--seed',
    String(scenarioSeed),
    '--pets',
    String(scenarioPetCount),
    ...keyArgs,
    '--cors-origin',
    pageOrigin,
    ...args,
  ])
  const control = async (path: string, body?: unknown) => {
    const response = await fetch(`${cli.origin}/__sim${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`POST /__sim${path} answered ${response.status}: ${await response.text()}`)
  }
  return {
    apiUrl: cli.apiUrl,
    fetch: (input, init) => fetch(input, init),
    async reset() {
      await control('/reset')
      // Frozen, like the in-process manual clock: time moves only when a scenario moves it.
      await control('/clock', { set: scenarioStart, freeze: true })
    },
    advanceClock: (milliseconds) => control('/clock', { advance: milliseconds }),
    setClock: (iso) => control('/clock', { set: iso }),
    async addFault(rule) {
      const response = await fetch(`${cli.origin}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rule),
      })
      if (response.status !== 201) throw new Error(`POST /__sim/faults answered ${response.status}: ${await response.text()}`)
      return ((await response.json()) as { ids: string[] }).ids[0]!
    },
    async removeFault(id) {
      const response = await fetch(`${cli.origin}/__sim/faults/${id}`, { method: 'DELETE' })
      if (!response.ok) throw new Error(`DELETE /__sim/faults/${id} answered ${response.status}`)
    },
    async journal() {
      return ((await (await fetch(`${cli.origin}/__sim/requests`)).json()) as { requests: JournalEntry[] }).requests
    },
    journalClient: httpJournalClient(fetch, cli.origin),
    close: () => cli.stop(),
  }
}
