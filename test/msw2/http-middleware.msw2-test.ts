// @mswjs/http-middleware serving the simulator's MSW handlers, on msw 2 only
// (on msw 3 it fails on every request: see test/node/middleware.test.ts and the
// docs/cli.md). Runs the recipe of docs/recipes.md, behind express.json(), and the same
// middleware with no parser; then petstore-sim's own createMiddleware() on
// the same msw 2, with your handlers in front.
import './http-middleware-msw.ts'
import type { RequestListener } from 'node:http'
import { createRequire } from 'node:module'
import { createMiddleware as createHttpMiddleware } from '@mswjs/http-middleware'
import express from 'express'
import { http, HttpResponse } from 'msw'
import { createSimulator } from 'petstore-sim'
import { describe, expect, it } from 'vitest'
import { createMiddleware } from '../../src/node.ts'
import { app as recipeApp, simulator as recipeSimulator } from '../recipes/http-middleware-msw2.ts'
import { checkedFetch } from '../support/checked-fetch.ts'
import { useTestHosts } from '../support/test-hosts.ts'

const auth = { authorization: 'Bearer demo-pro-key' }
const json = { ...auth, 'content-type': 'application/json' }

const listen = useTestHosts()

/** express 5 with @mswjs/http-middleware and no body parser, and an app after it for what msw passes through. */
function withoutParser(): RequestListener {
  const app = express()
  app.use(createHttpMiddleware(...createSimulator({ seed: 1 }).handlers))
  app.use((_request, response) => void response.status(404).type('text').send('app: not mocked'))
  return app
}

it("gives @mswjs/http-middleware the msw 2 under test, not the project's msw 3", () => {
  const fromMiddleware = createRequire(createRequire(import.meta.url).resolve('@mswjs/http-middleware')).resolve('msw')
  expect(fromMiddleware).toContain(`/node_modules/${process.env.PETSTORE_SIM_MSW_PACKAGE}/`)
})

describe.each([
  ['the recipe, behind express.json()', () => recipeApp as RequestListener],
  ['no body parser', withoutParser],
])('@mswjs/http-middleware with %s', (_case, build) => {
  it('answers GET 200 with rate-limit headers, 401 without a key, POST 201 and 400 for an invalid pet', async () => {
    recipeSimulator.reset()
    const origin = await listen(build())
    const list = await checkedFetch(`${origin}/v1/pets?limit=2`, { headers: auth, signal: AbortSignal.timeout(5000) })
    expect(list.status).toBe(200)
    expect(list.headers.get('x-ratelimit-remaining')).toBe('299')
    expect(await list.json()).toHaveLength(2)

    const anonymous = await checkedFetch(`${origin}/v1/pets`, { signal: AbortSignal.timeout(5000) })
    expect(anonymous.status).toBe(401)

    const created = await checkedFetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":"Rex","categoryId":2}',
      signal: AbortSignal.timeout(5000),
    })
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({ id: 51, name: 'Rex', categoryId: 2 })

    const invalid = await checkedFetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":"","categoryId":"two"}',
      signal: AbortSignal.timeout(5000),
    })
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toMatchObject({ code: 'invalid_body' })
  })
})

it('passes what no handler answers on to the next middleware', async () => {
  const origin = await listen(withoutParser())
  const response = await fetch(`${origin}/elsewhere`, { signal: AbortSignal.timeout(5000) })
  expect(response.status).toBe(404)
  expect(await response.text()).toBe('app: not mocked')
})

it("serves petstore-sim's own createMiddleware() on msw 2 too, after express.json() and with your handlers in front", async () => {
  const app = express()
  app.use(express.json())
  app.use(createMiddleware({ handlers: [http.get('*/v1/toys', () => HttpResponse.json(['ball']))] }))
  const origin = await listen(app)
  expect(await (await fetch(`${origin}/v1/toys`, { signal: AbortSignal.timeout(5000) })).json()).toEqual(['ball'])
  const created = await checkedFetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: json,
    body: '{"name":"Rex","categoryId":2}',
    signal: AbortSignal.timeout(5000),
  })
  expect(created.status).toBe(201)
})
