import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'

// Issue 37: GET / was a JSON 404 with no pointer to the dashboard. It still is an Error for API clients (the contract
// of every unknown path), now naming the API's base, the dashboard and the OpenAPI document; a browser gets a page.

const loopback = { clientAddress: '127.0.0.1' }
const navigation = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
const document = () => ({ json: '{}', yaml: '' }) as never

function root(options: Parameters<typeof createApp>[0], init: RequestInit = {}) {
  return createApp(options).fetch(new Request('http://localhost/', init), loopback)
}

describe('GET / of the server', () => {
  it('is a 404 route_not_found for an API client, naming the base path, the dashboard and the OpenAPI document', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { accept: 'application/json' },
      { accept: '*/*' },
      { accept: 'application/json, text/html' },
    ]) {
      const response = await root({ openApiDocument: document }, { headers })
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(response.headers.get('link')).toBe('</openapi.json>; rel="service-desc"; type="application/json"')
      expect(await response.json()).toEqual({
        code: 'route_not_found',
        message:
          'No route GET /: the API is under /v1 (GET /v1/pets with "Authorization: Bearer <key>"); the dashboard is /__sim/; the OpenAPI document is /openapi.json',
        status: 404,
      })
    }
  })

  it('names only what the server has', async () => {
    const response = await root({ control: false, baseUrl: '/api/v1' })
    expect(response.headers.get('link')).toBeNull()
    expect((await response.json()).message).toBe(
      'No route GET /: the API is under /api/v1 (GET /api/v1/pets with "Authorization: Bearer <key>")',
    )
  })

  it('is a small page with the same links for a browser', async () => {
    const response = await root({ openApiDocument: document }, { headers: { accept: navigation } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
    const page = await response.text()
    for (const href of ['/v1/pets', '/__sim/', '/openapi.json']) expect(page).toContain(`href="${href}"`)
  })

  it('leaves other methods and paths, and an API at the root, as they were', async () => {
    const post = await root({}, { method: 'POST', headers: { accept: navigation } })
    expect(post.status).toBe(404)
    expect((await post.json()).message).toBe('No route POST /: the API is under /v1')
    const atRoot = await root({ baseUrl: '/' }, { headers: { accept: navigation } })
    expect(atRoot.status).toBe(401)
  })
})
