import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { bodyMatchers, pactHeaderMatchers, type PactMatcher } from '../../../src/core/contract/pact-matching-rules.ts'

// The pact's matching rules, derived here from fixtures/openapi.yaml, must be the ones the export uses (derived from
// the route table and the API's types): one contract, two readings that agree.

interface Schema {
  type?: string
  minimum?: number
  pattern?: string
  enum?: string[]
  $ref?: string
  properties?: Record<string, Schema>
  'x-petstore-sim-constraints'?: string[]
}
const document = parse(readFileSync(new URL('../../../fixtures/openapi.yaml', import.meta.url), 'utf8')) as {
  components: { headers: Record<string, { schema: Schema }>; schemas: Record<string, Schema> }
  paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, { schema: Schema }> }> }>>
}

const resolve = (schema: Schema): Schema =>
  schema.$ref === undefined
    ? schema
    : resolve(
        schema.$ref
          .split('/')
          .slice(1)
          .reduce((node: any, part) => node[part], document) as Schema,
      )

/**
 * A schema's matcher as the document reads: integers in headers as decimal patterns, patterns as given, enums as
 * alternatives. Constraints the document marks as petstore-sim's own (`x-petstore-sim-constraints`: the name's
 * pattern, the ids' range) are not the spec's, so a pact does not ask them of a provider.
 */
function fromDocument(schema: Schema, inHeader: boolean): PactMatcher | 'exact' {
  const resolved: Schema = { ...resolve(schema) }
  for (const constraint of resolved['x-petstore-sim-constraints'] ?? []) delete resolved[constraint as keyof Schema]
  if (resolved.enum !== undefined)
    return resolved.enum.length === 1 && inHeader ? 'exact' : { match: 'regex', regex: `^(${resolved.enum.join('|')})$` }
  if (resolved.pattern !== undefined) return { match: 'regex', regex: resolved.pattern }
  if (resolved.type === 'integer') {
    if (!inHeader) return { match: 'integer' }
    return { match: 'regex', regex: resolved.minimum === 1 ? '^[1-9][0-9]*$' : '^(0|[1-9][0-9]*)$' }
  }
  return { match: 'type' }
}

describe("the pact's matching rules", () => {
  it('match every response header the OpenAPI document lists as the document does', () => {
    const documented = new Map<string, PactMatcher | 'exact'>()
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        for (const response of Object.values(operation.responses)) {
          const headers =
            (response as { $ref?: string }).$ref === undefined ? response.headers : (resolve(response as Schema) as typeof response).headers
          for (const [name, header] of Object.entries(headers ?? {})) {
            const schema =
              (header as { $ref?: string }).$ref === undefined
                ? header.schema
                : (resolve(header as Schema) as unknown as { schema: Schema }).schema
            documented.set(name, fromDocument(schema, true))
          }
        }
      }
    }
    const { 'Content-Type': contentType, ...ours } = pactHeaderMatchers
    expect(ours).toEqual(Object.fromEntries(documented))
    // The spec: "JSON is used for request and response bodies (content type application/json)".
    expect(contentType).toEqual({ match: 'regex', regex: '^application/json(;.*)?$' })
  })

  it('match a Pet field by field as the document types it, and an Error with its status exact', () => {
    const pet = document.components.schemas.Pet!.properties!
    expect(bodyMatchers('Pet')).toEqual(
      Object.fromEntries(Object.entries(pet).map(([field, schema]) => [`$.${field}`, fromDocument(schema, false)])),
    )
    expect(bodyMatchers('Pets')).toEqual({
      $: { match: 'type', min: 0 },
      ...Object.fromEntries(Object.entries(pet).map(([field, schema]) => [`$[*].${field}`, fromDocument(schema, false)])),
    })
    // code and message are the provider's words; status repeats the HTTP status, so it has no matcher: equal.
    expect(Object.keys(document.components.schemas.Error!.properties!)).toEqual(['code', 'message', 'status'])
    expect(bodyMatchers('Error')).toEqual({ '$.code': { match: 'type' }, '$.message': { match: 'type' } })
  })
})
