import { assertConformsToContract } from './contract.ts'

/**
 * `fetch`, plus a contract check of every API response: a response to a
 * request under `basePath` that does not conform to `fixtures/openapi.yaml`
 * throws, failing the test that caused it. The returned response can still
 * be read.
 */
export async function checkedFetch(
  input: string | URL,
  init: RequestInit = {},
  basePath = '/v1',
  send: (input: string, init?: RequestInit) => Promise<Response> = fetch,
): Promise<Response> {
  const response = await send(String(input), init)
  const url = new URL(input)
  const method = (init.method ?? 'GET').toUpperCase()
  const underApi = url.pathname === basePath || url.pathname.startsWith(`${basePath}/`)
  if (!underApi || method === 'OPTIONS') return response
  const bodyText = await response.text()
  assertConformsToContract({
    method,
    apiPath: url.pathname.slice(basePath.length) + url.search,
    status: response.status,
    headers: response.headers,
    bodyText,
  })
  return new Response(bodyText, { status: response.status, statusText: response.statusText, headers: response.headers })
}
