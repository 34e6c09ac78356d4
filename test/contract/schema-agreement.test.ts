import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ZodMiniType } from 'zod/mini'
import { apiRoutes } from '../../src/core/operations/api-routes.ts'
import { petSchemas } from '../../src/core/model/schemas.ts'
import { openApiDocument } from '../support/contract.ts'

const { ErrorBodySchema, NewPetSchema, PetSchema, PetStatusSchema } = petSchemas()
// The document's schemas, compiled by ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect).
const ajv = new Ajv2020({ strict: false, allErrors: false })
ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) })
ajv.addSchema({ ...openApiDocument, $id: 'openapi' })
const documentSchema = (name: string) => {
  const validate = ajv.getSchema(`openapi#/components/schemas/${name}`)
  if (validate === undefined) throw new Error(`fixtures/openapi.yaml has no schema ${name}`)
  return validate
}

// Values near every boundary the schemas draw, mixed with arbitrary JSON.
const statusValue = fc.oneof(
  fc.constantFrom('available', 'pending', 'sold'),
  fc.constantFrom('Available', 'SOLD', '', 'lost'),
  fc.string(),
  fc.constant(null),
  fc.integer(),
)
const nameValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', minLength: 250, maxLength: 260 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom('', ' ', '\t\n', '\u00a0', 'Rex', 'x'.repeat(255), 'x'.repeat(256), '🐶'.repeat(255), '🐶'.repeat(256)),
  // Control characters (C0, DEL, C1) around an otherwise good name, and the line separators that are not controls.
  fc
    .constantFrom('\u0000', '\u001f', '\u007f', '\u0080', '\u009f', '\t', '\u2028')
    .chain((control) => fc.constantFrom(`Rex${control}`, `${control}Rex`, `R${control}ex`)),
  fc.jsonValue(),
)
const integerValue = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, 1, -1, 9007199254740991, 9007199254740992, 1e21, 1.5, -0, 2 ** 63),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('1', null, true),
  fc.maxSafeInteger(),
)
const validName = fc.oneof(
  fc.string({ minLength: 1, maxLength: 255 }).filter((name) => /\S/.test(name)),
  fc.constantFrom('Rex', '🐶'.repeat(255)),
)
const validId = fc.oneof(fc.integer({ min: 1 }), fc.constantFrom(1, 9007199254740991))
const validStatus = fc.constantFrom('available', 'pending', 'sold')
const validNewPet = fc.record(
  { name: validName, categoryId: validId, status: validStatus, extra: fc.jsonValue() },
  { requiredKeys: ['name', 'categoryId'] },
)
const validPet = fc.record(
  { id: validId, name: validName, categoryId: validId, status: validStatus },
  { requiredKeys: ['id', 'name', 'categoryId'] },
)
const validError = fc.record({ code: fc.string(), message: fc.string(), status: fc.integer({ min: 400, max: 599 }) })
const newPetLike = fc.record(
  { name: nameValue, categoryId: integerValue, status: statusValue, extra: fc.jsonValue() },
  { requiredKeys: [] },
)
const petLike = fc.record({ id: integerValue, name: nameValue, categoryId: integerValue, status: statusValue }, { requiredKeys: [] })
const errorLike = fc.record(
  {
    code: fc.oneof(fc.string(), fc.jsonValue()),
    message: fc.oneof(fc.string(), fc.jsonValue()),
    status: fc.oneof(fc.integer({ min: 300, max: 700 }), integerValue),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
)

function agreeOn(name: string, zodSchema: ZodMiniType, samples: fc.Arbitrary<unknown>) {
  const validate = documentSchema(name)
  const verdicts = { accepted: 0, rejected: 0 }
  fc.assert(
    fc.property(samples, (sample) => {
      const zodAccepts = zodSchema.safeParse(sample).success
      const documentAccepts = validate(sample) as boolean
      verdicts[zodAccepts ? 'accepted' : 'rejected']++
      expect({ sample, documentAccepts }).toEqual({ sample, documentAccepts: zodAccepts })
    }),
    { numRuns: 2000, seed: 20301205 },
  )
  // The samples reached both sides of the schema, or the agreement proves little.
  expect(verdicts.accepted).toBeGreaterThan(50)
  expect(verdicts.rejected).toBeGreaterThan(50)
}

describe('the zod schemas and fixtures/openapi.yaml agree', () => {
  it('on PetStatus', () => agreeOn('PetStatus', PetStatusSchema, fc.oneof(statusValue, fc.constantFrom('available', 'pending', 'sold'))))
  it('on NewPet', () => agreeOn('NewPet', NewPetSchema, fc.oneof(validNewPet, newPetLike, fc.jsonValue())))
  it('on Pet', () => agreeOn('Pet', PetSchema, fc.oneof(validPet, petLike, fc.jsonValue())))
  it('on Error', () => agreeOn('Error', ErrorBodySchema, fc.oneof(validError, errorLike, fc.jsonValue())))
})

describe('fixtures/openapi.yaml', () => {
  const operations = Object.values(openApiDocument.paths).flatMap((item) => Object.values(item)) as Array<{
    operationId: string
    deprecated?: boolean
    responses: Record<string, unknown>
  }>

  it('is OpenAPI 3.1 with every operation of the spec, getPet deprecated', () => {
    expect((openApiDocument as { openapi?: string }).openapi).toBe('3.1.0')
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(['createPet', 'getPet', 'listOrders', 'listPets'])
    expect(operations.find((operation) => operation.operationId === 'getPet')?.deprecated).toBe(true)
  })

  it('has exactly the operations of the route table, at the same method and path', () => {
    const documented = Object.entries(openApiDocument.paths).flatMap(([path, item]) =>
      Object.entries(item as unknown as Record<string, { operationId: string }>).map(
        ([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`,
      ),
    )
    expect(documented.sort()).toEqual(apiRoutes.map((route) => `${route.method} ${route.path} ${route.operation}`).sort())
  })

  it.each([
    ['listPets', ['200', '400', '401', '429']],
    ['createPet', ['201', '400', '401', '413', '415', '429', '507']],
    ['getPet', ['200', '400', '401', '404', '410', '429']],
    ['listOrders', ['401', '429', '501']],
  ])('documents every status %s answers', (operationId, statuses) => {
    const operation = operations.find((candidate) => candidate.operationId === operationId)!
    expect(Object.keys(operation.responses).sort()).toEqual(statuses)
  })

  it.each([
    ['listPets', [400]],
    ['createPet', [413, 415, 507]],
    ['getPet', [400, 410]],
    ['listOrders', [501]],
  ])("marks the simulator's own answers of %s x-petstore-sim, as the route table's simulatorStatuses say", (operationId, own) => {
    // Issue #31, item 5: contract coverage tells the spec's answers from the simulator's by the route table; the document
    // marks them, on the response or on the shared response it refers to.
    const responses = operations.find((candidate) => candidate.operationId === operationId)!.responses as Record<
      string,
      { $ref?: string; 'x-petstore-sim'?: boolean }
    >
    const shared = (openApiDocument as unknown as { components: { responses: Record<string, { 'x-petstore-sim'?: boolean }> } }).components
      .responses
    const marked = Object.entries(responses)
      .filter(
        ([, response]) => (response.$ref === undefined ? response : shared[response.$ref.split('/').at(-1)!]!)['x-petstore-sim'] === true,
      )
      .map(([status]) => Number(status))
    expect(marked).toEqual(own)
    expect(apiRoutes.find((route) => route.operation === operationId)!.simulatorStatuses).toEqual(own)
  })
})
