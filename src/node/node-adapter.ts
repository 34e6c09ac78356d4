import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../core/api-error.ts'
import { bodyBytesOf } from '../http/message-annotations.ts'

/** The default request body limit: 1 MiB. */
export const defaultBodyLimit = 1024 * 1024

/**
 * Builds a Fetch `Request` from a Node request. The body is read up to
 * `bodyLimit` bytes, counted while streaming (a lying or absent
 * `Content-Length` does not get past it): past the limit, a 413 `ApiError`.
 * A request Node could parse but Fetch cannot represent is a 400 `bad_request`.
 */
export async function toFetchRequest(incoming: IncomingMessage, origin: string, bodyLimit: number): Promise<Request> {
  const target = incoming.url ?? ''
  if (!target.startsWith('/')) {
    throw new ApiError('bad_request', `The request target must be a path (got ${JSON.stringify(target.slice(0, 100))})`)
  }
  const method = incoming.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  const body = hasBody ? await readBody(incoming, bodyLimit) : undefined
  try {
    // The raw name/value pairs go to Request as they are: one conversion, no intermediate Headers.
    const raw = incoming.rawHeaders
    const headers: Array<[string, string]> = []
    for (let index = 0; index < raw.length; index += 2) headers.push([raw[index]!, raw[index + 1]!])
    return new Request(origin + target, { method, headers, body: body !== undefined && body.length > 0 ? (body as Uint8Array<ArrayBuffer>) : undefined })
  } catch (error) {
    throw new ApiError('bad_request', `Malformed request: ${(error as Error).message}`)
  }
}

function readBody(incoming: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(incoming.headers['content-length'])
  if (declared > limit) return Promise.reject(tooLarge(limit))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        incoming.off('data', onData)
        incoming.resume()
        reject(tooLarge(limit))
        return
      }
      chunks.push(chunk)
    }
    incoming.on('data', onData)
    incoming.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)))
    incoming.once('error', (error) => reject(new ApiError('bad_request', `The request body could not be read: ${error.message}`)))
  })
}

function tooLarge(limit: number): ApiError {
  // The rest of an oversized body is not read: the connection cannot be reused.
  return new ApiError('payload_too_large', `The request body is over the limit of ${limit} bytes`, { Connection: 'close' })
}

/** Writes a Fetch `Response` to a Node response, with its `Content-Length`. */
export async function sendFetchResponse(outgoing: ServerResponse, response: Response, method: string | undefined): Promise<void> {
  const bytes = bodyBytesOf(response)
  const body =
    bytes !== undefined
      ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : response.body === null
        ? undefined
        : Buffer.from(await response.arrayBuffer())
  const headers: Record<string, string | string[] | number> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  if (response.status !== 204 && response.status !== 304) headers['content-length'] = body?.length ?? 0
  outgoing.writeHead(response.status, headers)
  outgoing.end(method === 'HEAD' ? undefined : body)
}
