import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'

// Issue 45, the class "no recursion over client data without a depth bound": a JSON body nested 100,000 deep (and
// 30,000 deep, which fits the journal's 64 KiB cap, so that filters, pacts and HARs parse it) sent to the API and to
// every control route that takes a body, then read back through every view of the journal. `JSON.parse` takes it;
// `JSON.stringify`, `structuredClone` or a walk of our own overflow the stack on it. Each answer is bounded and
// documented: never a 500, never an uncaught error (an uncaught one fails this file).

const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

/** Bodies that nest `depth` deep somewhere: in each NewPet field, in a field the spec does not have, and whole. */
function deepBodies(depth: number): Array<[string, string]> {
  return [
    ['name', `{"name":${nested(depth, '"Rex"')},"categoryId":1}`],
    ['categoryId', `{"name":"Rex","categoryId":${nested(depth)}}`],
    ['status', `{"name":"Rex","categoryId":1,"status":${nestedObject(Math.floor(depth / 3))}}`],
    ['another field', `{"name":"Rex","categoryId":1,"x":${nested(depth)}}`],
    ['the whole body', nested(depth)],
  ]
}

const auth = { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json' }

function setUp() {
  const app = createApp()
  const send = async (path: string, init: RequestInit = {}) => {
    const response = await app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress: '127.0.0.1' })
    const text = await response.text()
    return { status: response.status, text }
  }
  return { app, send }
}

/** An answer that is not a server error, with a body of bounded size. */
function bounded(answer: { status: number; text: string }, what: string, maxBytes = 4 * 1024 * 1024) {
  expect(`${what}: ${answer.status < 500 ? 'answered' : `${answer.status} ${answer.text.slice(0, 200)}`}`).toBe(`${what}: answered`)
  expect(`${what}: ${answer.text.length <= maxBytes ? 'bounded' : answer.text.length}`).toBe(`${what}: bounded`)
  // A stack overflow is a RangeError, the type of a refused value: caught as one, it would be a 400 that says so.
  expect(`${what}: ${answer.text.includes('call stack') ? answer.text.slice(0, 200) : 'no overflow'}`).toBe(`${what}: no overflow`)
}

describe.each([30_000, 100_000])('bodies nested %i deep', (depth) => {
  it.each(deepBodies(depth))('in %s: the API answers 400 or 201, and every view of the journal answers', async (_where, body) => {
    const { app, send } = setUp()
    const created = await send('/v1/pets', { method: 'POST', headers: auth, body })
    expect([201, 400]).toContain(created.status)
    bounded(created, 'createPet')
    expect(JSON.parse(created.text)).toBeTypeOf('object')
    const filters = [
      `body=${encodeURIComponent('{"name":"Bob"}')}`,
      `body=${encodeURIComponent('{"x":[[1]]}')}`,
      'body.name=Rex',
      'body.x[0][0][0]=1',
      'header.content-type:contains=json',
      'status=201',
    ]
    for (const filter of filters) {
      bounded(await send(`/__sim/requests?${filter}`), `requests?${filter}`)
      bounded(await send(`/__sim/requests/count?${filter}`), `count?${filter}`)
      bounded(await send(`/__sim/requests.har?${filter}`), `har?${filter}`)
      bounded(await send(`/__sim/requests.pact?${filter}`), `pact?${filter}`)
      const waited = await send(`/__sim/requests/wait?${filter}&timeoutMs=10`)
      expect([200, 404]).toContain(waited.status)
      // A wait that matched answers the entry: its body at most the journal's cap per body.
      bounded(waited, `wait?${filter}`, 1024 * 1024)
    }
    for (const path of ['/__sim/requests', '/__sim/requests.har', '/__sim/requests.pact', '/__sim/coverage', '/__sim/state', '/__sim/']) {
      bounded(await send(path), path)
    }
    const { journal } = app.simulator
    expect(journal.count({ body: { name: 'Bob' } })).toBe(0)
    expect(journal.find({ bodyFields: { name: 'Rex' } }).length).toBeLessThanOrEqual(1)
    expect(journal.page({ body: { x: [[1]] } }).entries.length).toBeLessThanOrEqual(1)
    expect(journal.toHar().log.entries).toHaveLength(1)
    await expect(journal.waitFor({ body: { name: 'Bob' } }, { timeoutMs: 0 })).rejects.toThrow('No request matched')
    expect(() => journal.toPact()).not.toThrow()
    expect(() => app.simulator.coverage()).not.toThrow()
  })

  it('a body filter nested deep (as deep as its 8192 characters allow) is refused with 400, before any entry is read', async () => {
    const { send } = setUp()
    await send('/v1/pets', { method: 'POST', headers: auth, body: deepBodies(depth)[3]![1] })
    const filter = encodeURIComponent(nested(4000))
    for (const path of [
      '/__sim/requests',
      '/__sim/requests/count',
      '/__sim/requests/wait',
      '/__sim/requests.har',
      '/__sim/requests.pact',
    ]) {
      const answer = await send(`${path}?body=${filter}`)
      expect([path, answer.status]).toEqual([path, 400])
      expect(answer.text).toContain('body nests at most 16 deep')
    }
  })

  it.each<[string, string, string]>([
    ['POST', '/__sim/scenario', `{"name":${nested(depth, '"x"')}}`],
    ['POST', '/__sim/provider-states', `{"state":"a pet with id {id} exists","params":{"id":${nested(depth)}}}`],
    ['POST', '/__sim/provider-states', `{"state":${nested(depth, '"x"')}}`],
    ['POST', '/__sim/faults', `{"kind":"status","status":503,"match":${nested(depth)}}`],
    ['POST', '/__sim/faults', `{"kind":${nested(depth, '"x"')}}`],
    ['PUT', '/__sim/snapshot', `{"pets":${nested(depth)}}`],
    ['PUT', '/__sim/snapshot', nested(depth)],
    ['POST', '/__sim/clock', `{"advanceMs":${nested(depth)}}`],
    ['PUT', '/__sim/sandboxes/deep', `{"scenario":${nested(depth, '"x"')}}`],
    ['POST', '/__sim/reset', nested(depth)],
  ])('%s %s answers a body nested deep', async (method, path, body) => {
    const { send } = setUp()
    const answer = await send(path, { method, headers: { 'content-type': 'application/json' }, body })
    // A 4xx for the routes that read their body; the two that take none (a sandbox's PUT, reset) ignore it.
    expect(answer.status >= 400 || path === '/__sim/reset' || path.startsWith('/__sim/sandboxes/')).toBe(true)
    bounded(answer, `${method} ${path}`, 64 * 1024)
    // And the simulator still answers.
    expect((await send('/v1/pets?limit=1', { headers: auth })).status).toBe(200)
  })
})
