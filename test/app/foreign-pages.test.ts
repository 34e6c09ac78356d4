import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'

// Issue #22, items 2 and 3 (the app and core side): defects a hostile review found, each answered as a user sees it.
// This file: pages of other sites and origins, on the control plane and the API (test/hostile-review.test.ts, split by area).

const loopback = { clientAddress: '127.0.0.1' }
const pro = { Authorization: 'Bearer demo-pro-key' }

describe('control requests from pages on other sites, without Origin', () => {
  const control = (path: string, headers: Record<string, string>) =>
    createApp({}).fetch(new Request(`http://localhost${path}`, { headers }), loopback)

  it('refuses a cross-site or same-site no-cors GET with a 403 Error body', async () => {
    for (const site of ['cross-site', 'same-site', 'Cross-Site']) {
      for (const path of ['/__sim/state', '/__sim/requests', '/__sim/health', '/__sim/events', '/__sim/']) {
        const response = await control(path, { 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors' })
        expect(response.status).toBe(403)
        expect(await response.json()).toMatchObject({ code: 'foreign_origin', status: 403 })
        expect(response.headers.get('access-control-allow-origin')).toBeNull()
      }
    }
  })

  it("serves the simulator's own pages, the user's navigation, a link to the dashboard, and tools without the header", async () => {
    expect((await control('/__sim/state', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' })).status).toBe(200)
    expect((await control('/__sim/state', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' })).status).toBe(200)
    expect((await control('/__sim/', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).status).toBe(200)
    expect((await control('/__sim/state', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).status).toBe(403)
    expect((await control('/__sim/health', {})).status).toBe(200)
  })
})

describe('pages of other origins (the default: pages of this machine only)', () => {
  const foreign = 'https://evil.example'
  const call = (app: ReturnType<typeof createApp>, origin: string, init: RequestInit = {}, path = '/v1/pets?limit=1') =>
    app.fetch(new Request(`http://localhost${path}`, { ...init, headers: { ...pro, origin, ...init.headers } }), loopback)

  it('refuses a foreign page with 403 origin_not_allowed naming the flag, no CORS grant, nothing counted', async () => {
    const app = createApp({ pets: 3 })
    const response = await call(app, foreign)
    expect(response.status).toBe(403)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const body = await response.json()
    expect(body).toMatchObject({ code: 'origin_not_allowed', status: 403 })
    expect(body.message).toContain(`--cors-origin ${foreign}`)
    const preflight = await call(app, foreign, { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST' } }, '/v1/pets')
    expect(preflight.status).toBe(403)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    const created = await call(app, foreign, { method: 'POST', body: '{"name":"Spam","categoryId":1}' }, '/v1/pets')
    expect(created.status).toBe(403)
    expect(app.simulator.store.size).toBe(3)
    // Journaled as refused (issue 26), under the key they sent, and counted nowhere.
    const journaled = app.simulator.journal.entries()
    expect(journaled.map(({ method, status, operation, plan }) => ({ method, status, operation, plan }))).toEqual([
      { method: 'GET', status: 403, operation: 'listPets', plan: 'pro' },
      { method: 'OPTIONS', status: 403, operation: 'methodNotAllowed', plan: 'pro' },
      { method: 'POST', status: 403, operation: 'createPet', plan: 'pro' },
    ])
    expect(JSON.parse(journaled[0]!.response.body!.text)).toMatchObject({ code: 'origin_not_allowed', status: 403 })
    expect(app.simulator.state().keys.find((key) => key.plan === 'pro')?.minute).toMatchObject({ used: 0 })
  })

  it('cannot get a key banned from a foreign page', async () => {
    const app = createApp({ keys: { 'tiny-key': 'enterprise:1/1000' } })
    for (let index = 0; index < 30; index++) {
      await app.fetch(new Request('http://localhost/v1/pets', { headers: { Authorization: 'Bearer tiny-key', origin: foreign } }), loopback)
    }
    const own = await app.fetch(new Request('http://localhost/v1/pets', { headers: { Authorization: 'Bearer tiny-key' } }), loopback)
    expect(own.status).toBe(200)
  })

  it('grants pages of this machine, any port, as before', async () => {
    const app = createApp({})
    for (const origin of [
      'http://localhost:5173',
      'https://localhost',
      'http://app.localhost:3000',
      'http://127.0.0.1:8080',
      'http://[::1]:4000',
    ]) {
      const response = await call(app, origin)
      expect(response.status, origin).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe(origin)
    }
    for (const origin of ['http://localhost.evil.example', 'http://127.0.0.1.evil.example', 'null', 'file://']) {
      expect((await call(app, origin)).status, origin).toBe(403)
    }
  })

  it('grants the origins named in corsOrigins, or any with *', async () => {
    const named = createApp({ corsOrigins: ['http://App.test:5173/'] })
    const allowed = await call(named, 'http://app.test:5173')
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://app.test:5173')
    expect((await call(named, 'http://app.test:5174')).status).toBe(403)
    expect((await call(named, 'http://localhost:5173')).status).toBe(200)
    const any = createApp({ corsOrigins: ['*'] })
    expect((await call(any, foreign)).headers.get('access-control-allow-origin')).toBe(foreign)
    expect(() => createApp({ corsOrigins: ['http://app.test:5173/path'] })).toThrow(/Not an origin: "http:\/\/app.test:5173\/path"/)
  })
})
