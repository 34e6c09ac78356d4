import { controlPath, type ControlRoute } from './control-route.ts'
import type { JsonSchema } from './control-doc.ts'

/** Where the control plane's own OpenAPI document is served, under {@link controlPath}. */
export const controlDocumentPath = '/openapi.json'

/**
 * The control plane's OpenAPI 3.1 document, made from the routes it serves: each route's `doc` (summary, query, body,
 * answers) next to its resolver, so that a route cannot be served and not described. Every operation also answers
 * the Error body for a 4xx or 5xx (the guard's refusals: 401 `admin_unauthorized`, 403 `control_forbidden` and
 * `foreign_origin`, 415 for a POST that is not JSON; and the route's own). A route whose `doc` is `partOf` another
 * (the empty sandbox name, `PUT /sandboxes/`, answered as `{id}` is) is described by that one.
 */
export function controlDocument(routes: readonly ControlRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    if (route.doc.partOf !== undefined) continue
    const path = documentPath(route.path)
    const { doc } = route
    const parameters = [
      ...(route.path.includes('{id}') ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] : []),
      ...(doc.query ?? []).map((query) => ({
        name: query.name,
        in: 'query',
        required: false,
        description: query.description,
        schema: query.schema ?? { type: 'string' },
      })),
    ]
    const responses: Record<string, unknown> = {}
    for (const [status, answer] of Object.entries(doc.responses)) {
      responses[status] = {
        description: answer.description,
        ...(answer.schema === undefined && answer.contentType === undefined
          ? {}
          : {
              content: {
                [answer.contentType ?? 'application/json']: { schema: answer.schema ?? {} },
                ...Object.fromEntries(Object.entries(answer.alternatives ?? {}).map(([type, schema]) => [type, { schema }])),
              },
            }),
      }
    }
    responses['4XX'] = errorAnswer(
      'Refused: the guard (401 admin_unauthorized, 403 control_forbidden or foreign_origin, 415), or the route (docs/error-codes.md)',
    )
    responses['5XX'] = errorAnswer('Not available now (503 with Retry-After: too many at once, or the shared store away)')
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = {
      operationId: route.name,
      summary: doc.summary,
      ...(doc.description === undefined ? {} : { description: doc.description }),
      ...(route.name === 'health' ? { security: [{}] } : {}),
      ...(parameters.length === 0 ? {} : { parameters }),
      ...(doc.body === undefined ? {} : { requestBody: { content: { 'application/json': { schema: doc.body } } } }),
      responses,
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'petstore-sim control plane',
      version: '1',
      description:
        "The simulator's control endpoints under /__sim (docs/control-api.md). Without an admin token, loopback clients only; with one, `Authorization: Bearer <token>` (PETSTORE_SIM_ADMIN_TOKEN) from anywhere. GET /__sim/health needs neither.",
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'The CLI on its default port' }],
    security: [{ adminToken: [] }, {}],
    paths,
    components: {
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token (--admin-token, PETSTORE_SIM_ADMIN_TOKEN)' },
      },
      schemas: { Error: errorSchema },
    },
  }
}

/** A route's path as the document has it: under `/__sim`, the dashboard's `/` as `/__sim` (it answers both). */
export function documentPath(routePath: string): string {
  return routePath === '/' ? controlPath : `${controlPath}${routePath}`
}

const errorSchema: JsonSchema = {
  type: 'object',
  properties: { code: { type: 'string' }, message: { type: 'string' } },
  required: ['code', 'message'],
}

function errorAnswer(description: string): unknown {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
}
