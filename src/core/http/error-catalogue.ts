import { errorStatuses, type ErrorCode } from './error-codes.ts'

/** When each code is used: exactly one sentence per code of `errorStatuses` (the compiler checks both ways). */
const errorUses = {
  invalid_query_parameter: 'A query parameter (`limit`, `status`) is malformed, out of range or repeated.',
  invalid_path_parameter: '`petId` is not an integer in the safe-integer range.',
  invalid_body: 'The createPet body is missing, is not JSON, is not an object, or has invalid fields (all are named).',
  invalid_prefer:
    '`Prefer: code=<status>` names a status the operation does not document; the message lists those it does, and the fault rule that answers a 5xx.',
  bad_request: 'The HTTP request itself is malformed, or its path has a dot segment (`.`, `..`, `%2e`): standalone server only.',
  too_many_faults: '`POST /__sim/faults` with more than 100 rules, or that would put more than 1,000 rules in force; nothing is added.',
  invalid_provider_state:
    '`POST /__sim/provider-states` with a state the simulator does not know, or params that do not fit it; the message lists the states.',
  sandbox_name_invalid:
    'A sandbox named in `/sandboxes/<name>/…`, `X-Petstore-Sandbox` or `/__sim/sandboxes/<name>` that is not 1 to 63 lower-case ASCII letters, digits and `-` (starting with a letter or digit); the message says what a name may be, and nothing is created.',
  sandbox_conflict: 'A request whose path names one sandbox and whose `X-Petstore-Sandbox` header names another (with `--sandbox-header`).',
  missing_api_key: 'No `Authorization` header, another scheme than Bearer, or an empty token.',
  invalid_api_key: 'A Bearer token that is not a known API key.',
  admin_unauthorized: 'A control endpoint (`/__sim/*`) called without the admin token it requires.',
  foreign_origin:
    'A control request (`/__sim/*`) from a page on another origin (its `Origin`, or `Sec-Fetch-Site` other than `same-origin` or `none`).',
  origin_not_allowed:
    'A request from a web page whose origin is not allowed (`--cors-origin`, `corsOrigins`; pages of this machine always are), or a cross-site one without `Origin` (`Sec-Fetch-Site: cross-site`: an `<img>` or `<script>` on another site) unless any origin is: journaled, nothing counted, and no CORS grant.',
  host_not_allowed:
    'A request to the API or the OpenAPI document under a `Host` that is not a loopback name nor one allowed (`--allowed-host`), on a server bound to loopback (DNS rebinding): journaled, nothing counted.',
  control_forbidden:
    'A control request from a client that is not on loopback, or to a `Host` that is not a loopback name (DNS rebinding), with no admin token configured; the message names how to set one (`PETSTORE_SIM_ADMIN_TOKEN`, `--admin-token`, or the `adminToken` option in-process).',
  fault_not_found: '`DELETE /__sim/faults/{id}` for an id that no rule in force has.',
  scenario_not_found: '`POST /__sim/scenario` with a name that is neither a built-in scenario nor one of yours.',
  sandbox_not_found:
    '`DELETE /__sim/sandboxes/<name>` or `POST /__sim/sandboxes/<name>/reset` for a sandbox that does not exist (or has expired).',
  request_not_seen: '`GET /__sim/requests/wait`: no request matched the filter within `timeoutMs`; the message lists the nearest ones.',
  pet_not_found: 'getPet for an id that does not exist.',
  route_not_found: 'A path under the API prefix (or the server) that the API does not have.',
  method_not_allowed: 'A known path with a method it does not support; `Allow` lists the supported ones.',
  request_timeout:
    "The request's headers or body did not arrive in time (standalone server only; 10 s for the headers, 30 s for the whole request by default).",
  pact_too_large:
    'A pact export (`GET /__sim/requests.pact`, `journal.toPact`, `--pact`) past 500 distinct interactions or 8 MB: clear them between test files (`DELETE /__sim/requests.pact`), or filter.',
  endpoint_removed: 'getPet after its removal date (5 December 2030) on the simulator clock.',
  payload_too_large: 'A request body over the body limit (default 1 MiB).',
  unsupported_media_type: 'A body with a `Content-Type` that is not JSON, or a charset other than UTF-8.',
  unsupported_content_encoding: 'A body with a `Content-Encoding` (gzip, …): send it uncompressed; `Accept-Encoding: identity` says so.',
  expectation_failed: 'An `Expect` header other than `100-continue` (standalone server only).',
  rate_limit_exceeded: 'The per-minute or per-day limit of the caller is used up; see `Retry-After`.',
  api_key_banned: 'The caller kept sending requests after 429s and is temporarily banned; see `Retry-After`.',
  headers_too_large: "The request's headers are over 16 KiB (standalone server only).",
  internal_error: 'A bug in the simulator (please report it).',
  invalid_clock: 'The `clock` given to the simulator read a time that is not a whole number of ms from 1970 to 9999 (`NaN`, say).',
  not_implemented: 'GET /store/orders: named by the spec but never specified.',
  bad_gateway: 'Only from a fault rule (`status: 502`), marked `Petstore-Sim-Fault`.',
  service_unavailable: 'Only from a fault rule (`status: 503`), with `Retry-After`, marked `Petstore-Sim-Fault`.',
  simulator_reset:
    'A request that began before a reset and would have changed state after it (a createPet whose body arrived later): nothing is stored; send it again.',
  shutting_down: 'A request that arrived on an open connection while the server drains after SIGTERM/SIGINT; see `Retry-After`.',
  too_many_streams:
    '`GET /__sim/events` while 32 event streams (dashboards) are open already, or `GET /__sim/snapshot` while 4 snapshots are being written; see `Retry-After`.',
  too_many_waits:
    '`GET /__sim/requests/wait` that would wait while 256 waits are pending already (`defaults.maxPendingWaits`); see `Retry-After`.',
  too_many_sandboxes:
    'A request that would start a new sandbox while the simulator holds as many as it may (`--max-sandboxes`, default 50); the message names the cap, and `Retry-After` says when the least recently used one expires.',
  store_unavailable:
    'Any API request while the shared store (`--store`) does not answer within `--store-timeout`: the message names the store and the cause, `Retry-After` says when to try again, and what became of the request: nothing was counted or changed when the store was out of reach or ran it too late; when its answer alone came too late, it may have been counted (read the state before sending it again). `GET /__sim/health` answers 503 meanwhile.',
  store_corrupt:
    'Any request while the shared store (`--store`) holds, under the namespace, a value this version did not write (another process wrote there): the message names the store and the key, `Retry-After` says when to try again, and nothing was counted or changed. `GET /__sim/health` answers 503 meanwhile; the instance serves again once the value is removed or the world is reset.',
  gateway_timeout: 'Only from a fault rule (`status: 504`), marked `Petstore-Sim-Fault`.',
  store_full:
    'createPet when the simulator already holds as many created pets as it may (`--max-pets`, `maxPets`; default 100,000) until a reset, or when no id is left (ids end at 2^53 − 2, reached only by a catalogue set up near it).',
} as const satisfies Record<ErrorCode, string>

/** The error catalogue: every code with its status and when it is used. The docs' error table is this table. */
export type ErrorCatalogue = {
  readonly [Code in ErrorCode]: { readonly status: (typeof errorStatuses)[Code]; readonly when: (typeof errorUses)[Code] }
}

function buildCatalogue(): ErrorCatalogue {
  const catalogue: Record<string, { status: number; when: string }> = {}
  for (const code of Object.keys(errorStatuses) as ErrorCode[]) catalogue[code] = { status: errorStatuses[code], when: errorUses[code] }
  return catalogue as ErrorCatalogue
}

/**
 * Every machine-readable `code` the simulator puts in an Error body, with its HTTP status and when it is used, in
 * the order of `errorStatuses`. Built from the two declarations; pure, so a bundle that never reads it leaves it out.
 */
export const errorCatalogue: ErrorCatalogue = /* @__PURE__ */ buildCatalogue()
