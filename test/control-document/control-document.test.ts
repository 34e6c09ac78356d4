import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { createApp } from '../../src/app/app.ts'
import { createControlPlane } from '../../src/app/control/control-plane.ts'
import { documentPath } from '../../src/app/control/control-document.ts'
import { checkedControl, controlDocumentOfApp, controlViolations, templateOf, type ControlDocument } from '../support/control-contract.ts'
import { faultRuleJsonSchema } from '../support/fault-rule-json-schema.ts'

let server: RunningServer
let origin: string
let document: ControlDocument
beforeAll(async () => {
  server = await startServer({ app: createNodeApp({ seed: 7, pets: 5 }), port: 0, host: '127.0.0.1', log: 'silent' })
  origin = server.url.replace(/\/$/, '')
  document = await controlDocumentOfApp()
})
afterAll(async () => {
  await server?.close()
})

/** Every operation the exchanges below reached, as `METHOD template`. */
const reached = new Set<string>()

/** A control request over HTTP, its answer checked against the document; the body read (but for the event stream). */
async function control(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const abort = new AbortController()
  const response = await fetch(`${origin}${path}`, {
    method,
    signal: abort.signal,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  const stream = response.headers.get('content-type')?.startsWith('text/event-stream') === true
  const bodyText = stream ? undefined : await response.text()
  if (stream) abort.abort()
  const bare = path.split('?')[0]!
  const exchange = { method, path: bare, status: response.status, contentType: response.headers.get('content-type'), bodyText }
  expect(await controlViolations(exchange), `${method} ${path}`).toEqual([])
  const template = templateOf(document, bare)
  if (template !== undefined) reached.add(`${method} ${template}`)
  return { status: response.status, json: () => JSON.parse(bodyText ?? 'null') }
}

describe('GET /__sim/openapi.json, the control plane described', () => {
  it('is an OpenAPI 3.1 document with every route of the control plane, each under its name', () => {
    const app = createApp({})
    const plane = createControlPlane(app.simulator, {}, app.sandboxes)
    expect(document.openapi).toBe('3.1.0')
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
    )
    const routes = plane.routes.flatMap((route) =>
      // The empty sandbox name (`/sandboxes/`) is the `{id}` route's refusal, and described there.
      route.path.endsWith('/') && route.path !== '/' ? [] : [`${route.method} ${documentPath(route.path)} ${route.name}`],
    )
    expect(routes.length).toBeGreaterThan(30)
    expect(operations.sort()).toEqual(routes.sort())
    for (const route of plane.routes.filter((candidate) => candidate.path.endsWith('/') && candidate.path !== '/')) {
      expect(document.paths[documentPath(`${route.path}{id}`)]?.[route.method.toLowerCase()], route.path).toBeDefined()
    }
  })

  it("declares POST /__sim/faults's body with the fault rule's own zod schema, as JSON Schema", () => {
    const shipped = JSON.parse(readFileSync(new URL('../../fixtures/fault-rule.schema.json', import.meta.url), 'utf8'))
    expect(shipped).toEqual(faultRuleJsonSchema())
    const body = (document.paths['/__sim/faults']!.post as unknown as { requestBody: { content: Record<string, { schema: unknown }> } })
      .requestBody
    expect(body.content['application/json']!.schema).toEqual({ anyOf: [shipped, { type: 'array', items: shipped }] })
  })

  it('describes every answer of every route, exercised over HTTP: each validates against the document', async () => {
    await fetch(`${origin}/v1/pets`, { headers: { authorization: 'Bearer demo-pro-key' } })
    for (const path of ['/__sim', '/__sim/', '/__sim/state', '/__sim/events', '/__sim/health', '/__sim/clock', '/__sim/coverage']) {
      expect((await control('GET', path)).status).toBe(200)
    }
    expect((await control('POST', '/__sim/clock', { advance: '1s' })).status).toBe(200)
    expect((await control('POST', '/__sim/clock', { advance: 'soon' })).status).toBe(400)
    expect((await control('POST', '/__sim/clock', '{}', { 'content-type': 'text/plain' })).status).toBe(415)
    expect((await control('POST', '/__sim/health', {})).status).toBe(405)
    expect((await control('GET', '/__sim/nothing-here')).status).toBe(404)
    await fetch(`${origin}/v1/pets/1`, { headers: { authorization: 'Bearer demo-pro-key' } })
    expect((await control('GET', '/__sim/requests?operation=getPet')).status).toBe(200)
    expect((await control('GET', '/__sim/requests?limit=1')).status).toBe(200)
    expect((await control('GET', '/__sim/requests?nonsense=1')).status).toBe(400)
    expect((await control('GET', '/__sim/requests/count?status=200')).status).toBe(200)
    expect((await control('GET', '/__sim/requests/wait?operation=getPet')).status).toBe(200)
    expect((await control('GET', '/__sim/requests/wait?operation=createPet&timeoutMs=0')).status).toBe(404)
    expect((await control('GET', '/__sim/requests.har')).status).toBe(200)
    expect((await control('GET', '/__sim/requests.pact?consumer=web&provider=store')).status).toBe(200)
    expect((await control('DELETE', '/__sim/requests.pact')).status).toBe(200)
    expect((await control('DELETE', '/__sim/coverage')).status).toBe(200)
    expect((await control('DELETE', '/__sim/requests')).status).toBe(200)
    expect((await control('GET', '/__sim/faults')).status).toBe(200)
    const added = await control('POST', '/__sim/faults', [
      { operation: 'getPet', status: 503 },
      { operation: 'listPets', fault: 'reset', times: 1 },
    ])
    expect(added.status).toBe(201)
    expect((await control('POST', '/__sim/faults', { operation: 'getPet' })).status).toBe(400)
    expect((await control('DELETE', `/__sim/faults/${added.json().ids[0]}`)).status).toBe(200)
    expect((await control('DELETE', '/__sim/faults/no-such-rule')).status).toBe(404)
    expect((await control('DELETE', '/__sim/faults')).status).toBe(200)
    const snapshot = await control('GET', '/__sim/snapshot')
    expect(snapshot.status).toBe(200)
    expect((await control('PUT', '/__sim/snapshot', snapshot.json())).status).toBe(200)
    expect((await control('PUT', '/__sim/snapshot', { version: 'no' })).status).toBe(400)
    expect((await control('GET', '/__sim/scenario')).status).toBe(200)
    expect((await control('POST', '/__sim/scenario', { name: 'default' })).status).toBe(200)
    expect((await control('POST', '/__sim/scenario', { name: 'no-such-scenario' })).status).toBe(404)
    expect((await control('GET', '/__sim/provider-states')).status).toBe(200)
    expect((await control('POST', '/__sim/provider-states', { state: 'the catalogue is empty', action: 'setup' })).status).toBe(200)
    expect((await control('POST', '/__sim/provider-states', { state: 'no such state' })).status).toBe(400)
    expect((await control('GET', '/__sim/clients')).status).toBe(200)
    expect((await control('GET', '/__sim/clients?ignore=invalid-request&operation=listPets')).status).toBe(200)
    expect((await control('GET', '/__sim/clients?ignore=no-such-rule')).status).toBe(400)
    // JUnit XML: the document's other content type of the same answer (checked by its content type, as every answer).
    expect((await control('GET', '/__sim/clients?format=junit')).status).toBe(200)
    expect((await control('GET', '/__sim/metrics')).status).toBe(200)
    expect((await control('GET', '/__sim/openapi.json')).status).toBe(200)
    expect((await control('PUT', '/__sim/sandboxes/doc-test')).status).toBe(201)
    expect((await control('PUT', '/__sim/sandboxes/doc-test')).status).toBe(200)
    expect((await control('PUT', '/__sim/sandboxes/doc-test', { scenario: 'default', keys: { 'doc-key': 'pro' } })).status).toBe(200)
    expect((await control('PUT', '/__sim/sandboxes/doc-test', { scenario: 'no-such-scenario' })).status).toBe(404)
    expect((await control('GET', '/__sim/sandboxes')).status).toBe(200)
    expect((await control('GET', '/sandboxes/doc-test/__sim/health')).status).toBe(200)
    expect((await control('PUT', '/__sim/sandboxes/')).status).toBe(400)
    expect((await control('PUT', '/__sim/sandboxes/Not_A_Name')).status).toBe(400)
    expect((await control('DELETE', '/__sim/sandboxes/doc-test')).status).toBe(204)
    expect((await control('DELETE', '/__sim/sandboxes/doc-test')).status).toBe(404)
    expect((await control('POST', '/__sim/reset', {})).status).toBe(200)
    // Every operation of the document was reached (the dashboard at /__sim and /__sim/ alike).
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(operations.filter((operation) => !reached.has(operation))).toEqual([])
  })

  it('fails the suites on a control answer that does not conform (checkedControl, used by the HTTP targets)', async () => {
    const answering = (body: unknown, status = 200) =>
      checkedControl(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))
    await expect(answering({ now: 5 })('http://127.0.0.1:1/__sim/clock')).rejects.toThrow(/does not conform[\s\S]*GET \/__sim\/clock 200/)
    await expect(
      answering({ message: 'no code' }, 404)('http://127.0.0.1:1/sandboxes/a/__sim/faults/x', { method: 'DELETE' }),
    ).rejects.toThrow(/required property 'code'/)
    const good = await answering({ now: '2030-01-01T00:00:00.000Z', epochMs: 1_893_456_000_000, frozen: true })(
      'http://127.0.0.1:1/__sim/clock',
    )
    expect(((await good.json()) as { frozen: boolean }).frozen).toBe(true)
  })
})
