import { afterEach, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import type { AppOptions } from '../../src/app/app.ts'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(options: AppOptions = {}): Promise<string> {
  const server = await startServer({ app: createNodeApp({ seed: 7, pets: 5, ...options }), port: 0, host: '127.0.0.1', log: 'silent' })
  servers.push(server)
  return server.url.replace(/\/$/, '')
}

const key = (token: string) => ({ authorization: `Bearer ${token}` })

/** The samples of one scrape, by their series (`name{labels}`), as Prometheus would store them. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    samples.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return samples
}

async function scrape(origin: string, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  const response = await fetch(`${origin}/__sim/metrics`, { headers })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  return parseExposition(await response.text())
}

describe('GET /__sim/metrics', () => {
  it('counts requests by sandbox, operation and status, 429s and bans by plan, faults, durations and the journal', async () => {
    const origin = await start({ keys: { 'demo-pro-key': 'pro', 'tiny-key': 'enterprise:2/100' }, ban: { after: 2, durationMs: 60_000 } })
    for (let index = 0; index < 3; index++) expect((await fetch(`${origin}/v1/pets`, { headers: key('demo-pro-key') })).status).toBe(200)
    expect((await fetch(`${origin}/v1/pets/999999`, { headers: key('demo-pro-key') })).status).toBe(404)
    // 2 allowed, 2 limited, then banned.
    const tiny = []
    for (let index = 0; index < 6; index++) tiny.push((await fetch(`${origin}/v1/pets`, { headers: key('tiny-key') })).status)
    expect(tiny).toEqual([200, 200, 429, 429, 429, 429])
    const rule = await fetch(`${origin}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'getPet', status: 503, times: 1 }),
    })
    const [ruleId] = ((await rule.json()) as { ids: string[] }).ids
    expect((await fetch(`${origin}/v1/pets/1`, { headers: key('demo-pro-key') })).status).toBe(503)
    expect((await fetch(`${origin}/sandboxes/red/v1/pets`, { headers: key('demo-pro-key') })).status).toBe(200)

    const samples = await scrape(origin)
    expect(samples.get('petstore_sim_requests_total{sandbox="",operation="listPets",status="200"}')).toBe(5)
    expect(samples.get('petstore_sim_requests_total{sandbox="",operation="listPets",status="429"}')).toBe(4)
    expect(samples.get('petstore_sim_requests_total{sandbox="",operation="getPet",status="404"}')).toBe(1)
    expect(samples.get('petstore_sim_requests_total{sandbox="",operation="getPet",status="503"}')).toBe(1)
    expect(samples.get('petstore_sim_requests_total{sandbox="red",operation="listPets",status="200"}')).toBe(1)
    expect(samples.get('petstore_sim_too_many_requests_total{sandbox="",plan="enterprise:2/100",code="rate_limit_exceeded"}')).toBe(2)
    expect(samples.get('petstore_sim_too_many_requests_total{sandbox="",plan="enterprise:2/100",code="api_key_banned"}')).toBe(2)
    expect(samples.get(`petstore_sim_faults_fired_total{sandbox="",rule="${ruleId}"}`)).toBe(1)
    expect(samples.get('petstore_sim_request_duration_seconds_count{sandbox="",operation="listPets"}')).toBe(9)
    expect(samples.get('petstore_sim_request_duration_seconds_bucket{sandbox="",operation="listPets",le="+Inf"}')).toBe(9)
    expect(samples.get('petstore_sim_request_duration_seconds_count{sandbox="red",operation="listPets"}')).toBe(1)
    expect(samples.get('petstore_sim_journal_entries{sandbox=""}')).toBe(11)
    expect(samples.get('petstore_sim_journal_entries{sandbox="red"}')).toBe(1)
    expect(samples.get('petstore_sim_journal_evictions_total{sandbox=""}')).toBe(0)
    expect(samples.get('petstore_sim_sandboxes')).toBe(1)
    expect(samples.get('petstore_sim_sandboxes_max')).toBe(50)
    // The scrape itself is a control request: not counted as the API's.
    expect((await scrape(origin)).get('petstore_sim_requests_total{sandbox="",operation="listPets",status="200"}')).toBe(5)
  })

  it('counts the journal evictions and keeps counting past a reset', async () => {
    const origin = await start({ journalSize: 2 })
    for (let index = 0; index < 5; index++) await fetch(`${origin}/v1/pets`, { headers: key('demo-pro-key') })
    let samples = await scrape(origin)
    expect(samples.get('petstore_sim_journal_entries{sandbox=""}')).toBe(2)
    expect(samples.get('petstore_sim_journal_evictions_total{sandbox=""}')).toBe(3)
    await fetch(`${origin}/__sim/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } })
    await fetch(`${origin}/v1/pets`, { headers: key('demo-pro-key') })
    samples = await scrape(origin)
    // Counters are the process's, as Prometheus expects: a reset of the simulated state does not take them back.
    expect(samples.get('petstore_sim_requests_total{sandbox="",operation="listPets",status="200"}')).toBe(6)
  })

  it('is guarded as every control route: the admin token when one is set', async () => {
    const origin = await start({ control: { adminToken: 'metrics-secret' } })
    const refused = await fetch(`${origin}/__sim/metrics`)
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as { code: string }).code).toBe('admin_unauthorized')
    expect((await scrape(origin, key('metrics-secret'))).get('petstore_sim_sandboxes')).toBe(0)
  })
})
