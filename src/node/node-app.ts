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
