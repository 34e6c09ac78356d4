import type { IncomingMessage } from 'node:http'
import { ApiError } from '../core/http/api-error.ts'
import { hasDotSegment } from '../core/http/path-normalisation.ts'
import type { BodyBudget } from './body-budget.ts'
import { readBody } from './request-body.ts'
import { originForm } from './request-view.ts'

/**
 * Builds a Fetch `Request` from a Node request, for the lanes that serve
 * through msw (`--handlers`, `--engine msw`). The body is read when someone
 * reads it ({@link lazyBody}), up to the limit, or taken from `req.body` when a
 * body parser before the middleware has read it. A request Node could parse
 * but Fetch cannot represent is a 400 `bad_request`.
 */
export function toFetchRequest(
  incoming: IncomingMessage,
  bodyLimit: number,
  budget?: BodyBudget,
  beforeRead?: () => void,
  signal?: AbortSignal,
): Request {
  const target = originForm(incoming.url ?? '')
  if (!target.startsWith('/')) {
    throw new ApiError('bad_request', `The request target must be a path (got ${JSON.stringify(target.slice(0, 100))})`)
  }
  if (hasDotSegment(target.split('?', 1)[0]!)) throw new ApiError('bad_request', 'The path has a dot segment (. or ..): send it resolved')
  const method = incoming.method ?? 'GET'
  const hasBody =
    method !== 'GET' &&
    method !== 'HEAD' &&
    (incoming.headers['content-length'] !== '0' || incoming.headers['transfer-encoding'] !== undefined)
  try {
    // The raw name/value pairs go to Request as they are: one conversion, no intermediate Headers.
    const raw = incoming.rawHeaders
    const headers: Array<[string, string]> = []
    for (let index = 0; index < raw.length; index += 2) headers.push([raw[index]!, raw[index + 1]!])
    return new Request(originOf(incoming) + target, {
      method,
      headers,
      // The client's going away, for answers that wait (`/__sim/requests/wait`).
      ...(signal === undefined ? {} : { signal }),
      ...(hasBody ? { body: lazyBody(incoming, bodyLimit, budget, beforeRead), duplex: 'half' } : {}),
    } as RequestInit)
  } catch (error) {
    throw new ApiError('bad_request', `Malformed request: ${(error as Error).message}`)
  }
}

/**
 * The request body as a stream read only when someone reads it, with the
 * limit and the budget of the direct lane: so on the msw lane too, nothing
 * reads a body before the request is authenticated and within its limits, and
 * a body over the limit is the pipeline's 413 (counted, with the rate-limit
 * headers), not an answer before the API. A stream errored with an error
 * makes `request.arrayBuffer()` (and its clones') reject with that error.
 */
function lazyBody(
  incoming: IncomingMessage,
  bodyLimit: number,
  budget: BodyBudget | undefined,
  beforeRead: (() => void) | undefined,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const bytes = await readBody(incoming, bodyLimit, budget, beforeRead)
        if (bytes.byteLength > 0) controller.enqueue(bytes)
        controller.close()
      } catch (error) {
        controller.error(error)
      }
    },
  })
}

/**
 * The origin a Fetch URL is built on: the `Host` when it is a plain host name,
 * so a hostile Host cannot change the path. Anything else (no Host, `evil/`,
 * `a@b`) becomes a name that is no loopback name, so the control plane refuses
 * it as the direct lane does (it reads the raw `Host` there).
 */
function originOf(incoming: IncomingMessage): string {
  const host = incoming.headers.host
  return `http://${host !== undefined && /^[\w.-]+(:\d+)?$|^\[[\da-fA-F:.]+\](:\d+)?$/.test(host) ? host : 'unrecognised-host.invalid'}`
}
