import { describe, expect, it } from 'vitest'
import type { Pact, PactInteraction } from '../../../src/core/contract/pact-export.ts'
import { plain, setUpPipeline as setup } from '../../support/plain-pipeline.ts'

// Pacts from the journal (docs/pact.md, "Pacts from the journal"): one interaction per distinct exchange, the
// provider states an answer needed, what is left out, and the bodies as sent. On plain data, with the core's journal.

const pro = { Authorization: 'Bearer demo-pro-key' }
const json = { ...pro, 'content-type': 'application/json' }

function pactOf(
  build: (send: (method: string, target: string, headers?: Record<string, string>, body?: string) => Promise<number>) => Promise<void>,
  options: Parameters<typeof setup>[0] = {},
) {
  const { simulator, clock } = setup(options)
  const send = async (method: string, target: string, headers: Record<string, string> = pro, body?: string) =>
    (await Promise.resolve(simulator.pipeline.respond(plain(method, target, headers, body)))).status
  return {
    simulator,
    clock,
    run: async () => {
      await build(send)
      return simulator.journal.toPact() as Pact
    },
  }
}

const states = (pact: Pact) => pact.interactions.map((interaction) => [interaction.description, interaction.providerStates ?? []])

describe('toPact: provider states, as docs/pact.md names them', () => {
  it('names a pet that exists (with its values), and one that does not (a 400 needs none)', async () => {
    const { run } = pactOf(async (send) => {
      await send('GET', '/v1/pets/1')
      await send('GET', '/v1/pets/999999')
      await send('GET', '/v1/pets/abc')
    })
    const pact = await run()
    const [found, missing, invalid] = pact.interactions as [PactInteraction, PactInteraction, PactInteraction]
    expect(found.description).toBe('getPet GET /v1/pets/1 with demo-pro-key: 200')
    expect(found.providerStates).toEqual([
      {
        name: 'a pet with id {id} exists',
        params: expect.objectContaining({ id: 1, name: expect.any(String), categoryId: expect.any(Number) }),
      },
    ])
    expect(missing.description).toBe('getPet GET /v1/pets/999999 with demo-pro-key: 404 pet_not_found')
    expect(missing.providerStates).toEqual([{ name: 'no pet with id {id} exists', params: { id: 999999 } }])
    // A 400 needs no state.
    expect(invalid.description).toBe('getPet GET /v1/pets/abc with demo-pro-key: 400 invalid_path_parameter')
    expect(invalid.providerStates).toBeUndefined()
  })

  it("names getPet's sunset for its 410, and the empty catalogue for a listPets [] without a filter only", async () => {
    const { run, clock } = pactOf(
      async (send) => {
        await send('GET', '/v1/pets')
        await send('GET', '/v1/pets?status=sold')
        clock.set('2031-01-01T00:00:00Z')
        await send('GET', '/v1/pets/1')
      },
      { pets: 0 },
    )
    expect(states(await run())).toEqual([
      ['listPets GET /v1/pets with demo-pro-key: 200', [{ name: 'the catalogue is empty' }]],
      ['listPets GET /v1/pets?status=sold with demo-pro-key: 200', []],
      [expect.stringMatching(/^getPet GET \/v1\/pets\/1 with demo-pro-key: 410 /), [{ name: 'getPet is past its sunset' }]],
    ])
  })

  it('names the key of a 429, and leaves out a 429 of a caller without a key (no provider can be put in that state)', async () => {
    const { run } = pactOf(
      async (send) => {
        for (let index = 0; index < 3; index++) await send('GET', '/v1/pets', { Authorization: 'Bearer tiny-key' })
        for (let index = 0; index < 62; index++) await send('GET', '/v1/pets', {})
      },
      { keys: { 'tiny-key': 'enterprise:2/1000' } },
    )
    const pact = await run()
    expect(states(pact)).toEqual([
      ['listPets GET /v1/pets with <API_KEY>: 200', []],
      [
        'listPets GET /v1/pets with <API_KEY>: 429 rate_limit_exceeded',
        [{ name: 'the key {key} has no requests left this minute', params: { key: '<API_KEY>' } }],
      ],
      ['listPets GET /v1/pets without an API key: 401 missing_api_key', []],
    ])
  })
})

describe('toPact: one interaction per distinct exchange, and what is left out', () => {
  it('keeps the first of exchanges of one shape, and numbers descriptions that would repeat', async () => {
    const { run } = pactOf(async (send) => {
      await send('GET', '/v1/pets?limit=2')
      await send('GET', '/v1/pets?limit=5')
      await send('GET', '/v1/pets?limit=5&status=sold')
      await send('GET', '/v1/pets', { Authorization: 'Bearer demo-free-key' })
    })
    const pact = await run()
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual([
      'listPets GET /v1/pets?limit=2 with demo-pro-key: 200',
      'listPets GET /v1/pets?limit=5&status=sold with demo-pro-key: 200',
      'listPets GET /v1/pets with demo-free-key: 200',
    ])
    expect(pact.interactions[0]!.request.query).toEqual({ limit: ['2'] })
    expect(pact.interactions[2]!.request.query).toBeUndefined()
    expect(pact.metadata['petstore-sim']).toEqual({ source: 'journal', apiKeyPlaceholder: '<API_KEY>', requests: 4 })
    expect(pact.consumer).toEqual({ name: 'animal-store-consumer' })
    expect(pact.provider).toEqual({ name: 'animal-store' })
  })

  it('leaves out forced answers, fault rules, unmatched requests and 5xx', async () => {
    const { run, simulator } = pactOf(async (send) => {
      await send('GET', '/v1/pets', { ...pro, prefer: 'code=429' })
      simulator.faults.add({ operation: 'getPet', status: 404, times: 1 })
      await send('GET', '/v1/pets/1')
      await send('GET', '/v1/nowhere')
      await send('DELETE', '/v1/pets')
      simulator.faults.add({ operation: 'listPets', status: 503, times: 1 })
      await send('GET', '/v1/pets?limit=1')
      await send('GET', '/v1/pets/2')
    })
    const pact = await run()
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual(['getPet GET /v1/pets/2 with demo-pro-key: 200'])
    expect(pact.metadata['petstore-sim'].requests).toBe(6)
  })
})

describe('toPact: bodies as sent', () => {
  it('carries a JSON request body as JSON, and another as text with its content type', async () => {
    const { run } = pactOf(async (send) => {
      await send('POST', '/v1/pets', json, '{"name":"Rex","categoryId":1}')
      await send('POST', '/v1/pets', { ...pro, 'content-type': 'text/plain' }, 'Rex')
    })
    const [created, refused] = (await run()).interactions as [PactInteraction, PactInteraction]
    expect(created.request.body).toEqual({ content: { name: 'Rex', categoryId: 1 }, contentType: 'application/json', encoded: false })
    expect(created.request.headers).toEqual({ Authorization: ['Bearer demo-pro-key'], 'Content-Type': ['application/json'] })
    expect(created.response.status).toBe(201)
    expect(created.response.headers?.Location).toEqual([expect.stringMatching(/^\/v1\/pets\/\d+$/)])
    expect(refused.response.status).toBe(415)
    expect(refused.request.body).toEqual({ content: 'Rex', contentType: 'text/plain', encoded: false })
  })
})
