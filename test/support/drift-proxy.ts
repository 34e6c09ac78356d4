import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * How a mutated copy of the API differs from the simulator behind it: the
 * drifts of a real API that `petstore-sim verify` must catch.
 */
export const drifts = {
  /** None: the proxy passes everything through. */
  none: {},
  'no-reset-header': { response: (answer) => void delete answer.headers['x-ratelimit-reset'] },
  '403-for-401': {
    response: (answer) => {
      if (answer.status === 401) answer.status = 403
    },
  },
  'error-without-status': {
    response: (answer) => {
      if (answer.status < 400) return
      const body = JSON.parse(answer.body) as Record<string, unknown>
      delete body.status
      answer.body = JSON.stringify(body)
    },
  },
  'pets-as-text': {
    response: (answer) => {
      if (answer.status === 200) answer.headers['content-type'] = 'text/plain'
    },
  },
  /** getPet answered without a key: the proxy lends the request its own. */
  'get-pet-without-auth': {
    request: (url, headers, key) => {
      if (/^\/v1\/pets\/\d+$/.test(url.pathname) && headers.authorization === undefined) headers.authorization = `Bearer ${key}`
    },
  },
  'limit-ignored': {
    request: (url) => {
      if (url.searchParams.has('limit')) url.searchParams.set('limit', '100')
    },
  },
  'no-deprecation': { response: (answer) => void delete answer.headers.deprecation },
  /** An older draft's form, `Deprecation: true`: the spec does not say which form, so only an advisory check fails. */
  'deprecation-as-true': {
    response: (answer) => {
      if ('deprecation' in answer.headers) answer.headers.deprecation = 'true'
    },
  },
  'status-filter-ignored': { request: (url) => url.searchParams.delete('status') },
  /** Issue 29: a status filter that drops every other matching pet (what it lists still matches). */
  'status-filter-drops': {
    response: (answer, url) => {
      if (answer.status !== 200 || !url.searchParams.has('status') || !/\/pets$/.test(url.pathname)) return
      answer.body = JSON.stringify((JSON.parse(answer.body) as unknown[]).filter((_pet, index) => index % 2 === 0))
    },
  },
  /** Issue 29: `limit` honoured alone, dropped when `status` comes with it. */
  'limit-ignored-with-status': {
    request: (url) => {
      if (url.searchParams.has('status')) url.searchParams.delete('limit')
    },
  },
  /** Issue 29: error responses in another JSON media type than the spec's application/json. */
  'error-media-type': {
    response: (answer) => {
      if ([400, 401, 404].includes(answer.status)) answer.headers['content-type'] = 'application/problem+json'
    },
  },
  /** Issue 29: a listing that is always empty; everything else as the simulator answers. */
  'always-empty': {
    response: (answer, url) => {
      if (answer.status === 200 && /\/pets$/.test(url.pathname)) answer.body = '[]'
    },
  },
  /** getPet announcing a removal date other than the spec's 5 December 2030. */
  'sunset-moved': {
    response: (answer) => {
      if ('sunset' in answer.headers) answer.headers.sunset = 'Fri, 05 Dec 2031 00:00:00 GMT'
    },
  },
} satisfies Record<string, Drift>

export type DriftName = keyof typeof drifts

interface Drift {
  readonly request?: (url: URL, headers: Record<string, string>, key: string) => void
  /** `url` is the request as forwarded. */
  readonly response?: (answer: { status: number; headers: Record<string, string>; body: string }, url: URL) => void
}

/**
 * A proxy on 127.0.0.1, port 0, in front of `upstreamOrigin`, that applies
 * the drift in force to what it forwards and answers; `key` is a key of the
 * upstream, for drifts that let requests through without one.
 */
export async function startDriftProxy(upstreamOrigin: string, key: string) {
  let drift: Drift = drifts.none
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', upstreamOrigin)
    const headers = forwardedHeaders(request)
    drift.request?.(url, headers, key)
    const upstream = await fetch(url, {
      method: request.method,
      headers,
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request),
    })
    const answer = {
      status: upstream.status,
      headers: Object.fromEntries(
        [...upstream.headers].filter(([name]) => !['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)),
      ),
      body: await upstream.text(),
    }
    drift.response?.(answer, url)
    response.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) })
    response.end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    apiUrl: `http://127.0.0.1:${port}/v1`,
    use(name: DriftName) {
      drift = drifts[name]
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function forwardedHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const name of ['authorization', 'content-type', 'accept']) {
    const value = request.headers[name]
    if (typeof value === 'string') headers[name] = value
  }
  return headers
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString()
}
