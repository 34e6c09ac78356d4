import { ApiError } from '../../core/http/api-error.ts'
import { constantTimeEqual } from '../../core/access/api-keys.ts'
import { maxAuthorizationLength, readBearerToken } from '../../core/access/bearer-token.ts'
import type { PlainRequest } from '../../core/http/plain-http.ts'
import { isJsonContentType } from '../../core/operations/request-parsing.ts'
import type { HostPolicy } from '../../core/access/host-policy.ts'
import type { ControlOptions } from './control-route.ts'

/**
 * Who may use the control plane, checked on every request, however the app
 * is served (counterfact's admin-api-middleware is the model):
 *
 * - never a page on another origin (`Origin` must be the simulator's own), so
 *   no web page can drive a simulator on the developer's machine;
 * - with an admin token, whoever has it; without one, loopback clients only,
 *   and only under a loopback `Host` name or one the user allowed, which
 *   shuts out DNS rebinding (a foreign name resolving to 127.0.0.1);
 * - a POST must be `application/json`, which no CORS-simple request (form
 *   or `text/plain` POST) can be; the other state-changing method, DELETE,
 *   is never CORS-simple.
 *
 * MSW handlers in-process (`transport.local`) have no network client to check.
 *
 * The dashboard's page (`shell`) is the one exception to the admin token: a
 * browser's navigation cannot send `Authorization`, and the page is the
 * same static document the package ships, with no data in it. Every request
 * it then makes for data or to change anything needs the token.
 *
 * The health check (`probe`) is the other: it answers every client, token or
 * not, loopback or not, whatever its `Host`. Orchestrators probe from outside
 * (a Kubernetes `httpGet` probe, compose, a load balancer: none sends a token,
 * and in a container even `-p 127.0.0.1:…` arrives from the bridge's address),
 * and it tells nothing the API does not: it changes nothing, and holds no key.
 */
export function guard(request: PlainRequest, options: ControlOptions, access: ControlAccess, hosts: HostPolicy): void {
  const shell = access === 'shell'
  const origin = request.header('origin')
  if (origin !== undefined && !isSameOrigin(origin, request.authority)) {
    throw new ApiError('foreign_origin', `Control endpoints do not serve pages on other origins (Origin ${origin})`)
  }
  // A no-cors GET (an <img> or <script> on any page) sends no Origin; browsers say where it comes from in
  // Sec-Fetch-Site (Fetch Metadata; Chrome 76, Firefox 90, Safari 16.4). Such requests were answered: unreadable by
  // the page, but served, and a GET costs work. Served: the simulator's own pages (`same-origin`) and what the user
  // does (`none`: a typed URL, a bookmark). Refused: `cross-site`, and `same-site`, which is any other port of
  // localhost, another origin. A navigation to the dashboard's page (a link to it) is let through: the page is a
  // static document, and the requests it then makes are its own, same-origin. Clients without the header (curl,
  // scripts, Node's fetch) are not browsers' pages and are unaffected.
  const site = request.header('sec-fetch-site')?.trim().toLowerCase()
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !(shell && request.header('sec-fetch-mode') === 'navigate')) {
    throw new ApiError('foreign_origin', `Control endpoints do not serve pages on other origins (Sec-Fetch-Site: ${site})`)
  }
  if (access === 'probe') return
  if (options.adminToken !== undefined) {
    if (!shell) requireAdmin(request, options.adminToken)
  } else if (request.transport.local !== true) {
    if (!isLoopbackAddress(request.transport.clientAddress)) {
      throw new ApiError('control_forbidden', `Control endpoints serve loopback clients only; to serve others, ${configureToken}`)
    }
    // A request without Host is refused here (the API lets it through: no browser sends one).
    if (request.authority === undefined || !hosts.allows(request.authority)) {
      throw new ApiError(
        'control_forbidden',
        `Control endpoints answer loopback host names only (got Host ${request.authority ?? 'none'}); allow others by name (--allowed-host), or ${configureToken}`,
      )
    }
  }
  // POST is the one state-changing method a CORS-simple request can use (DELETE is always preflighted).
  if (request.method === 'POST') {
    const contentType = request.header('content-type')
    if (contentType === undefined || !isJsonContentType(contentType)) {
      throw new ApiError('unsupported_media_type', 'Control requests that change state must be sent as application/json')
    }
  }
}

/**
 * How a refused client gets in, named in each `control_forbidden`: from a container's published port every request is
 * refused, and "an admin token" alone named no way to set one (issue 49). Each way the token is configured, as the
 * CLI, the image and the in-process app take it.
 */
const configureToken =
  'set an admin token (PETSTORE_SIM_ADMIN_TOKEN, --admin-token, or the adminToken option in-process) and send Authorization: Bearer <token>'

/** Which of the guard's exceptions a request falls under: the dashboard's page, the health probe, or none. */
export type ControlAccess = 'shell' | 'probe' | 'guarded'

/** `path` is under `/__sim` (`/` for the dashboard's page). */
export function controlAccess(method: string, path: string): ControlAccess {
  if (method === 'GET' && path === '/') return 'shell'
  if ((method === 'GET' || method === 'HEAD') && path === '/health') return 'probe'
  return 'guarded'
}

function isSameOrigin(origin: string, authority: string | undefined): boolean {
  try {
    const url = new URL(origin)
    return (url.protocol === 'http:' || url.protocol === 'https:') && authority !== undefined && url.host === authority.toLowerCase()
  } catch {
    return false
  }
}

/** 127.0.0.0/8 and ::1, also IPv4-mapped. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false
  return address === '::1' || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address)
}

/**
 * Why a configured admin token cannot protect anything, or `undefined` when it can. An empty token compared equal to
 * the empty token of a request with no `Authorization` header, so `--admin-token ""` (or the variable set and empty)
 * opened the control plane to every client on the network; a token of white space alone, or with white space around
 * it, is one no client can send (`readBearerToken` trims it away), so it is refused too, at start, rather than read as
 * a lock nobody can open.
 */
export function adminTokenProblem(token: string): string | undefined {
  if (token.trim() === '') return 'must not be empty'
  if (token.trim() !== token) return 'must not start or end with white space'
  if (token.length > maxAuthorizationLength - 'Bearer '.length)
    return `must be shorter than ${maxAuthorizationLength - 'Bearer '.length} characters`
  return undefined
}

function requireAdmin(request: PlainRequest, adminToken: string): void {
  let token = ''
  try {
    token = readBearerToken(request.header('authorization') ?? null)
  } catch {
    // No usable bearer token: refused below like a wrong one.
  }
  if (!constantTimeEqual(adminToken, token)) {
    throw new ApiError('admin_unauthorized', 'Control endpoints need "Authorization: Bearer <admin token>"', {
      'WWW-Authenticate': 'Bearer realm="petstore-sim-admin"',
    })
  }
}
