import { createRequire } from 'node:module'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'

const require = createRequire(import.meta.url)
const harSchemas = require('har-schema') as Record<string, { $id: string }>
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void

/**
 * Validates a HAR against the HAR 1.2 JSON Schema of npm `har-schema` (the
 * one `har-validator` uses), draft-06, with its formats. Returns ajv's
 * errors, or an empty list.
 */
export function harErrors(har: unknown): unknown[] {
  // The schemas carry keywords of their own (`optional`, `min`): not strict.
  const ajv = new Ajv({ strict: false, allErrors: true })
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'))
  addFormats(ajv)
  for (const schema of Object.values(harSchemas)) ajv.addSchema(schema)
  const validate = ajv.getSchema('har.json#')!
  return validate(har) ? [] : (validate.errors ?? [])
}
