import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../core/api-error.ts'
import { hasDotSegment } from '../core/path-normalisation.ts'
import type { BodyBudget } from './body-budget.ts'
import { readBody } from './incoming-request.ts'

/**
 * Builds a Fetch `Request` from a Node request, for the lanes that serve
 * through msw (`--handlers`, `--engine msw`). The body is read first, up to
 * the limit (413 past it, from {@link readBody}). A request Node could
 * parse but Fetch cannot represent is a 400 `bad_request`.
 */
export async function toFetchRequest(incoming: IncomingMessage, bodyLimit: number, budget?: BodyBudget): Promise<Request> {
  const target = incoming.url ?? ''
  if (!target.startsWith('/')) {
    throw new ApiError('bad_request', `The request target must be a path (got ${JSON.stringify(target.slice(0, 100))})`)
  }
  if (hasDotSegment(target.split('?', 1)[0]!)) throw new ApiError('bad_request', 'The path has a dot segment (. or ..): send it resolved')
  const method = incoming.method ?? 'GET'
  const body = method !== 'GET' && method !== 'HEAD' ? await readBody(incoming, bodyLimit, budget) : undefined
  try {
    // The raw name/value pairs go to Request as they are: one conversion, no intermediate Headers.
    const raw = incoming.rawHeaders
    const headers: Array<[string, string]> = []
    for (let index = 0; index < raw.length; index += 2) headers.push([raw[index]!, raw[index + 1]!])
    return new Request(originOf(incoming) + target, {
      method,
      headers,
      body: body !== undefined && body.length > 0 ? (body as Uint8Array<ArrayBuffer>) : undefined,
    })
  } catch (error) {
    throw new ApiError('bad_request', `Malformed request: ${(error as Error).message}`)
  }
}

/** Writes a Fetch `Response` to a Node response, with its `Content-Length`. */
export async function sendFetchResponse(outgoing: ServerResponse, response: Response, method: string | undefined): Promise<void> {
  const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer())
  const headers: Record<string, string | string[] | number> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  // A HEAD's answer carries the GET's Content-Length and no body.
  if (response.status !== 204 && response.status !== 304 && !(method === 'HEAD' && headers['content-length'] !== undefined)) headers['content-length'] = body?.length ?? 0
  outgoing.writeHead(response.status, headers)
  outgoing.end(method === 'HEAD' ? undefined : body)
}

/** The origin a Fetch URL is built on: the `Host` when it is a plain host name, else `localhost`, so a hostile Host cannot change the path. */
function originOf(incoming: IncomingMessage): string {
  const host = incoming.headers.host
  return `http://${host !== undefined && /^[\w.-]+(:\d+)?$|^\[[\da-fA-F:.]+\](:\d+)?$/.test(host) ? host : 'localhost'}`
}
