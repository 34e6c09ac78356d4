import { pageOrigin, scenarioPetCount, scenarioSeed, scenarioStart, testKeySpec, type ApiTarget } from './api-target.ts'
import type { JournalEntry } from '../../src/core/journal/request-journal.ts'
import { httpJournalClient } from './journal-client.ts'
import { startCli } from './cli-process.ts'
import { checkedControl } from './control-contract.ts'

/**
 * The real `petstore-sim` process on a free port, driven through its control endpoints; `args` are more flags
 * (`--engine msw`). With `sandbox`, the API and the control plane of that sandbox (`/sandboxes/<name>/v1`,
 * `/sandboxes/<name>/__sim`): one more target, as a CI job sharing a simulator reaches it.
 */
export async function startCliTarget(args: readonly string[] = [], sandbox?: string): Promise<ApiTarget & { close(): Promise<unknown> }> {
  const cli = await startCli([...scenarioCliArgs(), '--cors-origin', pageOrigin, ...args])
  if (sandbox === undefined) return controlledTarget(cli.apiUrl, cli.origin, fetch, () => cli.stop())
  const origin = `${cli.origin}/sandboxes/${sandbox}`
  return controlledTarget(`${origin}${new URL(cli.apiUrl).pathname}`, origin, fetch, () => cli.stop())
}

/** The CLI's flags for the scenarios' world: a free loopback port, no log, their seed, pet count and keys. */
export function scenarioCliArgs(keys: Readonly<Record<string, string>> = testKeySpec): string[] {
  return [
    '--port',
    '0',
    '--log',
    'silent',
    '--seed',
    String(scenarioSeed),
    '--pets',
    String(scenarioPetCount),
    ...Object.entries(keys).flatMap(([token, plan]) => ['--key', `${token}=${plan}`]),
  ]
}

/**
 * A simulator served over HTTP, driven through its control endpoints at `origin`: the API is sent with the global
 * `fetch`, the control requests with `control` (the global `fetch`, or one that adds an admin token).
 */
export function controlledTarget(
  apiUrl: string,
  origin: string,
  control: (input: string, init?: RequestInit) => Promise<Response>,
  close: () => Promise<unknown>,
): ApiTarget & { close(): Promise<unknown> } {
  // Every control answer the scenarios see is checked against the control plane's own document.
  control = checkedControl(control)
  const post = async (path: string, body?: unknown) => {
    const response = await control(`${origin}/__sim${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`POST /__sim${path} answered ${response.status}: ${await response.text()}`)
  }
  return {
    apiUrl,
    fetch: (input, init) => fetch(input, init),
    async reset() {
      await post('/reset')
      // Frozen, like the in-process manual clock: time moves only when a scenario moves it.
      await post('/clock', { set: scenarioStart, freeze: true })
    },
    advanceClock: (milliseconds) => post('/clock', { advance: milliseconds }),
    setClock: (iso) => post('/clock', { set: iso }),
    async addFault(rule) {
      const response = await control(`${origin}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rule),
      })
      if (response.status !== 201) throw new Error(`POST /__sim/faults answered ${response.status}: ${await response.text()}`)
      return ((await response.json()) as { ids: string[] }).ids[0]!
    },
    async removeFault(id) {
      const response = await control(`${origin}/__sim/faults/${id}`, { method: 'DELETE' })
      if (!response.ok) throw new Error(`DELETE /__sim/faults/${id} answered ${response.status}`)
    },
    async journal() {
      return ((await (await control(`${origin}/__sim/requests`)).json()) as { requests: JournalEntry[] }).requests
    },
    journalClient: httpJournalClient(control, origin),
    close,
  }
}
