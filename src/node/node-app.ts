import { createApp as createPortableApp, type App, type AppOptions } from '../app/app.ts'
import { readOpenApiDocument } from './openapi-document.ts'

/**
 * The app for Node: the portable app (`createApp` from `petstore-sim`) with
 * the OpenAPI document read from `fixtures/openapi.yaml` (served at
 * `/openapi.json` and `/openapi.yaml`).
 *
 * @example
 * import { createNodeApp, startServer } from 'petstore-sim/node'
 * const running = await startServer({ app: createNodeApp({ seed: 7 }), port: 0 })
 */
export function createNodeApp(options: AppOptions = {}): App {
  return createPortableApp({ openApiDocument: readOpenApiDocument, ...options })
}

/**
 * The name {@link createNodeApp} had in 0.x, kept for the code written
 * against it. It is the same function.
 *
 * @deprecated Use {@link createNodeApp}: `createApp` from `petstore-sim` is a
 * different function (the app without the OpenAPI document from disk), and
 * one name for two functions made imports ambiguous.
 * @alias (for knip: a duplicate export on purpose)
 */
export const createApp: (options?: AppOptions) => App = createNodeApp
