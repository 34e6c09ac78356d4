import { ApiError } from './api-error.ts'
import type { ApiKey } from './api-keys.ts'
import { deprecationHeaders } from './deprecation.ts'
import { JsonText } from './json-text.ts'
import type { PlainRequest } from './plain-http.ts'
import { parseListPetsQuery, parseNewPet, parsePetId } from './request-parsing.ts'
import type { SimulatorState } from './simulator-state.ts'

/** What an operation's resolver gets once the caller is authenticated and within its limits. */
export interface OperationCall {
  readonly request: PlainRequest
  /** Path parameters, percent-decoded, by the names in the route's path. */
  readonly params: Readonly<Record<string, string>>
  readonly key: ApiKey
  readonly state: SimulatorState
}

/** What an operation answers: a status, a JSON body, and any headers of its own. */
export interface OperationResult {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
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
  /** Headers every response of this route carries, errors included; computed once per simulator. */
  readonly headers?: (state: SimulatorState) => Readonly<Record<string, string>>
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
    resolve: ({ request, state }) => ({ status: 200, body: state.petJson.array(state.store.list(parseListPetsQuery(new URLSearchParams(request.query)))) }),
  },
  {
    operation: 'createPet',
    method: 'POST',
    path: '/pets',
    async resolve({ request, state }) {
      const newPet = parseNewPet(await request.readBody(), request.header('content-type'), request.header('content-encoding'))
      const pet = state.store.create(newPet)
      return { status: 201, body: pet, headers: { Location: `${state.basePath}/pets/${pet.id}` } }
    },
  },
  {
    operation: 'getPet',
    method: 'GET',
    path: '/pets/{petId}',
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
  },
] as const satisfies readonly ApiRouteDefinition[]

export type OperationName = (typeof apiRoutes)[number]['operation']

/** getPet is deprecated: `Deprecation`, `Sunset` and a `Link` to its successor, GET /pets. */
function getPetHeaders(state: SimulatorState): Readonly<Record<string, string>> {
  return deprecationHeaders(state.deprecation, `${state.basePath}/pets`)
}
