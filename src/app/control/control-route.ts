import type { MappedProviderStates } from '../../core/simulator/mapped-provider-states.ts'
import { decodePathSegment } from '../../core/http/path-normalisation.ts'
import type { PlainRequest, PlainResponse } from '../../core/http/plain-http.ts'
import type { EventStreamOptions } from '../dashboard/event-stream.ts'
import type { ControlRouteDoc } from './control-doc.ts'

// What the control plane, its guard and its route files share, apart from the plane that composes them (no cycle).

/** The path under which the control endpoints live, outside the API prefix. */
export const controlPath = '/__sim'

export interface ControlOptions {
  /**
   * When set, every control request needs `Authorization: Bearer <adminToken>`,
   * from any address. Without it, only loopback clients, sending to a loopback
   * host name, are served.
   */
  readonly adminToken?: string | undefined
  /**
   * Host names (no port) accepted in `Host` besides the loopback ones, when there is no admin token: each exact, or
   * `.example.test` for that domain and its subdomains; `*` for any (see `HostPolicy`).
   */
  readonly allowedHosts?: readonly string[] | undefined
  /** How the dashboard's event streams (`GET /__sim/events`) batch and keep alive; the defaults suit a browser. */
  readonly events?: EventStreamOptions | undefined
  /**
   * Provider states of the team's own, by the names its consumers' pacts use, each mapped onto a scenario, a snapshot
   * and built-in states (docs/pact.md): `POST /__sim/provider-states` sets them up, `GET` lists them.
   */
  readonly providerStates?: MappedProviderStates | undefined
}

export interface ControlRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Under {@link controlPath}; `{id}` stands for one path segment. */
  readonly path: string
  readonly name: string
  /** What `GET /__sim/openapi.json` says of it (`control-doc.ts`). */
  readonly doc: ControlRouteDoc
  readonly resolve: (request: PlainRequest, id: string | undefined) => PlainResponse | Promise<PlainResponse>
}

/**
 * The routes whose path is `path` (under {@link controlPath}), any method, and the `{id}` segment when a route has one,
 * decoded as the API decodes path parameters. The one matcher of the control plane; the MSW handlers register the same
 * paths.
 */
export function matchControlPath(
  routes: readonly ControlRoute[],
  path: string,
): { readonly samePath: readonly ControlRoute[]; readonly id: string | undefined } {
  let id: string | undefined
  const samePath = routes.filter((route) => {
    if (route.path === path) return true
    const prefix = route.path.endsWith('/{id}') ? route.path.slice(0, -'{id}'.length) : undefined
    if (prefix === undefined || !path.startsWith(prefix) || path.length === prefix.length || path.indexOf('/', prefix.length) !== -1)
      return false
    id = decodePathSegment(path.slice(prefix.length))
    return true
  })
  return { samePath, id }
}
