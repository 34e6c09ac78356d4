import { expect } from 'vitest'
import type { ApiTarget } from '../support/api-target.ts'
import { checkedFetch } from '../support/checked-fetch.ts'

export interface CallOptions {
  /** API key sent as `Authorization: Bearer <key>`; `null` sends no header. */
  key?: string | null
  headers?: Record<string, string>
  /** Sent as is when a string, else as JSON with `Content-Type: application/json`. */
  body?: unknown
}

export interface ApiResponse {
  readonly status: number
  readonly headers: Headers
  /** The body parsed as JSON (or the raw text when it is not JSON). */
  readonly body: any
}

export function createClient(target: () => ApiTarget, defaultKey: string) {
  return async function call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers }
    const key = options.key === undefined ? defaultKey : options.key
    if (key !== null) headers.authorization ??= `Bearer ${key}`
    let body: string | undefined
    if (typeof options.body === 'string') {
      body = options.body
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    // Every response is checked against fixtures/openapi.yaml on the way.
    const apiUrl = target().apiUrl
    const response = await checkedFetch(`${apiUrl}${path}`, { method, headers, body }, new URL(apiUrl).pathname, target().fetch)
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // Not JSON: the raw text is kept so the assertion shows it.
    }
    return { status: response.status, headers: response.headers, body: parsed }
  }
}

/** Asserts the spec's Error body: exactly code, message and status, as JSON. */
export function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code })
  expect(Object.keys(response.body).sort()).toEqual(['code', 'message', 'status'])
  expect(response.body.status).toBe(status)
  expect(typeof response.body.message).toBe('string')
  expect(response.body.message.length).toBeGreaterThan(0)
  expect(response.headers.get('content-type')).toBe('application/json')
}

/** Asserts the three rate-limit headers are present and numeric. */
export function rateLimitHeaders(response: ApiResponse): { limit: number; remaining: number; reset: number } {
  const read = (name: string) => {
    const value = response.headers.get(name)
    expect(value, `${name} header`).toMatch(/^\d+$/)
    return Number(value)
  }
  return { limit: read('x-ratelimit-limit'), remaining: read('x-ratelimit-remaining'), reset: read('x-ratelimit-reset') }
}
