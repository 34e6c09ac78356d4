import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { createApp } from '../../src/app/app.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void

/** One control answer as a client saw it. */
export interface ControlExchange {
  readonly method: string
  /** The path under the server (`/__sim/…` or `/sandboxes/<name>/__sim/…`), without the query. */
  readonly path: string
  readonly status: number
  readonly contentType: string | null
  /** The body's text; undefined for a stream that was not read (`/__sim/events`). */
  readonly bodyText: string | undefined
}

interface Checker {
  readonly document: ControlDocument
  violations(exchange: ControlExchange): string[]
}

export interface ControlDocument {
  readonly openapi: string
  readonly paths: Record<
    string,
    Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >
}

let checker: Promise<Checker> | undefined

/** `GET /__sim/openapi.json` of an app with every route (sandboxes on): the document every control answer is checked against. */
export async function controlDocumentOfApp(): Promise<ControlDocument> {
  const answer = await createApp({}).fetch(new Request('http://localhost/__sim/openapi.json'), { local: true })
  if (answer.status !== 200) throw new Error(`GET /__sim/openapi.json answered ${answer.status}`)
  return (await answer.json()) as ControlDocument
}

/** What is wrong with a control answer against the control plane's OpenAPI document; empty when it conforms. */
export async function controlViolations(exchange: ControlExchange): Promise<string[]> {
  checker ??= controlDocumentOfApp().then(createChecker)
  return (await checker).violations(exchange)
}

/**
 * The document's path template a concrete control path falls under (a sandbox's plane is the default plane's), or
 * undefined. A parameter may be empty: `/__sim/sandboxes/` is the `{id}` route's refusal of the empty name.
 */
export function templateOf(document: ControlDocument, path: string): string | undefined {
  const plane = path.replace(/^\/sandboxes\/[^/]+(?=\/__sim)/, '').replace(/^\/__sim\/$/, '/__sim')
  return Object.keys(document.paths).find((template) => {
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]*')
    return new RegExp(`^${pattern}$`).test(plane)
  })
}

function createChecker(document: ControlDocument): Checker {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema(document as object, 'control.json')
  const pointer = (...segments: string[]) =>
    segments.map((segment) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')
  const errorViolations = (at: string, bodyText: string | undefined): string[] => {
    const validate = ajv.getSchema('control.json#/components/schemas/Error')!
    let body: unknown
    try {
      body = JSON.parse(bodyText ?? '')
    } catch {
      return [`${at}: the Error body is not JSON`]
    }
    return validate(body) ? [] : [`${at}: ${ajv.errorsText(validate.errors)}`]
  }
  return {
    document,
    violations({ method, path, status, contentType, bodyText }) {
      const at = `${method} ${path} ${status}`
      const template = templateOf(document, path)
      const verb = method === 'HEAD' ? 'get' : method.toLowerCase()
      const operation = template === undefined ? undefined : document.paths[template]![verb]
      if (template === undefined || operation === undefined) {
        // A path the document does not have is a 404, a method its path does not have a 405 (or the guard's refusal
        // first): the Error body, as every operation's 4XX.
        const refused = template === undefined ? status === 404 : status >= 400 && status < 500
        if (!refused) return [`${at}: no such operation in the control document`]
        return errorViolations(at, bodyText)
      }
      const key = String(status) in operation.responses ? String(status) : `${String(status)[0]}XX`
      const response = operation.responses[key]
      if (response === undefined) return [`${at}: status not in the document (${Object.keys(operation.responses).join(', ')})`]
      if (response.content === undefined)
        return bodyText === undefined || bodyText === '' ? [] : [`${at}: a body where the document has none`]
      const base = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
      const mediaType = Object.keys(response.content).find((name) => name.split(';')[0]!.trim().toLowerCase() === base)
      if (mediaType === undefined) return [`${at}: Content-Type ${contentType} is not ${Object.keys(response.content).join(' or ')}`]
      if (base !== 'application/json' || bodyText === undefined || method === 'HEAD') return []
      let body: unknown
      try {
        body = JSON.parse(bodyText)
      } catch {
        return [`${at}: the body is not JSON`]
      }
      const ref = `control.json#/${pointer('paths', template, verb, 'responses', key, 'content', mediaType, 'schema')}`
      const validate = ajv.getSchema(ref)
      if (validate === undefined) return [`${at}: no schema at ${ref}`]
      return validate(body) ? [] : [`${at}: ${ajv.errorsText(validate.errors)}`]
    },
  }
}

/**
 * `send`, with every answer under `/__sim` checked against the control document: an answer that does not conform
 * throws, failing the test that caused it (as `checkedFetch` does for the API). The answer can still be read.
 */
export function checkedControl(
  send: (input: string, init?: RequestInit) => Promise<Response>,
): (input: string, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const response = await send(input, init)
    const path = new URL(input).pathname
    const contentType = response.headers.get('content-type')
    if (!/^(\/sandboxes\/[^/]+)?\/__sim(\/|$)/.test(path) || contentType?.startsWith('text/event-stream') === true) return response
    const bodyText = await response.text()
    const method = (init?.method ?? 'GET').toUpperCase()
    const violations = await controlViolations({ method, path, status: response.status, contentType, bodyText })
    if (violations.length > 0) throw new Error(`The control answer does not conform to GET /__sim/openapi.json:\n${violations.join('\n')}`)
    const empty = response.status === 204 || response.status === 304 || method === 'HEAD'
    return new Response(empty ? null : bodyText, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}
