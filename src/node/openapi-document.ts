import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import type { OpenApiDocumentSource } from '../http/document-handlers.ts'

/** Where `fixtures/openapi.yaml` is, found through the package's own exports (from the sources or the bundle alike). */
export function openApiDocumentPath(): string {
  return fileURLToPath(import.meta.resolve('petstore-sim/openapi.yaml'))
}

/**
 * Reads the OpenAPI 3.1 document of the Animal Store API that petstore-sim
 * conforms to (`fixtures/openapi.yaml`), as text and parsed.
 *
 * @example
 * import { readOpenApiDocument } from 'petstore-sim/node'
 * const { document } = readOpenApiDocument()
 */
export function readOpenApiDocument(): OpenApiDocumentSource {
  const yaml = readFileSync(openApiDocumentPath(), 'utf8')
  return { yaml, document: parse(yaml) }
}
