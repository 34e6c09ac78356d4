import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { previewJson } from '../../src/core/http/bounded-json.ts'
import { startCli } from '../support/cli-process.ts'

// Issue 45, High 2: a createPet with a field nested 30,000 deep, then a body-filtered wait that times out. The near
// miss rendered the parsed body with `JSON.stringify` in the timer's callback: a RangeError there ended the process
// (exit 1 over HTTP; in-process, the test runner itself).

/** A createPet body whose `x` is nested `depth` deep (any key would do), 2 bytes a level. */
const deepPet = (depth: number) => `{"name":"Rex","categoryId":1,"x":${'['.repeat(depth)}${']'.repeat(depth)}}`

const auth = { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json' }

describe('a deep body and a timed-out wait, in-process', () => {
  it('journal.waitFor rejects with the near misses, the deep body shown cut', async () => {
    const app = createApp()
    const created = await app.fetch(
      new Request('http://127.0.0.1:4010/v1/pets', { method: 'POST', headers: auth, body: deepPet(30_000) }),
      {
        clientAddress: '127.0.0.1',
      },
    )
    expect(created.status).toBe(201)
    const error: Error = await app.simulator.journal.waitFor({ body: { name: 'Bob' } }, { timeoutMs: 20 }).catch((caught) => caught)
    expect(error).toBeInstanceOf(Error)
    expect(error.message).toContain('No request matched {"body":{"name":"Bob"}} within 20 ms. Nearest of 1:')
    expect(error.message).toContain(`(differs in body: sent {"name":"Rex","categoryId":1,"x":[[[[`)
    expect(error.message.length).toBeLessThan(400)
  })

  it('the HTTP wait answers 404 request_not_seen', async () => {
    const app = createApp()
    const send = (path: string, init: RequestInit = {}) =>
      app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress: '127.0.0.1' })
    expect((await send('/v1/pets', { method: 'POST', headers: auth, body: deepPet(30_000) })).status).toBe(201)
    const waited = await send(`/__sim/requests/wait?body=${encodeURIComponent('{"name":"Bob"}')}&timeoutMs=20`)
    expect(waited.status).toBe(404)
    const answer = (await waited.json()) as { code: string; message: string }
    expect(answer.code).toBe('request_not_seen')
    expect(answer.message).toContain('differs in body: sent {"name":"Rex"')
  })
})

describe('a deep body and a timed-out wait, against the real CLI', () => {
  let stop: (() => Promise<number | string>) | undefined
  afterEach(async () => {
    await stop?.()
    stop = undefined
  })

  it('answers 404 request_not_seen and stays up', async () => {
    const cli = await startCli(['--port', '0', '--log', 'silent'])
    stop = cli.stop
    const created = await fetch(`${cli.apiUrl}/pets`, { method: 'POST', headers: auth, body: deepPet(30_000) })
    expect(created.status).toBe(201)
    const waited = await fetch(`${cli.origin}/__sim/requests/wait?body=${encodeURIComponent('{"name":"Bob"}')}&timeoutMs=200`)
    expect(waited.status).toBe(404)
    expect(((await waited.json()) as { code: string }).code).toBe('request_not_seen')
    // Still serving, and still the same process.
    expect((await fetch(`${cli.apiUrl}/pets?limit=1`, { headers: auth })).status).toBe(200)
    expect(cli.child.exitCode).toBeNull()
  })

  it('answers every route a body nested 100,000 deep reaches without a 5xx, and stays up (the request log on)', async () => {
    const cli = await startCli(['--port', '0', '--log', 'json'])
    stop = cli.stop
    const nested = (depth: number, inner: string) => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
    const sent: Array<[string, string, string]> = [
      ['POST', `${cli.apiUrl}/pets`, `{"name":"Rex","categoryId":1,"status":${'{"a":'.repeat(30_000)}1${'}'.repeat(30_000)}}`],
      ['POST', `${cli.apiUrl}/pets`, `{"name":${nested(100_000, '"Rex"')},"categoryId":1}`],
      ['POST', `${cli.apiUrl}/pets`, deepPet(30_000)],
      ['POST', `${cli.origin}/__sim/provider-states`, `{"state":"a pet with id {id} exists","params":{"id":${nested(100_000, '1')}}}`],
      ['POST', `${cli.origin}/__sim/faults`, `{"kind":"status","status":503,"match":${nested(100_000, '1')}}`],
      ['PUT', `${cli.origin}/__sim/snapshot`, nested(100_000, '1')],
    ]
    for (const [method, url, body] of sent) {
      const answer = await fetch(url, { method, headers: { ...auth, 'content-type': 'application/json' }, body })
      expect([method, url, answer.status < 500]).toEqual([method, url, true])
      expect(await answer.text()).not.toContain('call stack')
    }
    for (const path of ['/__sim/requests', '/__sim/requests.har', '/__sim/requests.pact', `/__sim/requests/count?body.name=Rex`]) {
      const answer = await fetch(`${cli.origin}${path}`)
      expect([path, answer.status]).toEqual([path, 200])
      await answer.arrayBuffer()
    }
    expect((await fetch(`${cli.apiUrl}/pets?limit=1`, { headers: auth })).status).toBe(200)
    expect(cli.child.exitCode).toBeNull()
    expect(cli.stderr()).not.toContain('call stack')
  })
})

describe('previewJson: JSON for a message, bounded in depth and length', () => {
  it.each<[string, unknown]>([
    ['an object', { name: 'Rex', tags: ['a', 1, null, true], nested: { deeper: { x: 1.5 } } }],
    ['an array with holes', [1, undefined, 3]],
    ['a string with escapes', 'quote " backslash \\ newline \n é 😀'],
    ['an empty object and array', { a: {}, b: [] }],
    ['a scalar', 42],
    ['null', null],
  ])('is JSON.stringify for %s', (_name, value) => {
    expect(previewJson(value, 1000)).toBe(JSON.stringify(value))
  })

  it('is JSON.stringify cut at the length, with …', () => {
    const value = { name: 'R'.repeat(200), list: Array.from({ length: 100 }, (_, index) => index) }
    for (const length of [0, 1, 5, 10, 79, 80, 81, 250]) {
      const text = JSON.stringify(value)
      expect(previewJson(value, length)).toBe(text.length > length ? `${text.slice(0, length)}…` : text)
    }
  })

  it('renders 100,000 levels as its first characters, without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)
    expect(previewJson(deep, 10)).toBe('[[[[[[[[[[…')
    expect(() => JSON.stringify(deep)).toThrow(RangeError)
  })
})
