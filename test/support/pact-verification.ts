import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pact } from '../../src/core/contract/pact-export.ts'

// Pact's own verifier (@pact-foundation/pact 17) as a provider team runs it, for test/pact/: stateHandlers (17
// deprecates providerStatesSetupUrl) and a requestFilter that puts the team's key in place of <API_KEY> only
// (docs/pact.md's recipe).

process.env.PACT_DO_NOT_TRACK = 'true'
const { Verifier } = await import('@pact-foundation/pact')

/** What Pact's stateHandlers hold: per state, a setup and a teardown given the state's params. */
export type StateHandlers = Record<string, { setup: (params?: unknown) => Promise<void>; teardown: (params?: unknown) => Promise<void> }>

/** The states a pact exported from the simulator names (docs/pact.md#provider-states). */
export const stateNames = [
  'a pet with id {id} exists',
  'no pet with id {id} exists',
  'the catalogue is empty',
  'the key {key} has no requests left this minute',
  'getPet is past its sunset',
] as const

/** `requestFilter` putting `key` in place of the placeholder only: a request recorded without a key stays without. */
export function placeholderFilter(key: string) {
  return (request: { headers: Record<string, string | undefined> }, _response: unknown, next: () => void) => {
    if (request.headers.authorization === 'Bearer <API_KEY>') request.headers.authorization = `Bearer ${key}`
    next()
  }
}

/** State handlers that post each state to a simulator's provider-state URL, as docs/pact.md's recipe does. */
export function simulatorStateHandlers(stateUrl: string): StateHandlers {
  const post = async (state: string, params: unknown, action: 'setup' | 'teardown') => {
    // The simulator takes the pact's <API_KEY> as it is: every key it knows is spent, whichever the requestFilter sends.
    const mapped = (params ?? {}) as Record<string, unknown>
    const response = await fetch(stateUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state, params: mapped, action }),
    })
    if (!response.ok) throw new Error(`${state}: ${response.status} ${await response.text()}`)
  }
  return Object.fromEntries(
    stateNames.map((state) => [
      state,
      { setup: (params?: unknown) => post(state, params, 'setup'), teardown: (params?: unknown) => post(state, params, 'teardown') },
    ]),
  )
}

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-pact-'))
process.once('exit', () => rmSync(directory, { recursive: true, force: true }))
let written = 0

/** Verifies a pact against `providerUrl`: Pact's results on success, its error on failure. */
export async function verifyPact(
  pact: Pact | object,
  providerUrl: string,
  options: { stateHandlers?: StateHandlers; requestFilter?: ReturnType<typeof placeholderFilter> } = {},
): Promise<{ passed: boolean; output: string }> {
  const file = join(directory, `pact-${++written}.json`)
  writeFileSync(file, JSON.stringify(pact))
  try {
    const output = await new Verifier({
      provider: (pact as Pact).provider.name,
      providerBaseUrl: providerUrl,
      pactUrls: [file],
      logLevel: 'error',
      timeout: 10_000,
      ...(options.stateHandlers === undefined ? {} : { stateHandlers: options.stateHandlers }),
      ...(options.requestFilter === undefined ? {} : { requestFilter: options.requestFilter as never }),
    }).verifyProvider()
    return { passed: true, output }
  } catch (error) {
    return { passed: false, output: (error as Error).message }
  }
}

/**
 * A consumer's test run against a simulator (`apiUrl`, its control plane at `origin`), with the README's reset
 * between tests: lists, creates, getPet 200 and 404, 401s without and with a wrong key, a createPet 400, a 429; and
 * answers the spec does not define (limit=500, status=lost, getPet past its sunset), which the pact leaves out.
 */
export async function consumerRun(apiUrl: string, origin: string, key: string): Promise<Pact> {
  const send = (path: string, init: RequestInit = {}, token: string | null = key) =>
    fetch(`${apiUrl}${path}`, { ...init, headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...init.headers } })
  const create = (body: unknown) =>
    send('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const control = (path: string, body: unknown = {}) =>
    fetch(`${origin}/__sim${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const expectStatus = async (answer: Promise<Response>, status: number) => {
    const response = await answer
    if (response.status !== status) throw new Error(`${response.url}: expected ${status}, got ${response.status}`)
  }
  await expectStatus(send('/pets?limit=2'), 200)
  await expectStatus(send('/pets?limit=3'), 200)
  await expectStatus(send('/pets'), 200)
  await expectStatus(send('/pets?status=sold&limit=5'), 200)
  await expectStatus(control('/reset'), 200)
  await expectStatus(send('/pets/3'), 200)
  await expectStatus(send('/pets/4'), 200)
  await expectStatus(send('/pets/999999'), 404)
  await expectStatus(control('/reset'), 200)
  await expectStatus(create({ name: 'Rex the Magnificent Third of His Name', categoryId: 2, status: 'pending', password: 'CANARY' }), 201)
  await expectStatus(create({ name: 'Tom', categoryId: 3 }), 201)
  await expectStatus(create({ name: 'Nobody' }), 400)
  await expectStatus(send('/pets', {}, null), 401)
  await expectStatus(send('/pets/3', {}, 'not-my-key'), 401)
  await expectStatus(send('/pets?limit=500'), 400)
  await expectStatus(send('/pets?status=lost'), 400)
  await expectStatus(control('/reset'), 200)
  await expectStatus(control('/provider-states', { state: 'the key {key} has no requests left this minute', params: { key } }), 200)
  await expectStatus(send('/pets?limit=1'), 429)
  await expectStatus(control('/clock', { set: '2030-12-06T00:00:00Z' }), 200)
  await expectStatus(send('/pets/1'), 410)
  const answer = await fetch(`${origin}/__sim/requests.pact?consumer=pet-shop-web&provider=animal-store`)
  if (answer.status !== 200) throw new Error(`the pact: ${answer.status} ${await answer.text()}`)
  return (await answer.json()) as Pact
}
