// Issue 49, part 6: provider states of the team's own. Pact V4 consumers write their own state names ("a catalogue
// with three sold dogs"); the simulator knew five fixed phrases, and every other name was 400 invalid_provider_state.
// Now `--provider-states <file>` (or `providerStates` in the config file) maps each name onto a scenario, a snapshot
// file and built-in states fed by the pact's params; Pact's own verifier passes a V4 pact that uses them against the
// real CLI, and an unmapped name fails with a message listing the mapped ones.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.ts'
import { runCli, startCli } from '../support/cli-process.ts'
import { verifyPact, type StateHandlers } from '../support/pact-verification.ts'

const folder = mkdtempSync(join(tmpdir(), 'petstore-sim-states-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const soldDogs = [
  { name: 'Rex', categoryId: 1, status: 'sold' },
  { name: 'Fido', categoryId: 1, status: 'sold' },
  { name: 'Bella', categoryId: 1, status: 'sold' },
] as const
const write = (name: string, data: unknown) => {
  const file = join(folder, name)
  writeFileSync(file, JSON.stringify(data))
  return file
}
write('three-sold-dogs.snapshot.json', createSimulator({ fixtures: [...soldDogs] }).snapshot())
const statesFile = write('provider-states.json', {
  'a catalogue with three sold dogs': { description: 'Rex, Fido and Bella, all sold', snapshot: 'three-sold-dogs.snapshot.json' },
  'a shop with no pets': { scenario: 'empty' },
  'a dog for sale': {
    scenario: 'empty',
    states: [{ state: 'a pet with id {id} exists', params: { id: '{id}', name: '{name}', categoryId: 1, status: 'available' } }],
  },
})

let cli: Awaited<ReturnType<typeof startCli>>
beforeAll(async () => {
  cli = await startCli(['--port', '0', '--log', 'silent', '--provider-states', statesFile])
})
afterAll(async () => {
  await cli?.stop()
})

/** State handlers for every state the pact names, each posting it to the simulator, as docs/pact.md's recipe does. */
function handlersFor(names: readonly string[]): StateHandlers {
  const post = async (state: string, params: unknown, action: string) => {
    const response = await fetch(`${cli.origin}/__sim/provider-states`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state, params: params ?? {}, action }),
    })
    if (!response.ok) throw new Error(`${state}: ${response.status} ${await response.text()}`)
  }
  return Object.fromEntries(
    names.map((state) => [
      state,
      { setup: (params?: unknown) => post(state, params, 'setup'), teardown: (params?: unknown) => post(state, params, 'teardown') },
    ]),
  )
}

const auth = { Authorization: ['Bearer demo-pro-key'] }
const json = (content: unknown) => ({ content, contentType: 'application/json', encoded: false })
const pact = (interactions: object[]) => ({
  consumer: { name: 'pet-shop-web' },
  provider: { name: 'animal-store' },
  interactions: interactions.map((interaction) => ({ type: 'Synchronous/HTTP', pending: false, ...interaction })),
  metadata: { pactSpecification: { version: '4.0' } },
})
const soldDogsInteraction = {
  description: 'lists the sold dogs',
  providerStates: [{ name: 'a catalogue with three sold dogs' }],
  request: { method: 'GET', path: '/v1/pets', query: { status: ['sold'] }, headers: auth },
  response: { status: 200, body: json(soldDogs.map((dog, index) => ({ id: index + 1, ...dog }))) },
}

describe('provider states of your own (--provider-states)', () => {
  it("passes Pact's verifier on a V4 pact whose states are the team's own, with params", async () => {
    const interactions = [
      soldDogsInteraction,
      {
        description: 'lists no pets',
        providerStates: [{ name: 'a shop with no pets' }],
        request: { method: 'GET', path: '/v1/pets', headers: auth },
        response: { status: 200, body: json([]) },
      },
      {
        description: 'gets the dog for sale',
        providerStates: [{ name: 'a dog for sale', params: { id: 42, name: 'Laika' } }],
        request: { method: 'GET', path: '/v1/pets/42', headers: auth },
        response: { status: 200, body: json({ id: 42, name: 'Laika', categoryId: 1, status: 'available' }) },
      },
    ]
    const names = ['a catalogue with three sold dogs', 'a shop with no pets', 'a dog for sale']
    const result = await verifyPact(pact(interactions), cli.origin, { stateHandlers: handlersFor(names) })
    expect(result.output).not.toMatch(/fail/i)
    expect(result.passed).toBe(true)
    // Teardown went back to the configured scenario: the default world serves its generated catalogue again.
    expect(await (await fetch(`${cli.apiUrl}/pets?limit=100`, { headers: { authorization: 'Bearer demo-pro-key' } })).json()).toHaveLength(
      50,
    )
  }, 60_000)

  it('fails an unmapped state, its message listing the mapped ones', async () => {
    const unmapped = { ...soldDogsInteraction, providerStates: [{ name: 'a catalogue with four sold cats' }] }
    const result = await verifyPact(pact([unmapped]), cli.origin, { stateHandlers: handlersFor(['a catalogue with four sold cats']) })
    expect(result.passed).toBe(false)
    const refused = await fetch(`${cli.origin}/__sim/provider-states`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'a catalogue with four sold cats', action: 'setup' }),
    })
    expect(refused.status).toBe(400)
    const { code, message } = (await refused.json()) as { code: string; message: string }
    expect(code).toBe('invalid_provider_state')
    expect(message).toContain(
      'Unknown provider state "a catalogue with four sold cats". The mapped provider states (providerStates) are: "a catalogue with three sold dogs", "a shop with no pets", "a dog for sale"',
    )
  }, 60_000)

  it('names the pact param a mapped state needs when it is missing', async () => {
    const refused = await fetch(`${cli.origin}/__sim/provider-states`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'a dog for sale', params: { id: 42 }, action: 'setup' }),
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toContain(
      `Provider state "a dog for sale": the pact's params must give name (a string or a number), for {name}`,
    )
  })

  it('lists the mapped states in GET /__sim/provider-states', async () => {
    const listed = (await (await fetch(`${cli.origin}/__sim/provider-states`)).json()) as { mapped: unknown[] }
    expect(listed.mapped).toEqual([
      {
        name: 'a catalogue with three sold dogs',
        description: 'Rex, Fido and Bella, all sold',
        scenario: 'default',
        snapshot: true,
        states: [],
        params: [],
        teardown: 'a reset into default',
      },
      {
        name: 'a shop with no pets',
        description: '',
        scenario: 'empty',
        snapshot: false,
        states: [],
        params: [],
        teardown: 'a reset into default',
      },
      {
        name: 'a dog for sale',
        description: '',
        scenario: 'empty',
        snapshot: false,
        states: [{ state: 'a pet with id {id} exists', params: { id: '{id}', name: '{name}', categoryId: 1, status: 'available' } }],
        params: ['id', 'name'],
        teardown: 'a reset into default',
      },
    ])
  })

  it.each([
    ['an unknown scenario', { 'a shop': { scenario: 'no-such' } }, /"a shop"\.scenario: no scenario "no-such" \(there are default, empty/],
    [
      'an unknown field',
      { 'a shop': { scenarios: 'empty' } },
      /"a shop": unknown field "scenarios" \(the fields are description, scenario, snapshot, states\)/,
    ],
    ['a built-in name', { 'the catalogue is empty': { scenario: 'empty' } }, /"the catalogue is empty": is a built-in state already/],
    [
      'a step that is no built-in state',
      { 'a shop': { states: [{ state: 'a shop' }] } },
      /"a shop"\.states\[0\]\.state: "a shop" is not a built-in state/,
    ],
    ['a snapshot file that is missing', { 'a shop': { snapshot: 'nowhere.json' } }, /"a shop"\.snapshot: cannot read .*nowhere\.json/],
  ])('refuses %s with a one-line usage error (exit 2)', async (_kind, states, message) => {
    const refused = runCli(['--port', '0', '--provider-states', write('bad-states.json', states)])
    expect(await refused.exited).toBe(2)
    const lines = refused.stderr().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^petstore-sim: --provider-states .*bad-states\.json: /)
    expect(lines[0]).toMatch(message)
  })

  it('takes the states inline in the config file, under providerStates', async () => {
    const config = write('petstore-sim.config.json', { providerStates: { 'a shop with no pets': { scenario: 'empty' } } })
    const inline = await startCli(['--port', '0', '--log', 'silent', '--config', config])
    try {
      const setUp = await fetch(`${inline.origin}/__sim/provider-states`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state: 'a shop with no pets', action: 'setup' }),
      })
      expect(setUp.status).toBe(200)
      expect(await (await fetch(`${inline.apiUrl}/pets`, { headers: { authorization: 'Bearer demo-pro-key' } })).json()).toEqual([])
    } finally {
      await inline.stop()
    }
  })
})
