import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { startPrometheus, type PrometheusServer } from '../support/prometheus-server.ts'

const adminToken = 'scrape-secret'
let server: RunningServer
let prometheus: PrometheusServer

beforeAll(async () => {
  server = await startServer({
    app: createNodeApp({ seed: 7, pets: 5, control: { adminToken }, keys: { 'demo-pro-key': 'pro', 'tiny-key': 'enterprise:1/100' } }),
    port: 0,
    host: '127.0.0.1',
    log: 'silent',
  })
  prometheus = await startPrometheus({ address: new URL(server.url).host, metricsPath: '/__sim/metrics', bearerToken: adminToken })
})
afterAll(async () => {
  await prometheus?.stop()
  await server?.close()
})

/** The query's value once Prometheus has scraped it: polled, at most 30 s (its scrape interval is 250 ms). */
async function settled(expression: string, expected: number): Promise<number | undefined> {
  const deadline = Date.now() + 30_000
  let value = await prometheus.query(expression)
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    value = await prometheus.query(expression)
  }
  return value
}

describe('a real Prometheus server scraping /__sim/metrics', () => {
  it('answers the counts of known traffic through its HTTP API, the admin token sent as configured', async () => {
    const origin = server.url.replace(/\/$/, '')
    const get = (path: string, token = 'demo-pro-key') => fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } })
    for (let index = 0; index < 7; index++) expect((await get('/v1/pets')).status).toBe(200)
    expect((await get('/v1/pets/999999')).status).toBe(404)
    for (let index = 0; index < 3; index++) expect((await get('/sandboxes/ci-job/v1/pets')).status).toBe(200)
    const tiny = [await get('/v1/pets', 'tiny-key'), await get('/v1/pets', 'tiny-key')].map((response) => response.status)
    expect(tiny).toEqual([200, 429])

    expect(await settled('petstore_sim_requests_total{sandbox="",operation="listPets",status="200"}', 8)).toBe(8)
    expect(await settled('petstore_sim_requests_total{operation="getPet",status="404"}', 1)).toBe(1)
    expect(await settled('petstore_sim_requests_total{sandbox="ci-job"}', 3)).toBe(3)
    expect(await settled('sum(petstore_sim_too_many_requests_total{code="rate_limit_exceeded"})', 1)).toBe(1)
    expect(await settled('sum(petstore_sim_request_duration_seconds_count)', 13)).toBe(13)
    expect(await settled('petstore_sim_sandboxes', 1)).toBe(1)
    // The scrape succeeded with the token: Prometheus's own view of the target.
    expect(await settled('up{job="petstore-sim"}', 1)).toBe(1)
  })
})
