import { describe, expect, it } from 'vitest'
import { createApp, type AppOptions } from '../../src/app/app.ts'
import type { Pact, PactInteraction } from '../../src/core/contract/pact-export.ts'
import { createManualClock } from '../../src/core/time/clock.ts'
import { createSimulator } from '../../src/index.ts'

// Issue 36: a pact says what the spec promises and what the consumer saw, nothing of the simulator's own choices;
// keeps every interaction across resets until cleared; is bounded and holds no secret. Over the control plane
// (GET /__sim/requests.pact) and in-process (journal.toPact). Pact's verifier runs them in pact-verifier.test.ts.

function setUp(options: AppOptions = {}) {
  const app = createApp({ clock: createManualClock('2030-06-15T10:00:30Z'), ...options })
  const send = (path: string, init: RequestInit = {}) =>
    app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress: '127.0.0.1' })
  const api = (path: string, key = 'demo-pro-key', init: RequestInit = {}) =>
    send(`/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } })
  const post = (body: string, key = 'demo-pro-key') =>
    api('/pets', key, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const control = (path: string, method = 'POST', body?: unknown) =>
    send(`/__sim${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const pact = async (query = '') => (await (await send(`/__sim/requests.pact${query}`)).json()) as Pact
  return { app, send, api, post, control, pact }
}

const find = (pact: Pact, start: string): PactInteraction => {
  const found = pact.interactions.find((interaction) => interaction.description.startsWith(start))
  expect(found, `${start} in ${pact.interactions.map((interaction) => interaction.description).join(' | ')}`).toBeDefined()
  return found!
}

describe('a pact of what the spec promises', () => {
  it('has one interaction per shape, every valid key as <API_KEY> with a Bearer matcher, no demo key named', async () => {
    const { api, send, pact } = setUp()
    await api('/pets?limit=2')
    await api('/pets?limit=5', 'demo-free-key')
    await api('/pets/7')
    await api('/pets/8')
    await api('/pets', 'demo-pro-key', { headers: { prefer: 'code=429' } })
    await send('/v1/pets')
    await api('/pets', 'typo-key-1')
    const exported = await pact()
    expect(exported.interactions.map((interaction) => [interaction.description, interaction.request.headers?.Authorization])).toEqual([
      ['listPets GET /v1/pets?limit=2 with an API key: 200', ['Bearer <API_KEY>']],
      ['getPet GET /v1/pets/7 with an API key: 200', ['Bearer <API_KEY>']],
      ['listPets GET /v1/pets without an API key: 401 missing_api_key', undefined],
      ['listPets GET /v1/pets with an invalid API key: 401 invalid_api_key', ['Bearer petstore-sim-invalid-key']],
    ])
    expect(exported.interactions[0]!.request.matchingRules).toEqual({
      header: { Authorization: { combine: 'AND', matchers: [{ match: 'regex', regex: '^Bearer [^ ]+$' }] } },
    })
    expect(JSON.stringify(exported)).not.toMatch(/demo-|typo-key|key#/)
    expect(exported.metadata['petstore-sim']).toMatchObject({ apiKeyPlaceholder: '<API_KEY>', invalidApiKey: 'petstore-sim-invalid-key' })
  })

  it('expects only the headers the spec names: no Deprecation, Sunset, Link, Location or WWW-Authenticate', async () => {
    const { api, send, post, pact } = setUp()
    await api('/pets/7')
    await send('/v1/pets/7')
    await post('{"name":"Rex","categoryId":2}')
    const exported = await pact()
    const trio = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']
    for (const interaction of exported.interactions) {
      expect(Object.keys(interaction.response.headers ?? {}).sort(), interaction.description).toEqual([...trio, 'Content-Type'].sort())
      expect(Object.keys(interaction.response.matchingRules?.header ?? {}).sort()).toEqual([...trio, 'Content-Type'].sort())
    }
    expect(JSON.stringify(exported)).not.toMatch(/Deprecation|Sunset|Link|Location|WWW-Authenticate/i)
  })

  it('expects a 429 with Retry-After (seconds or an HTTP date) and no body, its state naming <API_KEY> and the plan', async () => {
    const { api, control, pact } = setUp()
    const set = await control('/provider-states', 'POST', {
      state: 'the key {key} has no requests left this minute',
      params: { key: 'demo-free-key' },
    })
    expect(set.status).toBe(200)
    expect((await api('/pets?limit=1', 'demo-free-key')).status).toBe(429)
    const limited = find(await pact(), 'listPets GET /v1/pets?limit=1 with an API key: 429')
    expect(limited.providerStates).toEqual([
      { name: 'the key {key} has no requests left this minute', params: { key: '<API_KEY>', plan: 'free' } },
    ])
    expect(Object.keys(limited.response.headers ?? {}).sort()).toEqual([
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ])
    expect(limited.response.body).toBeUndefined()
    const retryAfter = limited.response.matchingRules?.header?.['Retry-After']?.matchers[0]
    expect(retryAfter).toMatchObject({ match: 'regex' })
    const pattern = new RegExp((retryAfter as { regex: string }).regex)
    expect(['30', 'Thu, 05 Dec 2030 00:00:00 GMT'].map((value) => pattern.test(value))).toEqual([true, true])
  })

  it("never requires a pet's status, and matches exactly what a state or the request fixes", async () => {
    const { api, post, pact } = setUp()
    await api('/pets?limit=3')
    await api('/pets?status=sold')
    await post('{"name":"Rex the Magnificent","categoryId":2}')
    await post('{"name":"Tom","categoryId":3,"status":"pending"}')
    await api('/pets/4')
    const exported = await pact()
    const page = find(exported, 'listPets GET /v1/pets?limit=3 ')
    expect(page.response.body?.content).toEqual([expect.not.objectContaining({ status: expect.anything() })])
    expect(page.response.matchingRules?.body?.$).toEqual({ combine: 'AND', matchers: [{ match: 'type', min: 0, max: 3 }] })
    const sold = find(exported, 'listPets GET /v1/pets?status=sold ')
    expect(sold.response.body?.content).toEqual([expect.objectContaining({ status: 'sold' })])
    expect(sold.response.matchingRules?.body?.['$[*].status']).toEqual({ combine: 'AND', matchers: [{ match: 'regex', regex: '^sold$' }] })
    expect(sold.response.matchingRules?.body?.$).toEqual({ combine: 'AND', matchers: [{ match: 'type', min: 0, max: 20 }] })
    const [withoutStatus, withStatus] = exported.interactions.filter((interaction) => interaction.response.status === 201)
    expect(withoutStatus!.response.body?.content).toEqual({ id: expect.any(Number), name: 'Rex the Magnificent', categoryId: 2 })
    expect(withStatus!.response.body?.content).toEqual({ id: expect.any(Number), name: 'Tom', categoryId: 3, status: 'pending' })
    // Only the id is the provider's: the name, category and status sent must come back as sent.
    expect(Object.keys(withoutStatus!.response.matchingRules?.body ?? {})).toEqual(['$.id'])
    const pet = find(exported, 'getPet GET /v1/pets/4 ')
    expect(pet.response.matchingRules?.body).toBeUndefined()
    expect(pet.providerStates).toEqual([{ name: 'a pet with id {id} exists', params: pet.response.body?.content }])
  })

  it("leaves the answers the spec does not define out, unless asked, and then marks them as the simulator's", async () => {
    const { api, post, send, pact, control } = setUp()
    await api('/pets?limit=2')
    await api('/pets?limit=500')
    await api('/pets?status=lost')
    await api('/pets?page=2')
    await api('/pets/abc')
    await post('{"categoryId":2}')
    await post(`{"name":"${'x'.repeat(300)}","categoryId":2}`)
    await send('/v1/pets', { method: 'HEAD', headers: { authorization: 'Bearer demo-pro-key' } })
    await control('/clock', 'POST', { set: '2030-12-06T00:00:00Z' })
    await api('/pets/1')
    const spec = await pact()
    expect(spec.interactions.map((interaction) => interaction.description)).toEqual([
      'listPets GET /v1/pets?limit=2 with an API key: 200',
      'createPet POST /v1/pets with an API key: 400 invalid_body',
    ])
    expect(spec.metadata['petstore-sim']).toMatchObject({ simulatorChoices: 'left out', simulatorChoicesLeftOut: 7 })
    const all = await pact('?simulatorChoices=include')
    expect(all.metadata['petstore-sim']).toMatchObject({ simulatorChoices: 'included', simulatorChoicesLeftOut: 0 })
    expect(all.interactions).toHaveLength(9)
    const marked = all.interactions
      .filter((interaction) => interaction.comments !== undefined)
      .map((interaction) => interaction.description)
    expect(marked).toEqual([
      'listPets GET /v1/pets?limit=500 with an API key: 400 invalid_query_parameter',
      'listPets GET /v1/pets?status=lost with an API key: 400 invalid_query_parameter',
      'listPets GET /v1/pets?page=2 with an API key: 200',
      'getPet GET /v1/pets/abc with an API key: 400 invalid_path_parameter',
      'createPet POST /v1/pets with an API key: 400 invalid_body (2)',
      'listPets HEAD /v1/pets with an API key: 200',
      'getPet GET /v1/pets/1 with an API key: 410 endpoint_removed',
    ])
    expect(find(all, 'getPet GET /v1/pets/1 ').providerStates).toEqual([{ name: 'getPet is past its sunset' }])
  })
})

describe('a pact keeps every interaction until it is cleared', () => {
  it('across reset(), scenario switches and journal clears, in-process', async () => {
    const simulator = createSimulator()
    const get = (path: string) => simulator.fetch(`http://petstore.test/v1${path}`, { headers: { authorization: 'Bearer demo-pro-key' } })
    await get('/pets?limit=1')
    simulator.reset()
    await get('/pets/3')
    simulator.useScenario('empty')
    await get('/pets')
    simulator.journal.clear()
    await simulator.fetch('http://petstore.test/v1/pets')
    expect(simulator.journal.count()).toBe(1)
    expect(simulator.journal.toPact().interactions.map((interaction) => interaction.description)).toEqual([
      'listPets GET /v1/pets?limit=1 with an API key: 200',
      'getPet GET /v1/pets/3 with an API key: 200',
      'listPets GET /v1/pets with an API key: 200',
      'listPets GET /v1/pets without an API key: 401 missing_api_key',
    ])
    expect(simulator.journal.clearPact()).toBe(4)
    expect(simulator.journal.toPact().interactions).toEqual([])
  })

  it('over the control plane, until DELETE /__sim/requests.pact', async () => {
    const { api, control, send, pact } = setUp()
    await api('/pets?limit=1')
    expect((await control('/reset')).status).toBe(200)
    await api('/pets/3')
    expect((await control('/requests', 'DELETE')).status).toBe(200)
    expect((await pact()).interactions).toHaveLength(2)
    const cleared = await send('/__sim/requests.pact', { method: 'DELETE' })
    expect(await cleared.json()).toEqual({ cleared: 2 })
    expect((await pact()).interactions).toHaveLength(0)
  })
})

describe('a pact is bounded and clean', () => {
  it('keeps no field outside NewPet of a request body, and leaves out bodies that are not a JSON object', async () => {
    const { post, send } = setUp()
    await post(JSON.stringify({ name: 'Rex', categoryId: 2, password: 'CANARY-pw', card: '4111 1111 1111 1111', apiKey: 'sk_live_CANARY' }))
    await post('{"name":"Rex","categoryId":2,"note":"CANARY in an array"')
    await post('["CANARY", 1]')
    const text = await (await send('/__sim/requests.pact?simulatorChoices=include')).text()
    expect(text).not.toMatch(/CANARY|4111|sk_live/)
    const exported = JSON.parse(text) as Pact
    expect(exported.interactions.map((interaction) => interaction.request.body?.content)).toEqual([{ name: 'Rex', categoryId: 2 }])
  })

  it('exports 1,000 journaled requests of a few shapes as a few interactions, one example pet per list', async () => {
    const { api, app, send } = setUp({ keys: { 'team-key': 'enterprise:100000/1000000' } })
    for (let count = 0; count < 1000; count++)
      await api(`/pets?limit=${(count % 100) + 1}${count % 2 === 0 ? '&status=available' : ''}`, 'team-key')
    expect(app.simulator.journal.count()).toBe(1000)
    const text = await (await send('/__sim/requests.pact')).text()
    const exported = JSON.parse(text) as Pact
    expect(exported.interactions).toHaveLength(2)
    for (const interaction of exported.interactions) expect(interaction.response.body?.content).toHaveLength(1)
    // The 1,000 pages held 50,500 pets (99 MB of pact before issue 36); two interactions are a few kB.
    expect(text.length).toBeLessThan(8 * 1024)
  })

  it('past the cap of distinct interactions, fails the export with a clear 409 until the pact is cleared', async () => {
    const { api, send } = setUp()
    for (let count = 0; count <= 500; count++) await api(`/pets?x${count}=1`)
    const refused = await send('/__sim/requests.pact')
    expect(refused.status).toBe(409)
    expect(await refused.json()).toMatchObject({
      code: 'pact_too_large',
      message: expect.stringMatching(/500 distinct interactions.*DELETE \/__sim\/requests\.pact/),
    })
    await send('/__sim/requests.pact', { method: 'DELETE' })
    await api('/pets?limit=1')
    expect((await send('/__sim/requests.pact')).status).toBe(200)
  })

  it('checks party names in-process too', () => {
    const simulator = createSimulator()
    for (const name of ['../../x/../y', 'a/../../../../etc/passwd', ''])
      expect(() => simulator.journal.toPact({ consumer: name }), name).toThrow(RangeError)
  })
})
