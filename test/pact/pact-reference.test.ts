import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Pact } from '../../src/core/contract/pact-export.ts'
import { createNodeApp } from '../../src/node/node-app.ts'
import { startServer, type RunningServer } from '../../src/node/server.ts'
import { consumerRun, placeholderFilter, verifyPact, type StateHandlers } from '../support/pact-verification.ts'
import { createReferenceProvider, type ReferenceProvider, type ReferenceVariant } from '../support/reference-provider.ts'

// Issue 36: a pact exported from a consumer's run on the simulator, verified with Pact's own verifier against an
// independent provider written from the spec alone (test/support/reference-provider.ts), in variants that choose
// differently wherever the spec is silent: each passes. Drifts a consumer would break on still fail (no false green).

const key = 'reference-team-key'
const servers: Server[] = []
let recorder: RunningServer
let exported: Pact

beforeAll(async () => {
  recorder = await startServer({ app: createNodeApp({ seed: 20301205 }), port: 0, host: '127.0.0.1', log: 'silent' })
  exported = await consumerRun(recorder.apiUrl, recorder.url, 'demo-free-key')
})
afterAll(async () => {
  await recorder.close()
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
})

/** The reference provider on a port, each response passed through `drift` first. */
async function serve(
  provider: ReferenceProvider,
  drift: (response: Response, url: URL) => Promise<Response> = async (response) => response,
) {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const url = new URL(request.url ?? '/', 'http://reference.test')
    const headers = Object.entries(request.headers).flatMap(([name, value]) =>
      typeof value === 'string' ? [[name, value] as [string, string]] : [],
    )
    const body = chunks.length === 0 ? undefined : Buffer.concat(chunks)
    const answer = await drift(await provider.fetch(new Request(url, { method: request.method, headers, body })), url)
    response.writeHead(answer.status, Object.fromEntries(answer.headers))
    response.end(Buffer.from(await answer.arrayBuffer()))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A provider team's state handlers for the reference provider: each state set up directly, undone at teardown. */
function referenceStateHandlers(provider: ReferenceProvider): StateHandlers {
  const handler = (setup: (params: Record<string, any>) => void) => ({
    setup: async (params?: unknown) => setup((params ?? {}) as Record<string, any>),
    teardown: async () => provider.states.restore(),
  })
  return {
    'a pet with id {id} exists': handler((params) => provider.states.putPet(params as never)),
    'no pet with id {id} exists': handler((params) => provider.states.removePet(Number(params.id))),
    'the catalogue is empty': handler(() => provider.states.empty()),
    // <API_KEY> is the team's key: the one the requestFilter puts in.
    'the key {key} has no requests left this minute': handler(() => provider.states.spendMinute(key)),
  }
}

const referenceKeys = { [key]: { perMinute: 300, perDay: 10_000 } }

async function verifyAgainst(variant: ReferenceVariant, drift?: Parameters<typeof serve>[1]) {
  const provider = createReferenceProvider(variant, referenceKeys, () => Date.now())
  const url = await serve(provider, drift)
  return verifyPact(exported, url, { stateHandlers: referenceStateHandlers(provider), requestFilter: placeholderFilter(key) })
}

describe('a pact from a consumer run, against a spec-following provider', () => {
  it("holds the spec-defined interactions of the run and none of the simulator's own answers", () => {
    const descriptions = exported.interactions.map((interaction) => interaction.description)
    expect(descriptions).toHaveLength(11)
    expect(descriptions.filter((description) => /limit=500|status=lost|410/.test(description))).toEqual([])
    expect(exported.metadata['petstore-sim'].simulatorChoicesLeftOut).toBe(3)
  })

  it.each<[string, ReferenceVariant]>([
    ['plain choices', {}],
    ['no deprecation headers', { deprecation: 'none' }],
    ['RFC 9745 deprecation headers', { deprecation: 'rfc9745' }],
    ['no Location on 201', { location: false }],
    ['pets without status', { withoutStatus: true }],
    ['Retry-After as an HTTP date', { retryAfter: 'http-date' }],
    ['limit clamped, not refused', { outOfRange: 'clamp' }],
    ['[] for an unknown status', { invalidStatus: 'empty' }],
    ['another default status', { defaultStatus: 'sold' }],
    [
      'all of them at once',
      { deprecation: 'none', location: false, withoutStatus: true, retryAfter: 'http-date', outOfRange: 'clamp', invalidStatus: 'empty' },
    ],
  ])('passes with %s', async (_name, variant) => {
    const result = await verifyAgainst(variant)
    expect(result.passed, result.output).toBe(true)
    const results = (JSON.parse(result.output) as { interactionResults: { description: string; result: string }[] }).interactionResults
    expect(results.map((entry) => [entry.description, entry.result])).toEqual(
      exported.interactions.map((interaction) => [interaction.description, 'OK']),
    )
  })

  it.each<[string, (response: Response, url: URL) => Promise<Response>, RegExp]>([
    [
      'a created pet whose name is cut',
      async (response) => {
        if (response.status !== 201) return response
        const pet = (await response.json()) as { name: string }
        return Response.json({ ...pet, name: pet.name.slice(0, 16) }, { status: 201, headers: response.headers })
      },
      /Rex the Magnificent Third of His Name/,
    ],
    [
      'getPet serving another pet',
      async (response, url) => {
        if (response.status !== 200 || !/\/pets\/\d+$/.test(url.pathname)) return response
        const pet = (await response.json()) as { name: string }
        return Response.json({ ...pet, name: `${pet.name} (2)` }, { status: 200, headers: response.headers })
      },
      /getPet/,
    ],
    [
      'no X-RateLimit-Reset',
      async (response) => {
        const headers = new Headers(response.headers)
        headers.delete('x-ratelimit-reset')
        return new Response(response.body, { status: response.status, headers })
      },
      /X-RateLimit-Reset/,
    ],
    [
      'a page longer than the limit asked',
      async (response, url) => {
        if (response.status !== 200 || url.searchParams.get('limit') !== '2') return response
        const pets = (await response.json()) as unknown[]
        return Response.json([...pets, ...pets, ...pets], { status: 200, headers: response.headers })
      },
      /listPets/,
    ],
    [
      'a 403 where the spec says 401',
      async (response) => (response.status === 401 ? new Response(response.body, { status: 403, headers: response.headers }) : response),
      /401/,
    ],
  ])('fails against a provider that drifts: %s', async (_name, drift, message) => {
    const result = await verifyAgainst({}, drift)
    expect(result.passed).toBe(false)
    expect(result.output).toMatch(message)
  })
})
