import { afterEach, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { checkedFetch } from '../support/checked-fetch.ts'

// GET /__sim/clients over real HTTP: the same report as in-process, as JSON and as JUnit XML, per sandbox, with an
// ignore list of rules. Every API answer of the traffic is contract-checked against the spec (checkedFetch).

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start() {
  const app = createNodeApp({ pets: 5, keys: { 'k-limited': 'enterprise:3/1000', 'k-pro': 'pro' } })
  app.simulator.clock.set('2030-06-15T10:00:00Z')
  app.simulator.clock.freeze()
  const server = await startServer({ app, port: 0, host: '127.0.0.1', log: 'silent' })
  servers.push(server)
  return { app, origin: server.url.replace(/\/$/, '') }
}

const api = (origin: string, prefix: string, path: string, key: string) =>
  checkedFetch(`${origin}${prefix}/v1${path}`, { headers: { authorization: `Bearer ${key}` } }, `${prefix}/v1`)

/** Five requests of an enterprise:3/1000 key on a frozen clock: the 4th is a 429, the 5th an immediate retry. */
async function impatient(origin: string, prefix = '') {
  for (let index = 0; index < 5; index++) await api(origin, prefix, '/pets?limit=1', 'k-limited')
  await api(origin, prefix, '/pets?limit=500', 'k-pro')
}

describe('GET /__sim/clients', () => {
  it('answers the in-process report as JSON', async () => {
    const { app, origin } = await start()
    await impatient(origin)
    const response = await fetch(`${origin}/__sim/clients`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const report = await response.json()
    expect(report).toEqual(JSON.parse(JSON.stringify(app.simulator.clientReport())))
    expect(report.verdict).toBe('fail')
    expect(report.callers.map((grade: { findings: { rule: string }[] }) => grade.findings.map((finding) => finding.rule))).toEqual([
      ['retry-after-ignored'],
      ['invalid-request'],
    ])
    const ignored = await (await fetch(`${origin}/__sim/clients?ignore=retry-after-ignored,invalid-request`)).json()
    expect(ignored.verdict).toBe('pass')
    // The journal's filters name the requests to leave out: of the rules given, or of every rule.
    const byFilter = await (await fetch(`${origin}/__sim/clients?query.limit=500`)).json()
    expect(byFilter).toEqual(JSON.parse(JSON.stringify(app.simulator.clientReport({ ignore: [{ filter: { query: { limit: '500' } } }] }))))
    expect(byFilter.callers[1].findings).toEqual([])
    const otherRule = await (await fetch(`${origin}/__sim/clients?ignore=banned&query.limit=500`)).json()
    expect(otherRule.callers[1].findings.map((finding: { rule: string }) => finding.rule)).toEqual(['invalid-request'])
  })

  it('answers JUnit XML for ?format=junit and for Accept: application/xml', async () => {
    const { origin } = await start()
    await impatient(origin)
    for (const response of [
      await fetch(`${origin}/__sim/clients?format=junit`),
      await fetch(`${origin}/__sim/clients`, { headers: { accept: 'application/xml' } }),
    ]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8')
      const xml = await response.text()
      expect(xml).toMatch(
        /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="petstore-sim client report" tests="2" failures="2">/,
      )
      expect(xml).toMatch(
        /<testcase classname="clients" name="key#[0-9a-f]+ \(enterprise:3\/1000\)">\n {6}<failure type="client-rules" message="retry-after-ignored">/,
      )
      expect(xml).not.toContain('k-limited')
    }
  })

  it('refuses an unknown format, rule or parameter with a 400 naming it', async () => {
    const { origin } = await start()
    for (const [query, words] of [
      ['format=csv', /format must be json or junit/],
      ['ignore=nope', /Unknown client rule "nope"/],
      ['verbose=1', /Unknown filter verbose: the journal filters by .*, and takes format, ignore/],
      ['ignore=banned&ignore=no-backoff', /ignore is given more than once/],
    ] as const) {
      const response = await fetch(`${origin}/__sim/clients?${query}`)
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body).toMatchObject({ code: 'invalid_query_parameter', status: 400 })
      expect(body.message).toMatch(words)
    }
  })

  it('grades a sandbox apart from the default world', async () => {
    const { origin } = await start()
    await impatient(origin, '/sandboxes/team-a')
    await api(origin, '', '/pets?limit=1', 'k-pro')
    const sandbox = await (await fetch(`${origin}/sandboxes/team-a/__sim/clients`)).json()
    const world = await (await fetch(`${origin}/__sim/clients`)).json()
    expect(sandbox.verdict).toBe('fail')
    expect(sandbox.callers).toHaveLength(2)
    expect(world).toMatchObject({ verdict: 'pass', violations: 0 })
    expect(world.callers).toHaveLength(1)
  })
})
