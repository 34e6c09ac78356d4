import { beforeEach, expect, it } from 'vitest'
import { apiRoutes } from '../../src/core/operations/api-routes.ts'
import { pageOrigin as origin, testKeys, type ApiTarget } from '../support/api-target.ts'
import { createClient } from './http-client.ts'

/** Each path of the route table with the methods it serves (HEAD with GET), as a preflight should offer them. */
const pathMethods = [...new Set(apiRoutes.map((route) => route.path))].map((path) => {
  const methods = apiRoutes
    .filter((route) => route.path === path)
    .flatMap((route) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]))
  return [path, path.replace('{petId}', '1'), [...methods, 'OPTIONS'].join(', ')] as const
})

/** CORS as a browser sees it: the same on every target. */
export function defineCorsScenarios(target: () => ApiTarget): void {
  const call = createClient(target, testKeys.pro)
  beforeEach(() => target().reset())

  // Before, every preflight offered every method of the API (GET, HEAD, POST, DELETE, OPTIONS on /pets/1, where POST is a 405).
  it.each(pathMethods)('a preflight of %s offers that path’s own methods', async (_path, concrete, methods) => {
    const preflight = await call('OPTIONS', concrete, {
      key: null,
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-methods')).toBe(methods)
    expect(preflight.headers.get('allow')).toBe(methods)
  })

  it('names Origin once in Vary, on a preflight and on an answer that grants the origin', async () => {
    const preflight = await call('OPTIONS', '/pets', { key: null, headers: { origin, 'access-control-request-method': 'POST' } })
    const answer = await call('GET', '/pets?limit=1', { headers: { origin } })
    const originsIn = (headers: Headers) =>
      (headers.get('vary') ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name === 'origin')
    expect(originsIn(preflight.headers)).toEqual(['origin'])
    // In-process (setupServer) the API's answers carry no CORS headers: msw answers inside the page's own process.
    expect(originsIn(answer.headers)).toEqual(answer.headers.has('access-control-allow-origin') ? ['origin'] : [])
  })
}
