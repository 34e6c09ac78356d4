import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { OpenApiDocumentSource } from '../app/openapi-route.ts'

/** Where `fixtures/openapi.yaml` is, found through the package's own exports (from the sources or the bundle alike). */
export function openApiDocumentPath(): string {
  return fileURLToPath(import.meta.resolve('petstore-sim/openapi.yaml'))
}

/**
 * Reads the OpenAPI 3.1 document of the Animal Store API that petstore-sim
 * conforms to (`fixtures/openapi.yaml`), as text and parsed. The YAML parser
 * is loaded only then, which keeps it off the server's start-up path.
 *
 * @example
 * import { readOpenApiDocument } from 'petstore-sim/node'
 * const { document } = await readOpenApiDocument()
 */
export async function readOpenApiDocument(): Promise<OpenApiDocumentSource> {
  const [yaml, { parse }] = await Promise.all([readFile(openApiDocumentPath(), 'utf8'), import('yaml')])
  return { yaml, document: parse(yaml) }
}
