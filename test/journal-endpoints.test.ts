import { describe, expect, it } from 'vitest'
import { createApp } from '../src/app/app.ts'
import { createManualClock } from '../src/core/time/clock.ts'

// The journal's control endpoints over HTTP (issue #16): what only HTTP has, the errors and headers. The behaviour
// they share with simulator.journal runs on every target in test/scenarios/journal-scenarios.ts.

function setUp() {
  const app = createApp({ clock: createManualClock('2030-06-15T10:00:30Z') })
  const send = (path: string, init: RequestInit = {}) =>
    app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress: '127.0.0.1' })
  const api = (path: string) => send(`/v1${path}`, { headers: { authorization: 'Bearer demo-pro-key' } })
  return { app, send, api }
}

describe('the journal endpoints', () => {
  it.each([
    ['/__sim/requests?bogus=1', /Unknown filter bogus/],
    ['/__sim/requests?status=401&status=429', /status is given more than once/],
    ['/__sim/requests?since=-1', /since must be a whole number/],
    ['/__sim/requests/count?status=abc', /status must be/],
    ['/__sim/requests/count?timeoutMs=10', /Unknown filter timeoutMs/],
    ['/__sim/requests/wait?timeoutMs=60001', /timeoutMs must be a whole number of ms from 0 to 60000/],
    ['/__sim/requests/wait?timeoutMs=soon', /timeoutMs must be/],
    ['/__sim/requests.har?limit=x', /limit must be a whole number/],
  ])('answers %s with a 400 invalid_query_parameter Error body', async (path, message) => {
    const response = await setUp().send(path)
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.code).toBe('invalid_query_parameter')
    expect(body.message).toMatch(message)
  })

  it('answers a wait that times out with 404 request_not_seen, naming what was sent instead', async () => {
    const { send, api } = setUp()
    expect((await api('/pets?limit=1')).status).toBe(200)
    const response = await send('/__sim/requests/wait?operation=createPet&timeoutMs=50')
    expect(response.status).toBe(404)
    const body = await response.json()
    expect(body.code).toBe('request_not_seen')
    expect(body.message).toContain('#1 GET /v1/pets?limit=1 -> 200 listPets')
  })

  it('clears the journal only: the caller keeps its count, the pets stay', async () => {
    const { app, send, api } = setUp()
    await api('/pets?limit=1')
    const before = (await api('/pets?limit=1')).headers.get('x-ratelimit-remaining')
    const cleared = await send('/__sim/requests', { method: 'DELETE' })
    expect(cleared.status).toBe(200)
    expect(await cleared.json()).toEqual({ requests: [] })
    expect(app.simulator.journal.entries()).toEqual([])
    expect(Number((await api('/pets?limit=1')).headers.get('x-ratelimit-remaining'))).toBe(Number(before) - 1)
    expect(await (await send('/__sim/requests/count')).json()).toEqual({ count: 1 })
  })

  it('finds the requests that sent a wrong key by that key, and those without a valid key as anonymous', async () => {
    const { send } = setUp()
    await send('/v1/pets', { headers: { authorization: 'Bearer my-typo-key' } })
    await send('/v1/pets')
    const sequences = async (query: string) =>
      ((await (await send(`/__sim/requests?${query}`)).json()) as { requests: { sequence: number }[] }).requests.map(
        (entry) => entry.sequence,
      )
    expect(await sequences('key=my-typo-key')).toEqual([1])
    expect(await sequences('key=anonymous')).toEqual([1, 2])
    expect(await sequences('key=demo-pro-key')).toEqual([])
  })

  it('serves the HAR as a download, and coverage can be started over', async () => {
    const { send, api } = setUp()
    await api('/pets/1')
    const har = await send('/__sim/requests.har')
    expect(har.headers.get('content-disposition')).toBe('attachment; filename="petstore-sim.har"')
    expect((await har.json()).log.entries).toHaveLength(1)
    const getPet = (coverage: { operations: { operation: string; calls: number }[] }) =>
      coverage.operations.find((operation) => operation.operation === 'getPet')!.calls
    expect(getPet(await (await send('/__sim/coverage')).json())).toBe(1)
    expect(getPet(await (await send('/__sim/coverage', { method: 'DELETE' })).json())).toBe(0)
  })
})
