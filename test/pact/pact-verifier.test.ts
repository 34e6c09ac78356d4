import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Pact } from '../../src/core/contract/pact-export.ts'
import { createNodeApp } from '../../src/node/node-app.ts'
import { startServer, type RunningServer } from '../../src/node/server.ts'
import { startDriftProxy } from '../support/drift-proxy.ts'

// Pact's own verifier (@pact-foundation/pact, its native core) against the standalone simulator (issue #30): pacts
// exported from the journal pass on a fresh simulator with another seed, hand-written pacts with each provider
// state pass, pacts that expect what the spec forbids fail with Pact's message, and a drifted copy fails.

process.env.PACT_DO_NOT_TRACK = 'true'
const { Verifier } = await import('@pact-foundation/pact')

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-pact-'))
const servers: RunningServer[] = []
const start = async (seed: number) => {
  const server = await startServer({ app: createNodeApp({ seed }), port: 0, host: '127.0.0.1', log: 'silent' })
  servers.push(server)
  return server
}
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  rmSync(directory, { recursive: true, force: true })
})

let written = 0
/** Verifies a pact against `providerUrl` (states at `stateServer`): Pact's results on success, its error on failure. */
async function verify(
  pact: Pact | HandWritten,
  providerUrl: string,
  stateServer: RunningServer,
  extra: { requestFilter?: (request: any, response: any, next: () => void) => void } = {},
): Promise<{ passed: boolean; output: string }> {
  const file = join(directory, `pact-${++written}.json`)
  writeFileSync(file, JSON.stringify(pact))
  try {
    const output = await new Verifier({
      provider: pact.provider.name,
      providerBaseUrl: providerUrl,
      pactUrls: [file],
      providerStatesSetupUrl: `${stateServer.url}/__sim/provider-states`,
      providerStatesSetupTeardown: true,
      logLevel: 'error',
      timeout: 10_000,
      ...extra,
    }).verifyProvider()
    return { passed: true, output }
  } catch (error) {
    return { passed: false, output: (error as Error).message }
  }
}

interface HandWritten {
  consumer: { name: string }
  provider: { name: string }
  interactions: object[]
  metadata: { pactSpecification: { version: '4.0' } }
}

const json = (content: unknown) => ({ content, contentType: 'application/json', encoded: false })
const auth = { Authorization: ['Bearer demo-pro-key'] }
const integer = { combine: 'AND', matchers: [{ match: 'integer' }] }
const anyText = { combine: 'AND', matchers: [{ match: 'type' }] }

function handWritten(interactions: object[]): HandWritten {
  return {
    consumer: { name: 'pet-shop-web' },
    provider: { name: 'animal-store' },
    interactions: interactions.map((interaction) => ({ type: 'Synchronous/HTTP', pending: false, ...interaction })),
    metadata: { pactSpecification: { version: '4.0' } },
  }
}

/** A GET with the pro demo key, answered `status` with `body`, given `state`. */
function get(description: string, path: string, status: number, body: unknown, state?: object, query?: Record<string, string[]>) {
  return {
    description,
    ...(state === undefined ? {} : { providerStates: [state] }),
    request: { method: 'GET', path, headers: auth, ...(query === undefined ? {} : { query }) },
    response: {
      status,
      body: json(body),
      matchingRules: { body: { '$.code': anyText, '$.message': anyText, '$.id': integer, '$.categoryId': integer } },
    },
  }
}

describe("Pact's verifier against the simulator", () => {
  let recorder: RunningServer
  let fresh: RunningServer
  let exported: Pact

  beforeAll(async () => {
    ;[recorder, fresh] = await Promise.all([start(20301205), start(7)])
    const key = { authorization: 'Bearer demo-free-key' }
    const send = (path: string, init: RequestInit = {}) =>
      fetch(`${recorder.apiUrl}${path}`, { ...init, headers: { ...key, ...init.headers } })
    // A consumer's test run: every documented kind of answer, some of them twice (one interaction each).
    expect((await send('/pets?limit=2')).status).toBe(200)
    expect((await send('/pets?limit=3')).status).toBe(200)
    expect((await send('/pets/3')).status).toBe(200)
    expect((await send('/pets/4')).status).toBe(200)
    expect((await send('/pets/999999')).status).toBe(404)
    expect((await send('/pets?limit=500')).status).toBe(400)
    expect((await fetch(`${recorder.apiUrl}/pets`)).status).toBe(401)
    const created = await send('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 2, status: 'pending' }),
    })
    expect(created.status).toBe(201)
    // The free key's minute, spent: the 61st request is a 429 with Retry-After.
    for (let count = 0; count < 60; count++) await send('/pets?limit=1')
    expect((await send('/pets?limit=1')).status).toBe(429)
    // getPet past its removal date (a new minute, too: the key may send again).
    const clock = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"set":"2030-12-06T00:00:00Z"}' }
    expect((await fetch(`${recorder.url}/__sim/clock`, clock)).status).toBe(200)
    expect((await send('/pets/1')).status).toBe(410)
    const answer = await fetch(`${recorder.url}/__sim/requests.pact?consumer=pet-shop-web&provider=animal-store`)
    expect(answer.status).toBe(200)
    exported = (await answer.json()) as Pact
  })

  it('exports one interaction per distinct exchange, each with the provider state it needs', () => {
    expect(exported.interactions.map((interaction) => [interaction.description, interaction.providerStates ?? []])).toEqual([
      ['listPets GET /v1/pets?limit=2 with demo-free-key: 200', []],
      [
        'getPet GET /v1/pets/3 with demo-free-key: 200',
        [{ name: 'a pet with id {id} exists', params: expect.objectContaining({ id: 3 }) }],
      ],
      [
        'getPet GET /v1/pets/999999 with demo-free-key: 404 pet_not_found',
        [{ name: 'no pet with id {id} exists', params: { id: 999999 } }],
      ],
      ['listPets GET /v1/pets?limit=500 with demo-free-key: 400 invalid_query_parameter', []],
      ['listPets GET /v1/pets without an API key: 401 missing_api_key', []],
      ['createPet POST /v1/pets with demo-free-key: 201', []],
      [
        'listPets GET /v1/pets?limit=1 with demo-free-key: 429 rate_limit_exceeded',
        [{ name: 'the key {key} has no requests left this minute', params: { key: 'demo-free-key' } }],
      ],
      ['getPet GET /v1/pets/1 with demo-free-key: 410 endpoint_removed', [{ name: 'getPet is past its sunset' }]],
    ])
  })

  it('passes a pact exported from the journal against a fresh simulator with another seed', async () => {
    const result = await verify(exported, fresh.url, fresh)
    expect(result.passed, result.output).toBe(true)
    const results = (JSON.parse(result.output) as { interactionResults: { description: string; result: string }[] }).interactionResults
    expect(results.map((entry) => entry.result)).toEqual(exported.interactions.map(() => 'OK'))
  })

  it('passes a hand-written pact with each provider state, the pet exactly as the state names it', async () => {
    const pact = handWritten([
      get(
        'a pet that exists',
        '/v1/pets/4242',
        200,
        { id: 4242, name: 'Biscuit', categoryId: 3, status: 'sold' },
        {
          name: 'a pet with id {id} exists',
          params: { id: 4242, name: 'Biscuit', categoryId: 3, status: 'sold' },
        },
      ),
      get(
        'a pet that does not exist',
        '/v1/pets/2',
        404,
        { code: 'pet_not_found', message: 'gone', status: 404 },
        {
          name: 'no pet with id 2 exists',
        },
      ),
      get('an empty catalogue', '/v1/pets', 200, [], { name: 'the catalogue is empty' }),
      {
        ...get(
          'a key with no requests left',
          '/v1/pets',
          429,
          { code: 'rate_limit_exceeded', message: 'slow down', status: 429 },
          {
            name: 'the key {key} has no requests left this minute',
            params: { key: 'demo-pro-key' },
          },
        ),
        response: {
          status: 429,
          headers: { 'Retry-After': ['30'] },
          body: json({ code: 'rate_limit_exceeded', message: 'slow down', status: 429 }),
          matchingRules: {
            header: { 'Retry-After': { combine: 'AND', matchers: [{ match: 'regex', regex: '^[1-9][0-9]*$' }] } },
            body: { '$.code': anyText, '$.message': anyText },
          },
        },
      },
      get(
        'getPet after its removal',
        '/v1/pets/1',
        410,
        { code: 'endpoint_removed', message: 'removed', status: 410 },
        {
          name: 'getPet is past its sunset',
        },
      ),
      // After the states above (each torn down): the catalogue is the seeded one again, the key has its minute.
      {
        ...get('the pets, with no state', '/v1/pets', 200, [], undefined, { limit: ['1'] }),
        response: {
          status: 200,
          body: json([{ id: 1, name: 'any', categoryId: 1 }]),
          matchingRules: {
            body: {
              $: { combine: 'AND', matchers: [{ match: 'type', min: 1 }] },
              '$[*].id': integer,
              '$[*].name': anyText,
              '$[*].categoryId': integer,
            },
          },
        },
      },
    ])
    const result = await verify(pact, fresh.url, fresh)
    expect(result.passed, result.output).toBe(true)
  })

  it.each([
    [
      'a 200 for an id no pet has',
      get('an unknown id', '/v1/pets/999999', 200, { id: 999999, name: 'Ghost', categoryId: 1 }, { name: 'no pet with id 999999 exists' }),
      'expected 200 but was 404',
    ],
    ['limit=500 accepted', get('a page of 500', '/v1/pets', 200, [], undefined, { limit: ['500'] }), 'expected 200 but was 400'],
    [
      'no 401 without a key',
      { description: 'pets without a key', request: { method: 'GET', path: '/v1/pets' }, response: { status: 200 } },
      'expected 200 but was 401',
    ],
  ])('fails a pact that expects what the spec forbids: %s, with Pact’s message', async (_name, interaction, message) => {
    const result = await verify(handWritten([interaction]), fresh.url, fresh)
    expect(result.passed).toBe(false)
    expect(result.output).toContain(message)
  })

  it('fails an exported pact against a drifted copy of the simulator', async () => {
    const proxy = await startDriftProxy(fresh.url, 'demo-pro-key')
    try {
      proxy.use('no-reset-header')
      const result = await verify(exported, proxy.apiUrl.replace(/\/v1$/, ''), fresh)
      expect(result.passed).toBe(false)
      expect(result.output).toContain("Expected a header 'X-RateLimit-Reset' but was missing")
    } finally {
      await proxy.close()
    }
  })

  // docs/pact.md's recipe: a key of one's own is <API_KEY> in the pact; a requestFilter puts it back in place of the
  // placeholder only. customProviderHeaders would set it on the keyless interaction too, whose 401 then became a 200.
  it('passes a pact recorded with a key of your own, the key put back by a requestFilter, keyless 401 included', async () => {
    const own = await startServer({
      app: createNodeApp({ keys: { 'team-key-1': 'pro' } }),
      port: 0,
      host: '127.0.0.1',
      log: 'silent',
    })
    servers.push(own)
    expect((await fetch(`${own.apiUrl}/pets?limit=2`, { headers: { authorization: 'Bearer team-key-1' } })).status).toBe(200)
    expect((await fetch(`${own.apiUrl}/pets`)).status).toBe(401)
    const pact = (await (await fetch(`${own.url}/__sim/requests.pact?consumer=pet-shop-web&provider=animal-store`)).json()) as Pact
    expect(pact.interactions.map((interaction) => interaction.request.headers?.Authorization ?? [])).toEqual([['Bearer <API_KEY>'], []])
    const target = await startServer({
      app: createNodeApp({ seed: 7, keys: { 'team-key-2': 'pro' } }),
      port: 0,
      host: '127.0.0.1',
      log: 'silent',
    })
    servers.push(target)
    const requestFilter = (request: { headers: Record<string, string> }, _response: unknown, next: () => void) => {
      if (request.headers.authorization === 'Bearer <API_KEY>') request.headers.authorization = 'Bearer team-key-2'
      next()
    }
    const result = await verify(pact, target.url, target, { requestFilter })
    expect(result.output).not.toContain('failures')
    expect(result.passed).toBe(true)
    const without = await verify(pact, target.url, target)
    expect(without.passed).toBe(false)
  })
})
