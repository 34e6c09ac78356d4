import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp, type AppOptions } from '../../src/app/app.ts'
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import { describeProviderStates } from '../../src/core/simulator/provider-states.ts'
import { createManualClock } from '../../src/core/time/clock.ts'
import { createControlHandlers } from '../../src/handlers/control-handlers.ts'

// Issue 36, item 5, over HTTP: GET /__sim/provider-states (a 405 before), the ids near 2^53 (a 500 that reset the
// simulator anyway), the pact's <API_KEY> in the key state (a 400 before).

function setUp(options: AppOptions = {}) {
  const app = createApp({ clock: createManualClock('2030-06-15T10:00:30Z'), ...options })
  const send = (path: string, init: RequestInit = {}, clientAddress = '127.0.0.1') =>
    app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress })
  const api = (path: string, key = 'demo-pro-key', init: RequestInit = {}) =>
    send(`/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } })
  const post = (path: string, body: unknown) =>
    send(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const state = (body: unknown) => post('/__sim/provider-states', body)
  const create = (name: string, key = 'demo-pro-key') =>
    api('/pets', key, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) })
  return { app, send, api, post, state, create }
}

describe('GET /__sim/provider-states', () => {
  it('lists every state with its params, what holds after setup and its teardown, as the handler declares them', async () => {
    const { send } = setUp()
    const response = await send('/__sim/provider-states')
    expect(response.status).toBe(200)
    const listing = await response.json()
    expect(listing.apiKeyPlaceholder).toBe('<API_KEY>')
    expect(listing.states).toEqual(JSON.parse(JSON.stringify(describeProviderStates())))
    const pet = listing.states.find((entry: { name: string }) => entry.name === 'a pet with id {id} exists')
    expect(pet.params[0]).toEqual({
      name: 'id',
      type: 'integer',
      required: true,
      minimum: 1,
      maximum: 9007199254740990,
      description: 'the pet’s id',
    })
    expect(pet.teardown).toBe('nothing')
    const key = listing.states.find((entry: { name: string }) => entry.name.startsWith('the key'))
    expect(key.params.map((param: { name: string }) => param.name)).toEqual(['key', 'plan'])
    expect(key.params[1].values).toEqual(['free', 'pro', 'business', 'enterprise'])
    expect(key.teardown).toBe('a reset')
    expect(listing.states.at(-1)).toEqual({ name: '', params: [], setup: 'nothing changes', teardown: 'nothing' })
  })

  it('is behind the guard of every control endpoint', async () => {
    const { send } = setUp()
    expect((await send('/__sim/provider-states', {}, '203.0.113.9')).status).toBe(403)
    expect((await send('/__sim/provider-states', { headers: { origin: 'https://evil.example' } })).status).toBe(403)
    const guarded = setUp({ control: { adminToken: 'admin-t0ken-for-tests' } })
    expect((await guarded.send('/__sim/provider-states')).status).toBe(401)
    const admitted = await guarded.send('/__sim/provider-states', { headers: { authorization: 'Bearer admin-t0ken-for-tests' } })
    expect(admitted.status).toBe(200)
  })

  const cleanups: Array<() => void> = []
  afterEach(() => {
    while (cleanups.length > 0) cleanups.pop()!()
  })

  it('is answered in-process by the control handlers', async () => {
    const server = setupServer(...createControlHandlers(createSimulatorCore()))
    server.listen({ onUnhandledFrame: 'error' })
    cleanups.push(() => server.close())
    const response = await fetch('http://petstore.test/__sim/provider-states')
    expect(response.status).toBe(200)
    expect((await response.json()).states).toHaveLength(describeProviderStates().length)
  })
})

describe('POST /__sim/provider-states: ids near 2^53 and refused states', () => {
  it.each([2 ** 53 - 100_001, 2 ** 53 - 2])('sets up a pet with id %d, and the next snapshot restores', async (id) => {
    const { api, send, state, create } = setUp()
    expect((await state({ state: `a pet with id ${id} exists`, action: 'setup' })).status).toBe(200)
    expect(await (await api(`/pets/${id}`)).json()).toEqual({ id, name: `Pet ${id}`, categoryId: 1, status: 'available' })
    const next = await create('Next')
    if (id === 2 ** 53 - 2) {
      // No id is left after it: createPet says so rather than repeat an id.
      expect([next.status, (await next.json()).code]).toEqual([507, 'store_full'])
    } else {
      expect((await next.json()).id).toBe(id + 1)
    }
    const snapshot = await (await send('/__sim/snapshot')).json()
    const restored = await send('/__sim/snapshot', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(snapshot),
    })
    expect(restored.status).toBe(200)
  })

  it.each([
    { state: 'a pet with id {id} exists', params: { id: 2 ** 53 - 1 } },
    { state: 'a pet with id 9007199254740992 exists' },
    { state: 'a pet with id {id} exists', params: { id: 5, name: 'x'.repeat(256) } },
    { state: 'the key {key} has no requests left this minute', params: { key: '<API_KEY>', plan: 'platinum' } },
    { state: 'no such state' },
  ])('refuses %j with a 400 and nothing changed: the journal, a created pet, a clock move', async (body) => {
    // One pro key: no key of the other plans.
    const { app, post, state, create } = setUp({ keys: { 'demo-pro-key': 'pro' } })
    expect((await create('Kept')).status).toBe(201)
    expect((await post('/__sim/clock', { advance: '90s' })).status).toBe(200)
    const before = { pets: app.simulator.store.size, journal: app.simulator.journal.count(), now: app.simulator.clock.now() }
    const response = await state(body)
    expect(response.status).toBe(400)
    expect((await response.json()).code).toBe('invalid_provider_state')
    expect({ pets: app.simulator.store.size, journal: app.simulator.journal.count(), now: app.simulator.clock.now() }).toEqual(before)
  })
})

describe('the key state with the pact placeholder <API_KEY>', () => {
  const keys = { 'team-pro-key': 'pro', 'team-free-key': 'free' }

  it('spends every key the simulator knows: the verifier puts in whichever it has', async () => {
    const { api, state } = setUp({ keys })
    const response = await state({ state: 'the key {key} has no requests left this minute', params: { key: '<API_KEY>' } })
    expect(response.status).toBe(200)
    expect((await response.json()).params).toEqual({ key: '<API_KEY>' })
    for (const key of Object.keys(keys)) {
      const refused = await api('/pets?limit=1', key)
      expect([refused.status, Number(refused.headers.get('retry-after')) > 0]).toEqual([429, true])
    }
  })

  it('with the plan the pact recorded, still spends every key: the verifier may send a key of another plan', async () => {
    const { api, state } = setUp({ keys })
    const response = await state({ state: 'the key <API_KEY> has no requests left this minute', params: { plan: 'free' } })
    expect(response.status).toBe(200)
    expect((await api('/pets?limit=1', 'team-pro-key')).status).toBe(429)
    expect((await api('/pets?limit=1', 'team-free-key')).status).toBe(429)
  })
})
