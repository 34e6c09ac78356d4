// A small frontend, as a user of petstore-sim would write one. Two modes:
// - ?mode=worker&seed=N: the simulator's handlers run in this page under
//   msw's setupWorker, and the app calls its own origin;
// - ?mode=remote&api=<url>: the app calls a standalone petstore-sim on
//   another origin, through the browser's CORS rules.
import { setupWorker } from 'msw/browser'
import { createSimulator } from '../../src/index.ts'

interface Answer {
  status: number
  body: unknown
  /** Response headers this page's JavaScript could read. */
  headers: Record<string, string | null>
}

const params = new URLSearchParams(location.search)
const mode = params.get('mode') ?? 'worker'
const readableHeaders = [
  'content-type',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'deprecation',
  'sunset',
  'link',
  'location',
  'preference-applied',
  'petstore-sim-fault',
]

let apiUrl: string
/** In worker mode, the page's own simulator's fault rules (`simulator.faults.add`). */
let addFault: (rule: Record<string, unknown>) => string = () => {
  throw new Error('fault rules are added over HTTP in remote mode')
}
/** In worker mode, the page's own simulator's state (`simulator.snapshot()`, `restore()`), to carry between runtimes. */
let snapshot: () => unknown = () => {
  throw new Error('snapshots are taken over HTTP in remote mode')
}
let restore: (data: unknown) => void = snapshot
if (mode === 'worker') {
  const simulator = createSimulator({
    seed: Number(params.get('seed') ?? 1),
    keys: { 'browser-key': 'pro', 'browser-tiny-key': 'enterprise:2/100' },
  })
  await setupWorker(...simulator.handlers).start({ quiet: true, onUnhandledFrame: 'bypass' })
  apiUrl = `${location.origin}/v1`
  addFault = (rule) => simulator.faults.add(rule)
  snapshot = () => JSON.parse(JSON.stringify(simulator.snapshot()))
  restore = (data) => simulator.restore(data)
} else {
  apiUrl = params.get('api')!
}

async function call(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Answer> {
  const headers = new Headers(init.headers)
  const key = init.key === undefined ? 'browser-key' : init.key
  if (key !== null) headers.set('Authorization', `Bearer ${key}`)
  const { key: _key, ...fetchInit } = init
  const response = await fetch(`${apiUrl}${path}`, { ...fetchInit, headers })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: kept as text.
  }
  return { status: response.status, body, headers: Object.fromEntries(readableHeaders.map((name) => [name, response.headers.get(name)])) }
}

async function render(): Promise<void> {
  const answer = await call('/pets?limit=10')
  const list = document.querySelector('#pets')!
  list.replaceChildren(
    ...(answer.body as Array<{ id: number; name: string; status: string }>).map((pet) => {
      const item = document.createElement('li')
      item.dataset.id = String(pet.id)
      item.textContent = `${pet.name} (${pet.status})`
      return item
    }),
  )
  document.querySelector('#rate-limit')!.textContent =
    `${answer.headers['x-ratelimit-remaining']} of ${answer.headers['x-ratelimit-limit']} requests left`
}

document.querySelector('#mode')!.textContent = `mode: ${mode}, API: ${apiUrl}`
await render()

declare global {
  interface Window {
    petstore: {
      call: typeof call
      attempt: typeof attempt
      addFault: typeof addFault
      render: typeof render
      snapshot: typeof snapshot
      restore: typeof restore
      ready: boolean
    }
  }
}
/** A request whose failure is an answer too: a network error comes back as `{ error }`, not as a thrown error. */
async function attempt(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Answer | { error: string }> {
  try {
    return await call(path, init)
  } catch (error) {
    return { error: (error as Error).name }
  }
}

window.petstore = { call, attempt, addFault, render, snapshot, restore, ready: true }
