import { readFileSync } from 'node:fs'
import { OpenAPIBackend, SetMatchType, type Operation } from 'openapi-backend'
import { parse } from 'yaml'

/**
 * Checks responses against `fixtures/openapi.yaml` with an independent,
 * maintained validator (openapi-backend, on ajv): the status is documented
 * for the operation, the documented headers are present and typed, the body
 * matches the schema, and the content type is the documented one.
 */
export const openApiDocument = parse(readFileSync(new URL('../../fixtures/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
  components: { schemas: Record<string, unknown> }
  'x-petstore-sim': { unroutedResponses: { statuses: number[] }; faultResponses: { header: string; statuses: number[] } }
}

const backend = new OpenAPIBackend({
  definition: structuredClone(openApiDocument) as never,
  strict: true,
  quick: false,
  validate: true,
  customizeAjv: (ajv) => {
    ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) })
    return ajv
  },
})
await backend.init()

export interface ObservedResponse {
  readonly method: string
  /** The path under the API prefix, with its query, e.g. `/pets?limit=2`. */
  readonly apiPath: string
  readonly status: number
  readonly headers: Headers
  readonly bodyText: string
}

/** Every contract violation of one response, as sentences; empty when it conforms. */
export function contractViolations(observed: ObservedResponse): string[] {
  const problems: string[] = []
  const [path = '', query = ''] = observed.apiPath.split('?', 2)
  // A HEAD is its GET without a body (RFC 9110 §9.3.2): the GET's status and headers are checked, and that there is no body.
  const head = observed.method === 'HEAD'
  if (head && observed.bodyText !== '') problems.push(`a HEAD answered with a body: ${observed.bodyText.slice(0, 100)}`)
  const operation = backend.matchOperation({ method: head ? 'GET' : observed.method, path, query, headers: {} }) as Operation | undefined
  const faults = openApiDocument['x-petstore-sim'].faultResponses
  if (observed.headers.has(faults.header) && faults.statuses.includes(observed.status)) {
    // A simulated fault outside the contract, marked as the document's x-petstore-sim says: still the Error body and the rate-limit headers.
    if (!head) {
      const errorValidation = backend.validator.validateResponse(JSON.parse(observed.bodyText), 'listPets', 400)
      if (!errorValidation.valid) problems.push(`the fault's Error body does not conform: ${JSON.stringify(errorValidation.errors)}`)
    }
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      if (!/^\d+$/.test(observed.headers.get(name) ?? '')) problems.push(`header ${name} is missing or not an integer`)
    }
    return problems
  }
  const contentType = observed.headers.get('content-type')
  let body: unknown
  try {
    body = observed.bodyText === '' ? undefined : JSON.parse(observed.bodyText)
  } catch {
    problems.push(`the body is not JSON: ${observed.bodyText.slice(0, 200)}`)
  }

  if (operation === undefined) {
    const unrouted = openApiDocument['x-petstore-sim'].unroutedResponses.statuses
    if (!unrouted.includes(observed.status))
      problems.push(
        `${observed.method} ${path} matches no operation and its status ${observed.status} is not one of ${unrouted.join(', ')}`,
      )
    const errorValidation = backend.validator.validateResponse(body, 'listPets', 400)
    if (!head && !errorValidation.valid) problems.push(`the Error body does not conform: ${JSON.stringify(errorValidation.errors)}`)
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      if (!/^\d+$/.test(observed.headers.get(name) ?? '')) problems.push(`header ${name} is missing or not an integer`)
    }
    if (observed.status === 405 && !observed.headers.get('allow')) problems.push('a 405 without Allow')
    if (contentType !== 'application/json') problems.push(`content type ${contentType}, documented application/json`)
    return problems
  }

  const documented = operation.responses?.[String(observed.status)] as { content?: Record<string, unknown> } | undefined
  if (documented === undefined) {
    problems.push(`${operation.operationId} does not document status ${observed.status}`)
    return problems
  }
  const bodyValidation = backend.validator.validateResponse(body, operation as never, observed.status)
  if (!head && !bodyValidation.valid)
    problems.push(`the ${observed.status} body does not conform: ${JSON.stringify(bodyValidation.errors)}`)
  const headers: Record<string, string> = {}
  observed.headers.forEach((value, name) => {
    headers[name] = value
  })
  const headerValidation = backend.validator.validateResponseHeaders(headers, operation as never, {
    statusCode: observed.status,
    setMatchType: SetMatchType.Superset,
  })
  if (!headerValidation.valid) problems.push(`the ${observed.status} headers do not conform: ${JSON.stringify(headerValidation.errors)}`)
  const documentedTypes = Object.keys(documented.content ?? {})
  if (documentedTypes.length > 0 && (contentType === null || !documentedTypes.includes(contentType.split(';', 1)[0]!.trim()))) {
    problems.push(`content type ${contentType}, documented ${documentedTypes.join(', ')}`)
  }
  return problems
}

/** Throws, failing the test that caused it, when a response does not conform. */
export function assertConformsToContract(observed: ObservedResponse): void {
  const problems = contractViolations(observed)
  if (problems.length > 0) {
    throw new Error(`Contract violation by ${observed.method} ${observed.apiPath} -> ${observed.status}:\n- ${problems.join('\n- ')}`)
  }
}
