// zod's JSON Schema export, for the test that writes the shipped schema; the CLI itself never runs it.
import * as z from 'zod/mini'
import type { Command, Option } from 'commander'
import { scenarioSchema } from '../core/state/scenario-schema.ts'
import { configurableOptions } from './config-file.ts'

/** Where the package ships the JSON Schema of the config file (`"$schema"` in the file points editors to it). */
export const configSchemaPath = 'fixtures/petstore-sim.config.schema.json'

/**
 * The JSON Schema of `petstore-sim.config.json`, made from the flags
 * themselves (one key per flag, its help as the description) and the
 * scenario schema, so that it cannot drift from them: a test compares it
 * with the shipped file.
 */
export function configJsonSchema(program: Command): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    $schema: { type: 'string', description: 'This schema, for editors' },
  }
  for (const option of configurableOptions(program)) properties[option.attributeName()] = optionSchema(option)
  properties.scenarios = {
    type: 'object',
    description: 'Your own scenarios, by name (letters, digits, ".", "_", "-"); one named like a built-in replaces it',
    propertyNames: { pattern: '^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$' },
    additionalProperties: withoutDialect(z.toJSONSchema(scenarioSchema(), { unrepresentable: 'any' })),
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'petstore-sim config file',
    description: 'Every flag of petstore-sim as a camelCase key. Flags and PETSTORE_SIM_* variables win over the file.',
    type: 'object',
    additionalProperties: false,
    properties,
  }
}

function optionSchema(option: Option): Record<string, unknown> {
  const description = option.description
  if (option.negate || option.isBoolean()) return { type: 'boolean', description }
  if (option.argChoices !== undefined) return { enum: option.argChoices, description }
  const scalar = typeof option.defaultValue === 'number' ? { type: ['integer', 'string'] } : { type: ['string', 'number'] }
  if (Array.isArray(option.defaultValue)) return { description, anyOf: [scalar, { type: 'array', items: scalar }] }
  const name = option.attributeName()
  // Data inline instead of a file's path: keys an object, faults and fixtures arrays; latency also { min, max }.
  if (name === 'keys') return { description, anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }] }
  if (name === 'providerStates') return { description, anyOf: [{ type: 'string' }, { type: 'object' }] }
  if (name === 'faults' || name === 'fixtures') return { description, anyOf: [{ type: 'string' }, { type: 'array' }] }
  if (name === 'latency')
    return { description, anyOf: [scalar, { type: 'object', properties: { min: { type: 'integer' }, max: { type: 'integer' } } }] }
  return { ...scalar, description }
}

function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema
  return rest
}
