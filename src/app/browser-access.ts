import { constantTimeEqual } from '../core/access/api-keys.ts'
import { readBearerToken } from '../core/access/bearer-token.ts'
import type { HostPolicy } from '../core/access/host-policy.ts'
import { anyOrigin, originNotAllowed } from '../core/access/origin-policy.ts'
import { ApiError } from '../core/http/api-error.ts'
import type { PlainRequest, PlainResponse } from '../core/http/plain-http.ts'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'
import type { RecordInput } from '../core/journal/journal-types.ts'

/**
 * What a web page may not make the simulator do, checked before anything else on every request outside the control
 * plane (which has stricter rules of its own, `control-guard.ts`), so that a refused request is neither counted
 * against any rate-limit bucket nor served:
 *
 * - a `Host` that is not a loopback name nor one allowed, when `allowedHosts` is given (the CLI gives it when bound to
 *   loopback): DNS rebinding, where a foreign name resolving to 127.0.0.1 makes the simulator the page's own origin
 *   (a rebinding page read a created pet and banned `demo-pro-key`). 403 `host_not_allowed`;
 * - an `Origin` the CORS policy does not allow: 403 `origin_not_allowed`;
 * - a cross-site request without `Origin` (`Sec-Fetch-Site: cross-site`, Fetch Metadata: Chrome 76, Firefox 90,
 *   Safari 16.4): an `<img>` or `<script>` on another site, which browsers send no-cors. 80 `<img>` tags on a foreign
 *   page got the anonymous 127.0.0.1 bucket banned, so the developer's own no-key tests saw 429 instead of 401. Its
 *   origin is unknown, so only a policy that allows any origin (`*`) lets it through. A top-level navigation (a link
 *   the user follows, `Sec-Fetch-Mode: navigate` to a `document`) is let through, but counted against no anonymous
 *   bucket ({@link isCrossSiteNavigation}).
 *
 * In-process requests (`transport.local`) never crossed a network: no Host to rebind, and the page is the app's own.
 *
 * `hosts` is the Host check, when there is one: passed in by `createApp` (not by `simulator.fetch`, which answers only
 * its own process), so that a page bundling the simulator does not carry it.
 */
export function createBrowserAccess(simulator: SimulatorCore, hosts: HostCheck | undefined) {
  const anyPage = simulator.origins.origins.includes(anyOrigin)
  return {
    /**
     * The refusal of a request outside the control plane, or undefined when it may go on. `hostOnly`: the `Host`
     * check alone, for the user's own handlers (`--handlers`), which answer pages of any origin as they choose but
     * must not be reached by DNS rebinding.
     */
    refusal(request: PlainRequest, hostOnly = false): ApiError | undefined {
      if (request.transport.local === true) return undefined
      if (hosts !== undefined && !hosts.policy.allows(request.authority)) return hosts.refusal(request.authority ?? '')
      if (hostOnly) return undefined
      const origin = request.header('origin')
      if (origin !== undefined) return simulator.origins.allows(origin) ? undefined : originNotAllowed(origin)
      if (anyPage || request.header('sec-fetch-site')?.trim().toLowerCase() !== 'cross-site') return undefined
      if (isTopLevelNavigation(request)) return undefined
      return new ApiError(
        'origin_not_allowed',
        `Pages on other sites may not call this simulator (Sec-Fetch-Site: cross-site, without Origin: an <img> or <script>): allow pages of any origin with --cors-origin '*', PETSTORE_SIM_CORS_ORIGIN or the corsOrigins option`,
      )
    },
  }
}

/**
 * A top-level navigation from a page on another site (`Sec-Fetch-Site: cross-site`, `Sec-Fetch-Mode: navigate`,
 * `Sec-Fetch-Dest: document`): a link the user follows, or a page that keeps re-navigating a popup, which it may do
 * at will and without the user. Served (the user sees the API's answer), but counted against no anonymous bucket:
 * counted, a foreign page got the anonymous caller of 127.0.0.1 banned. A browser never sends a key in one.
 */
export function isCrossSiteNavigation(request: PlainRequest): boolean {
  return (
    request.transport.local !== true &&
    isTopLevelNavigation(request) &&
    request.header('sec-fetch-site')?.trim().toLowerCase() === 'cross-site'
  )
}

function isTopLevelNavigation(request: PlainRequest): boolean {
  return request.header('sec-fetch-mode') === 'navigate' && request.header('sec-fetch-dest') === 'document'
}

/** A Host check: which names are allowed, and the refusal of another (`host-policy.ts`). */
export interface HostCheck {
  readonly policy: HostPolicy
  readonly refusal: (authority: string) => ApiError
}

/**
 * Journals a refused API request (status and Error body as sent), so that a developer sees what a foreign page
 * tried; nothing is counted, in the limits, the coverage or the pact (`refused`). Its caller is the key it sent, when that is a key in force, else `anonymous`.
 */
export function journalRefusal(simulator: SimulatorCore, request: PlainRequest, response: PlainResponse): void {
  const match = simulator.pipeline.table.match(request.method, request.path.slice(simulator.basePath.length))
  const operation =
    match.kind === 'operation' ? match.route.operation : match.kind === 'wrong-method' ? 'methodNotAllowed' : 'routeNotFound'
  const key = keyOf(simulator, request)
  const input: RecordInput = {
    atMs: simulator.clock.now(),
    method: request.method,
    path: request.query === '' ? request.path : `${request.path}?${request.query}`,
    status: response.status,
    operation,
    caller: key?.fingerprint ?? 'anonymous',
    plan: key?.planLabel ?? 'anonymous',
    durationMs: 0,
    refused: true,
    exchange: {
      rawHeaders: request.headerList?.(),
      requestBody: undefined,
      responseHeaders: response.headers,
      responseBody: response.body,
    },
  }
  // With a shared store, in the fleet's journal (its sequence); the refusal is sent whether or not the store has it.
  if (simulator.shared === undefined) simulator.journal.record(input)
  else simulator.shared.record(input).catch(() => {})
}

/** The key in force that the request's `Authorization` names, if any. */
export function keyOf(simulator: SimulatorCore, request: PlainRequest) {
  let token: string
  try {
    token = readBearerToken(request.header('authorization') ?? null)
  } catch {
    return undefined
  }
  return simulator.keys.find((key) => constantTimeEqual(key.token, token))
}
