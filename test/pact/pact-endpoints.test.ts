import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp, type AppOptions } from '../../src/app/app.ts'
import type { Pact } from '../../src/core/contract/pact-export.ts'
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import { providerStates } from '../../src/core/simulator/provider-states.ts'
import { createManualClock } from '../../src/core/time/clock.ts'
import { createControlHandlers } from '../../src/handlers/control-handlers.ts'
import { applyProviderState } from '../../src/index.ts'

// Pact both ways over the control plane (issue #30): GET /__sim/requests.pact and POST /__sim/provider-states, what
// a user sees of them. What a pact holds (issue 36) is test/pact/pact-export.test.ts; Pact's own verifier runs
// against them in test/pact/pact-verifier.test.ts. In-process and without a build, so in the fast layer too
// (vitest.unit.config.ts), where it is what kills core/contract's mutants; the browser build's toPact is checked in
// test/packaging/browser-build.test.ts.

function setUp(options: AppOptions = {}) {
  const app = createApp({ clock: createManualClock('2030-06-15T10:00:30Z'), ...options })
  const send = (path: string, init: RequestInit = {}, clientAddress = '127.0.0.1') =>
    app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress })
  const api = (path: string, key = 'demo-pro-key', init: RequestInit = {}) =>
    send(`/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } })
  const state = (body: unknown) =>
    send('/__sim/provider-states', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const pact = async (query = '') => (await (await send(`/__sim/requests.pact${query}`)).json()) as Pact
  return { app, send, api, state, pact }
}

describe('GET /__sim/requests.pact', () => {
  it('takes every journal filter, and names the parties', async () => {
    const { api, pact, send } = setUp()
    await api('/pets?limit=1')
    await api('/pets/1')
    const only = await pact('?operation=getPet&consumer=pet-shop-web&provider=animal-store-v1')
    expect(only.consumer.name).toBe('pet-shop-web')
    expect(only.provider.name).toBe('animal-store-v1')
    expect(only.interactions.map((interaction) => interaction.request.path)).toEqual(['/v1/pets/1'])
    expect((await pact('?since=2')).interactions).toHaveLength(1)
    const badNames = ['?consumer=../../x/../y', '?provider=a/../../../../etc/passwd', '?consumer=web..app', '?simulatorChoices=maybe']
    for (const query of ['?bogus=1', '?status=abc', '?consumer=', '?consumer=%0Aevil', '?provider=a&provider=b', ...badNames]) {
      const response = await send(`/__sim/requests.pact${query}`)
      expect(response.status, query).toBe(400)
      expect((await response.json()).code).toBe('invalid_query_parameter')
    }
  })

  it('is what simulator.journal.toPact gives in-process', async () => {
    const { app, api, pact } = setUp()
    await api('/pets/1')
    await api('/pets/999999')
    expect(app.simulator.journal.toPact({ filter: { status: 404 }, consumer: 'web' })).toEqual(await pact('?status=404&consumer=web'))
  })
})

describe('POST /__sim/provider-states', () => {
  it.each([
    ['a pet with id {id} exists', { id: 4242, name: 'Biscuit', categoryId: 3, status: 'sold' }],
    ['a pet with id 4242 exists', { name: 'Biscuit', categoryId: 3, status: 'sold' }],
  ])('sets up %j: the pet exists with exactly those values, and ids after it are free', async (name, params) => {
    const { api, state } = setUp()
    const response = await state({ state: name, params, action: 'setup' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      state: 'a pet with id {id} exists',
      action: 'setup',
      params: { id: 4242, name: 'Biscuit', categoryId: 3, status: 'sold' },
    })
    expect(await (await api('/pets/4242')).json()).toEqual({ id: 4242, name: 'Biscuit', categoryId: 3, status: 'sold' })
    const created = await api('/pets', 'demo-pro-key', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Next","categoryId":1}',
    })
    expect((await created.json()).id).toBe(4243)
  })

  it('sets up the other states as the docs say', async () => {
    const { api, state } = setUp()
    expect((await state({ state: 'no pet with id {id} exists', params: { id: 1 } })).status).toBe(200)
    expect((await api('/pets/1')).status).toBe(404)
    expect((await state({ state: 'the catalogue is empty', params: {} })).status).toBe(200)
    expect(await (await api('/pets')).json()).toEqual([])
    expect((await state({ state: 'the key {key} has no requests left this minute', params: { key: 'demo-free-key' } })).status).toBe(200)
    const refused = await api('/pets', 'demo-free-key')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await api('/pets?limit=1', 'demo-pro-key')).status).toBe(200)
    expect((await state({ state: 'getPet is past its sunset' })).status).toBe(200)
    expect((await api('/pets/1')).status).toBe(410)
  })

  it('starts each setup from a clean simulator; teardown resets only what would leak into the next interaction', async () => {
    const { app, api, state } = setUp()
    await state({ state: 'getPet is past its sunset', action: 'setup' })
    await state({ state: 'getPet is past its sunset', action: 'teardown' })
    expect((await api('/pets/1')).status).toBe(200)
    await state({ state: 'a pet with id {id} exists', params: { id: 9000 }, action: 'setup' })
    await state({ state: 'a pet with id {id} exists', params: { id: 9000 }, action: 'teardown' })
    expect(await (await api('/pets/9000')).json()).toEqual({ id: 9000, name: 'Pet 9000', categoryId: 1, status: 'available' })
    await state({ state: 'the catalogue is empty', action: 'setup' })
    expect(app.simulator.store.size).toBe(0)
    await state({ state: 'no pet with id {id} exists', params: { id: 9000 }, action: 'setup' })
    expect(app.simulator.store.size).toBe(50)
  })

  it('accepts the empty state, which changes nothing', async () => {
    const { app, api, state } = setUp()
    await api('/pets', 'demo-pro-key', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Kept","categoryId":1}',
    })
    for (const action of ['setup', 'teardown']) {
      const response = await state({ state: '', params: {}, action })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ state: '', action, params: {} })
    }
    expect(app.simulator.store.size).toBe(51)
    expect(app.simulator.journal.count()).toBe(1)
  })

  it.each([
    [{ state: 'a pet called Rex exists' }, /Unknown provider state "a pet called Rex exists"/],
    [{ state: 'a pet with id {id} exists' }, /id must be a whole number/],
    [{ state: 'a pet with id {id} exists', params: { id: 3, status: 'lost' } }, /status/],
    [{ state: 'a pet with id {id} exists', params: { id: 3, name: '' } }, /name/],
    [{ state: 'a pet with id 3 exists', params: { id: 4 } }, /id is 3 in the state's name but 4 in params/],
    [
      { state: 'the key {key} has no requests left this minute', params: { key: 'not-a-key' } },
      /key must be an API key the simulator knows/,
    ],
    [{ state: 'the catalogue is empty', action: 'cleanup' }, /action must be "setup" or "teardown"/],
    [[1], /Send \{"state"/],
  ])('answers %j with 400 invalid_provider_state naming the known states', async (body, message) => {
    const { app, state } = setUp()
    const before = app.simulator.store.size
    const response = await state(body)
    expect(response.status).toBe(400)
    const error = await response.json()
    expect(error.code).toBe('invalid_provider_state')
    expect(error.status).toBe(400)
    expect(error.message).toMatch(message)
    for (const known of providerStates) expect(error.message).toContain(JSON.stringify(known.name))
    expect(app.simulator.store.size).toBe(before)
  })

  it('is behind the guard of every control endpoint', async () => {
    const { send } = setUp()
    const body = JSON.stringify({ state: 'the catalogue is empty' })
    const remote = await send(
      '/__sim/provider-states',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body },
      '203.0.113.9',
    )
    expect(remote.status).toBe(403)
    expect((await remote.json()).code).toBe('control_forbidden')
    const foreign = await send('/__sim/provider-states', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body,
    })
    expect(foreign.status).toBe(403)
  })
})

describe('provider states in-process', () => {
  const cleanups: Array<() => void> = []
  afterEach(() => {
    while (cleanups.length > 0) cleanups.pop()!()
  })

  it('are set through the control MSW handlers, or with applyProviderState', async () => {
    const simulator = createSimulatorCore()
    const server = setupServer(...createControlHandlers(simulator))
    server.listen({ onUnhandledFrame: 'error' })
    cleanups.push(() => server.close())
    const response = await fetch('http://petstore.test/__sim/provider-states', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'the catalogue is empty', params: {}, action: 'setup' }),
    })
    expect(response.status).toBe(200)
    expect(simulator.store.size).toBe(0)
    expect(applyProviderState(simulator, { state: 'a pet with id {id} exists', params: { id: 5, name: 'Tom' } })).toEqual({
      state: 'a pet with id {id} exists',
      action: 'setup',
      params: { id: 5, name: 'Tom', categoryId: 1, status: 'available' },
    })
    expect(simulator.store.get(5)).toEqual({ id: 5, name: 'Tom', categoryId: 1, status: 'available' })
  })
})
