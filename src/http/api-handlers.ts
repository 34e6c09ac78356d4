import { http, type HttpHandler } from 'msw'
import { ApiError } from '../core/api-error.ts'
import { deprecationHeaders } from '../core/deprecation.ts'
import { parseListPetsQuery, parseNewPet, parsePetId } from '../core/request-parsing.ts'
import type { ApiContext } from './api-context.ts'
import { apiRoute, type OperationResolver } from './api-route.ts'

/**
 * The MSW handlers of the Animal Store API, in matching order: the three
 * operations, GET /store/orders (501), 405 for other methods on known paths,
 * and 404 for any other path under the API prefix.
 */
export function createApiHandlers(context: ApiContext): HttpHandler[] {
  const url = (path: string) => `${context.urlPrefix}${path}`
  const route = (operation: string, resolve: OperationResolver, headers?: Record<string, string>) =>
    apiRoute(context, operation, resolve, headers)
  const getPetHeaders = deprecationHeaders(context.deprecation, `${context.basePath}/pets`)

  return [
    http.get(
      url('/pets'),
      route('listPets', ({ url }) => {
        const query = parseListPetsQuery(url.searchParams)
        return { status: 200, body: context.store.list(query) }
      }),
    ),
    http.post(
      url('/pets'),
      route('createPet', async ({ request }) => {
        const newPet = parseNewPet(await request.text(), request.headers.get('content-type'))
        const pet = context.store.create(newPet)
        return { status: 201, body: pet, headers: { Location: `${context.basePath}/pets/${pet.id}` } }
      }),
    ),
    http.get(
      url('/pets/:petId'),
      route(
        'getPet',
        ({ params }) => {
          if (context.clock.now() >= context.deprecation.sunsetAt) {
            throw new ApiError(
              'endpoint_removed',
              `GET /pets/{petId} was removed on ${getPetHeaders.Sunset}; use GET /pets with the status filter`,
            )
          }
          const id = parsePetId(String(params.petId))
          const pet = context.store.get(id)
          if (pet === undefined) throw new ApiError('pet_not_found', `No pet has the id ${id}`)
          return { status: 200, body: pet }
        },
        getPetHeaders,
      ),
    ),
    http.get(
      url('/store/orders'),
      route('listOrders', () => {
        throw new ApiError(
          'not_implemented',
          'GET /store/orders is named by the Animal Store specification but never specified, so the simulator cannot answer it',
        )
      }),
    ),
    http.all(url('/pets'), route('methodNotAllowed', methodNotAllowed(['GET', 'POST']))),
    http.all(url('/pets/:petId'), route('methodNotAllowed', methodNotAllowed(['GET']))),
    http.all(url('/store/orders'), route('methodNotAllowed', methodNotAllowed(['GET']))),
    http.all(url(''), route('routeNotFound', routeNotFound)),
    http.all(url('/*'), route('routeNotFound', routeNotFound)),
  ]
}

function methodNotAllowed(allowed: readonly string[]): OperationResolver {
  const allow = allowed.join(', ')
  return ({ request }) => {
    throw new ApiError('method_not_allowed', `${request.method} is not supported here; use ${allow}`, { Allow: allow })
  }
}

const routeNotFound: OperationResolver = ({ request, url }) => {
  throw new ApiError('route_not_found', `No route ${request.method} ${url.pathname}`)
}
