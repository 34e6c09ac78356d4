import { ApiError } from '../http/api-error.ts'
import type { operationNames } from '../model/operation-names.ts'
import type { ApiKey } from '../access/api-keys.ts'
import { deprecationHeaders } from './deprecation.ts'
import { JsonText } from '../http/json-text.ts'
import type { PlainRequest } from '../http/plain-http.ts'
import { defaultLimit, parseListPetsQuery, parseNewPet, parsePetId } from './request-parsing.ts'
import type { OperationContext } from './operation-context.ts'
import { maxPetId } from '../model/pet-types.ts'

/** What an operation's resolver gets once the caller is authenticated and within its limits. */
export interface OperationCall {
  readonly request: PlainRequest
  /** Path parameters, percent-decoded, by the names in the route's path. */
  readonly params: Readonly<Record<string, string>>
  readonly key: ApiKey
  readonly state: OperationContext
  /**
   * Throws (503 `simulator_reset`) if the simulator was reset since the request began. A resolver that changes state
   * after an `await` calls it first: a request from before a reset must not change the state after it.
   */
  readonly ensureCurrent: () => void
}

/** What a forced answer is computed from: the request, its parameters, the simulator, and the status asked for. */
export interface ForcedCall {
  readonly request: PlainRequest
  readonly params: Readonly<Record<string, string>>
  readonly state: OperationContext
  readonly status: number
}

/** An operation's own answer for a forced status: a result, the error to send, or nothing (the generic answer). */
export type ForcedAnswer = OperationResult | ApiError | undefined

/** What an operation answers: a status, a JSON body, and any headers of its own. */
export interface OperationResult {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
  /**
   * The request's body as the operation parsed and checked it (a createPet's pet): the pact recorder reads the body's
   * shape from it rather than parsing the body a second time (issue 47). Not kept past the request's turn.
   */
  readonly requestJson?: object
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** One operation of the API. */
export interface ApiRouteDefinition {
  /** The operation's name, as in the spec and the OpenAPI document; also the journal's `operation`. */
  readonly operation: string
  readonly method: HttpMethod
  /** The path under the base path, with `{name}` for a parameter, as written in the OpenAPI document. */
  readonly path: string
  readonly resolve: (call: OperationCall) => OperationResult | Promise<OperationResult>
  /** Every status the operation answers, as the OpenAPI document lists them (a test keeps the two equal): what `Prefer: code=` and fault rules may force. */
  readonly statuses: readonly number[]
  /**
   * Of `statuses`, those that are the simulator's own rather than the spec's: its answers where the spec is silent,
   * marked `x-petstore-sim` in the OpenAPI document (a test keeps the two equal). Contract coverage counts them apart.
   */
  readonly simulatorStatuses: readonly number[]
  /**
   * The operation's answer for a forced status (`Prefer: code=`, a fault
   * rule), computed without changing any state: for an error status, the
   * `ApiError` the real API would send; for its success status, the body it
   * would send. Missing: the generic answer for the status.
   */
  readonly forced?: (call: ForcedCall) => ForcedAnswer | Promise<ForcedAnswer>
  /** Deprecated in the spec: removed on the simulator's `deprecation.sunsetAt` (contract coverage lists calls to it). */
  readonly deprecated?: boolean
  /** Headers every response of this route carries, errors included; computed once per simulator. */
  readonly headers?: (state: OperationContext) => Readonly<Record<string, string>>
}

/**
 * The API, one entry per operation. Everything else is derived from this
 * table: the MSW handlers, the direct lane's routing, 405s and their
 * `Allow`, the CORS methods, the journal's operation names, and the list of
 * operations the contract tests walk. Adding an endpoint is one entry here
 * and its resolver.
 */
export const apiRoutes = [
  {
    operation: 'listPets',
    method: 'GET',
    path: '/pets',
    resolve: ({ request, state }) => ({
      status: 200,
      body: state.pageTexts.text(parseListPetsQuery(new URLSearchParams(request.query))),
    }),
    statuses: [200, 400, 401, 429],
    simulatorStatuses: [400],
    forced: ({ request, state, status }) =>
      status === 200
        ? {
            status: 200,
            body: state.petJson.array(
              state.store.list(safely(() => parseListPetsQuery(new URLSearchParams(request.query)), { limit: defaultLimit })),
            ),
          }
        : status === 400
          ? new ApiError('invalid_query_parameter', 'limit must be a whole number from 1 to 100 (forced)')
          : undefined,
  },
  {
    operation: 'createPet',
    method: 'POST',
    path: '/pets',
    // A `then`, not an async function: one promise and one microtask fewer on every createPet.
    resolve: ({ request, state, ensureCurrent }) =>
      request.readBody().then((body) => {
        const newPet = parseNewPet(body, request.header('content-type'), request.header('content-encoding'))
        // The body may have arrived after a reset (`POST /__sim/reset` while it was uploading, or a latency).
        ensureCurrent()
        // In a shared store, the store gives the id (and holds the cap): the instance's copy takes the pet from it.
        if (state.shared !== undefined) {
          return state.shared
            .createPet(newPet)
            .then((pet) => ({ status: 201, body: pet, headers: { Location: `${state.basePath}/pets/${pet.id}` } }))
        }
        if (state.store.full) throw storeFull(state.store.nextId)
        const pet = state.store.create(newPet)
        return { status: 201, body: pet, headers: { Location: `${state.basePath}/pets/${pet.id}` }, requestJson: newPet }
      }),
    statuses: [201, 400, 401, 413, 415, 429, 507],
    simulatorStatuses: [413, 415, 507],
    async forced({ request, state, status }) {
      if (status === 400) return new ApiError('invalid_body', 'Invalid pet: name: is required (forced)')
      if (status === 507) return storeFull(state.store.nextId)
      if (status !== 201) return undefined
      // The pet the request would have created, not stored: a forced answer changes nothing.
      const fallback = { name: 'Forced', categoryId: 1 }
      const newPet = await request.readBody().then(
        (body) => safely(() => parseNewPet(body, request.header('content-type'), request.header('content-encoding')), fallback),
        () => fallback,
      )
      const pet = state.store.preview(newPet)
      return { status: 201, body: pet, headers: { Location: `${state.basePath}/pets/${pet.id}` } }
    },
  },
  {
    operation: 'getPet',
    method: 'GET',
    path: '/pets/{petId}',
    deprecated: true,
    headers: getPetHeaders,
    resolve({ params, state }) {
      if (state.clock.now() >= state.deprecation.sunsetAt) {
        throw new ApiError(
          'endpoint_removed',
          `GET /pets/{petId} was removed on ${getPetHeaders(state).Sunset}; use GET /pets with the status filter`,
        )
      }
      const id = parsePetId(params.petId ?? '')
      const pet = state.store.get(id)
      if (pet === undefined) throw new ApiError('pet_not_found', `No pet has the id ${id}`)
      return { status: 200, body: new JsonText(state.petJson.one(pet)) }
    },
    statuses: [200, 400, 401, 404, 410, 429],
    simulatorStatuses: [400, 410],
    forced({ params, state, status }) {
      const id = safely(() => parsePetId(params.petId ?? ''), 1)
      if (status === 200) return { status: 200, body: state.store.get(id) ?? { id, name: 'Forced', categoryId: 1, status: 'available' } }
      if (status === 400) return new ApiError('invalid_path_parameter', `petId must be an integer (forced)`)
      if (status === 404) return new ApiError('pet_not_found', `No pet has the id ${id} (forced)`)
      if (status === 410)
        return new ApiError(
          'endpoint_removed',
          `GET /pets/{petId} was removed on ${getPetHeaders(state).Sunset}; use GET /pets with the status filter (forced)`,
        )
      return undefined
    },
  },
  {
    operation: 'listOrders',
    method: 'GET',
    path: '/store/orders',
    resolve() {
      throw new ApiError(
        'not_implemented',
        'GET /store/orders is named by the Animal Store specification but never specified, so the simulator cannot answer it',
      )
    },
    statuses: [401, 429, 501],
    simulatorStatuses: [501],
  },
] as const satisfies readonly ApiRouteDefinition[]

/** The operations of a table, in its order (generic: only a mapped type over a type parameter keeps a tuple a tuple). */
type OperationsOf<Routes> = { readonly [Index in keyof Routes]: Routes[Index] extends { readonly operation: infer Name } ? Name : never }
type RouteNames = OperationsOf<typeof apiRoutes>

/**
 * The table names each operation of `operationNames` once, in its order: a route added, renamed or dropped here
 * fails to compile until the list says the same (and the journal's `operation=` filter, which reads the list, with it).
 */
export const routesFollowOperationNames: [RouteNames] extends [typeof operationNames]
  ? [typeof operationNames] extends [RouteNames]
    ? true
    : never
  : never = true

/** The value `parse` gives, or `fallback` when it throws: forced answers answer whatever the request holds. */
function safely<T>(parse: () => T, fallback: T): T {
  try {
    return parse()
  } catch {
    return fallback
  }
}

/** getPet is deprecated: `Deprecation`, `Sunset` and a `Link` to its successor, GET /pets. */
function getPetHeaders(state: OperationContext): Readonly<Record<string, string>> {
  return deprecationHeaders(state.deprecation, `${state.basePath}/pets`)
}

/**
 * createPet past `maxPets`: every created pet is kept until a reset (some 60 bytes each), so a client in a loop,
 * or a page on another site, could grow the process without bound. 507 Insufficient Storage (RFC 4918, 11.5) says
 * what happened; it is in the OpenAPI document as petstore-sim's own (no status of the spec's fits).
 */
export function storeFull(nextId: number): ApiError {
  if (nextId > maxPetId) {
    // Ids end at 2^53 - 2 (a snapshot's `nextId` stays a safe integer); only a catalogue set up near the top gets here.
    return new ApiError(
      'store_full',
      `No id is left for a new pet: ids go up to ${maxPetId} (2^53 - 2); reset the simulator (POST /__sim/reset)`,
    )
  }
  return new ApiError(
    'store_full',
    'The simulator holds as many created pets as it may (--max-pets); reset it (POST /__sim/reset) to make room',
  )
}
