// The route table on its own: matching by method and path (HEAD as GET), 405's Allow, path parameters (decoded),
// and what is unknown. Over a table of its own, so that each promise is checked on the matcher, not on the API.
import { describe, expect, it } from 'vitest'
import type { ApiRouteDefinition } from '../../../src/core/operations/api-routes.ts'
import { compileRouteTable, type RouteMatch } from '../../../src/core/operations/route-table.ts'
import type { OperationContext } from '../../../src/core/operations/operation-context.ts'

const route = (operation: string, method: ApiRouteDefinition['method'], path: string): ApiRouteDefinition => ({
  operation,
  method,
  path,
  resolve: () => ({ status: 200, body: operation }),
  statuses: [200],
  simulatorStatuses: [],
})

const definitions = [
  route('listThings', 'GET', '/things'),
  route('createThing', 'POST', '/things'),
  route('getThing', 'GET', '/things/{thingId}'),
  route('deleteThing', 'DELETE', '/things/{thingId}'),
  route('getPart', 'GET', '/things/{thingId}/parts/{partId}'),
  route('putRoot', 'PUT', '/root'),
]
// The table reads the state only for routes that declare headers; these declare none.
const table = compileRouteTable(definitions, {} as OperationContext)

const summary = (match: RouteMatch) => (match.kind === 'operation' ? { operation: match.route.operation, params: match.params } : match)

describe('compileRouteTable', () => {
  it.each([
    ['GET', '/things', 'listThings', {}],
    ['HEAD', '/things', 'listThings', {}],
    ['POST', '/things', 'createThing', {}],
    ['GET', '/things/', 'listThings', {}],
    ['GET', '/things/7', 'getThing', { thingId: '7' }],
    ['HEAD', '/things/7', 'getThing', { thingId: '7' }],
    ['DELETE', '/things/abc', 'deleteThing', { thingId: 'abc' }],
    ['GET', '/things/a%20b', 'getThing', { thingId: 'a b' }],
    ['GET', '/things/%E2%9C%93', 'getThing', { thingId: '✓' }],
    ['GET', '/things/%zz', 'getThing', { thingId: '%zz' }],
    ['GET', '/things/1/parts/2', 'getPart', { thingId: '1', partId: '2' }],
    ['PUT', '/root', 'putRoot', {}],
  ])('%s %s is %s with %j', (method, path, operation, params) => {
    expect(summary(table.match(method, path))).toEqual({ operation, params })
  })

  it.each([
    ['DELETE', '/things', 'GET, HEAD, POST'],
    ['PATCH', '/things/7', 'GET, HEAD, DELETE'],
    ['POST', '/things/1/parts/2', 'GET, HEAD'],
    ['GET', '/root', 'PUT'],
    ['HEAD', '/root', 'PUT'],
  ])('%s %s is a known path with another method: Allow %s', (method, path, allow) => {
    expect(table.match(method, path)).toEqual({ kind: 'wrong-method', allow })
  })

  it.each([
    ['GET', ''],
    ['GET', '/'],
    ['GET', '/thing'],
    ['GET', '/things//'],
    ['GET', '/things/7/parts'],
    ['GET', '/things/7/parts/'],
    ['GET', '/things/7/extra/2'],
    ['GET', '/Things'],
    ['GET', '/things/1/parts/2/3'],
    ['POST', '/nothing'],
  ])('%s %j is an unknown path', (method, path) => {
    expect(table.match(method, path)).toEqual({ kind: 'unknown-path' })
  })

  it('refuses an empty parameter segment rather than matching it', () => {
    expect(table.match('GET', '/things//parts/2')).toEqual({ kind: 'unknown-path' })
  })

  it('lists the paths with their Allow, in table order, and every method (HEAD beside GET)', () => {
    expect(table.paths).toEqual([
      { path: '/things', allow: 'GET, HEAD, POST' },
      { path: '/things/{thingId}', allow: 'GET, HEAD, DELETE' },
      { path: '/things/{thingId}/parts/{partId}', allow: 'GET, HEAD' },
      { path: '/root', allow: 'PUT' },
    ])
    expect(table.methods).toEqual(['GET', 'HEAD', 'POST', 'DELETE', 'PUT'])
    expect(table.routes.map((compiled) => compiled.operation)).toEqual(definitions.map((definition) => definition.operation))
  })

  it('reads the parameters at the end of a longer path (a lane that matched the route itself)', () => {
    const getPart = table.routes.find((compiled) => compiled.operation === 'getPart')!
    expect(table.paramsAtEnd(getPart, '/v1/things/4/parts/5')).toEqual({ thingId: '4', partId: '5' })
    expect(table.paramsAtEnd(getPart, '/prefix/deeper/things/x%2Fy/parts/5')).toEqual({ thingId: 'x/y', partId: '5' })
    const getThing = table.routes.find((compiled) => compiled.operation === 'getThing')!
    expect(table.paramsAtEnd(getThing, '/v1/things/9/')).toEqual({ thingId: '9' })
  })
})

describe('the API route table and the operations’ names', () => {
  it('has one route per name of operationNames, in its order (the compiler checks the same)', async () => {
    const { apiRoutes, routesFollowOperationNames } = await import('../../../src/core/operations/api-routes.ts')
    const { operationNames } = await import('../../../src/core/model/operation-names.ts')
    expect(routesFollowOperationNames).toBe(true)
    expect(apiRoutes.map((route) => route.operation)).toEqual([...operationNames])
  })
})
