import type { ApiRouteDefinition, HttpMethod } from './api-routes.ts'
import type { OperationContext } from './operation-context.ts'
import { decodePathSegment } from '../http/path-normalisation.ts'

/** A route of the table, ready to match: its path split into literal and parameter segments. */
export interface CompiledRoute {
  readonly definition: ApiRouteDefinition
  readonly operation: string
  readonly method: HttpMethod
  readonly segments: readonly Segment[]
  /** The route's own headers, computed once. */
  readonly headers: Readonly<Record<string, string>> | undefined
}

type Segment = { readonly literal: string; readonly param?: undefined } | { readonly param: string; readonly literal?: undefined }

/** What a method and a path under the base path are, by the table. */
export type RouteMatch =
  | { readonly kind: 'operation'; readonly route: CompiledRoute; readonly params: Readonly<Record<string, string>> }
  /** A known path, another method: 405 with this `Allow`. */
  | { readonly kind: 'wrong-method'; readonly allow: string }
  | { readonly kind: 'unknown-path' }

/** A path of the API with the methods it supports, in table order. */
export interface RoutePath {
  /** The path under the base path, e.g. `/pets/{petId}`. */
  readonly path: string
  /** The value of a 405's `Allow`, e.g. `GET, POST`. */
  readonly allow: string
}

export interface RouteTable {
  readonly routes: readonly CompiledRoute[]
  readonly paths: readonly RoutePath[]
  /** Every method some route answers, HEAD included where GET is. */
  readonly methods: readonly HttpMethod[]
  /** Matches a method and a path under the base path (`/pets/5`; empty for the base path itself). */
  match(method: string, pathUnderBase: string): RouteMatch
  /**
   * The parameters of a route whose path ends the given path: for a lane that
   * has matched the route itself (MSW), so that parameters are read by the
   * same code on every lane.
   */
  paramsAtEnd(route: CompiledRoute, path: string): Readonly<Record<string, string>>
}

export function compileRouteTable(definitions: readonly ApiRouteDefinition[], state: OperationContext): RouteTable {
  const routes: CompiledRoute[] = definitions.map((definition) => ({
    definition,
    operation: definition.operation,
    method: definition.method,
    segments: definition.path
      .split('/')
      .slice(1)
      .map((segment): Segment => {
        const parameter = /^\{(\w+)\}$/.exec(segment)
        return parameter === null ? { literal: segment } : { param: parameter[1]! }
      }),
    headers: definition.headers?.(state),
  }))
  const paths: RoutePath[] = []
  for (const route of routes) {
    if (paths.some((entry) => entry.path === route.definition.path)) continue
    const methods: string[] = routes.filter((other) => other.definition.path === route.definition.path).map((other) => other.method)
    // HEAD wherever GET is (RFC 9110 §9.3.2): GET's status and headers, no body.
    if (methods.includes('GET')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD')
    paths.push({ path: route.definition.path, allow: methods.join(', ') })
  }
  const allowByPath = new Map(paths.map((entry) => [entry.path, entry.allow]))

  return {
    routes,
    paths,
    methods: [...new Set(routes.flatMap((route): HttpMethod[] => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])))],
    match(method, pathUnderBase) {
      const segments = splitPath(pathUnderBase)
      // A HEAD is answered as the GET of the same path, counted like it; lanes send no body.
      const routeMethod = method === 'HEAD' ? 'GET' : method
      let knownPath: CompiledRoute | undefined
      for (const route of routes) {
        if (!segmentsMatch(route.segments, segments, 0)) continue
        if (route.method === routeMethod) return { kind: 'operation', route, params: readParams(route.segments, segments, 0) }
        knownPath ??= route
      }
      return knownPath === undefined
        ? { kind: 'unknown-path' }
        : { kind: 'wrong-method', allow: allowByPath.get(knownPath.definition.path)! }
    },
    paramsAtEnd(route, path) {
      const segments = splitPath(path)
      return readParams(route.segments, segments, segments.length - route.segments.length)
    },
  }
}

/** `/pets/5` -> `['pets', '5']`; one trailing slash is ignored (`/pets/` is `/pets`, as MSW matches). */
function splitPath(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  return trimmed === '' ? [] : trimmed.slice(1).split('/')
}

function segmentsMatch(pattern: readonly Segment[], segments: readonly string[], offset: number): boolean {
  if (segments.length - offset !== pattern.length) return false
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index]!
    const actual = segments[offset + index]!
    if (expected.literal === undefined ? actual === '' : expected.literal !== actual) return false
  }
  return true
}

function readParams(pattern: readonly Segment[], segments: readonly string[], offset: number): Record<string, string> {
  const params: Record<string, string> = {}
  for (let index = 0; index < pattern.length; index++) {
    const name = pattern[index]!.param
    if (name !== undefined) params[name] = decodePathSegment(segments[offset + index] ?? '')
  }
  return params
}
