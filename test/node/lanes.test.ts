import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { startCli } from '../support/cli-process.ts'
import { importGraph } from '../support/import-graph.ts'
import { rawExchange, statusAndCode } from '../support/raw-http.ts'

type Cli = Awaited<ReturnType<typeof startCli>>

// What the Fetch lanes see is what `new URL()` makes of a target; the direct
// Node lane gets the raw target. Every lane must answer alike.
describe('every lane answers odd paths and headers alike', () => {
  const clis: Record<string, Cli> = {}
  const app = createApp({ keys: { 'lane-key': 'pro' } })
  beforeAll(async () => {
    clis.direct = await startCli(['--port', '0', '--log', 'silent', '--key', 'lane-key=pro'])
    clis.msw = await startCli(['--port', '0', '--log', 'silent', '--key', 'lane-key=pro', '--engine', 'msw'])
  })
  afterAll(async () => {
    await Promise.all(Object.values(clis).map((cli) => cli.stop()))
  })

  const rawAnswer = async (cli: Cli, target: string, headerLines: readonly string[]) => {
    const port = Number(new URL(cli.origin).port)
    return statusAndCode(
      await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headerLines.join('\r\n')}\r\nConnection: close\r\n\r\n`),
    )
  }

  it.each([
    ['/v1//pets', 404],
    ['/v1/pets%2F1', 404],
    ['/v1/pets/%31', 200],
    ['/v1/pets/1%2F2', 400],
    ['/v1/pets/%E0%A4%A', 400],
    ['/v1/pets/', 200],
    ['/V1/pets', 404],
    ['/v1/pets?limit=%32', 200],
    // A target starting // is a path, never a host: /v1\\pets under it is not the API.
    ['//evil.example/v1\\pets?limit=1', 404],
    ['//x/__sim\\health', 404],
  ])('%s -> %i on every lane', async (target, status) => {
    const headerLines = ['Authorization: Bearer lane-key']
    const viaFetch = await app.fetch(new Request(`http://lane.test${target}`, { headers: { authorization: 'Bearer lane-key' } }))
    const fetchAnswer = { status: viaFetch.status, code: ((await viaFetch.json()) as { code?: string }).code }
    expect(fetchAnswer.status).toBe(status)
    expect(await rawAnswer(clis.direct!, target, headerLines)).toEqual(fetchAnswer)
    expect(await rawAnswer(clis.msw!, target, headerLines)).toEqual(fetchAnswer)
  })

  // Fetch and browsers resolve dot segments before sending; only hand-made requests carry them, and the server
  // refuses them rather than resolve /v1/../__sim/reset into the control plane.
  it.each([
    '/v1/./pets',
    '/v1/x/../pets',
    '/v1/%2e/pets',
    '/v1/pets/.',
    '/v1/%2e%2e/__sim/health',
    '/v1/%2E%2E/__sim/reset',
    '/v1\\..\\__sim/health',
    '/__sim/../v1/pets',
  ])('refuses the dot segments of %s with 400 on both server lanes', async (target) => {
    for (const cli of [clis.direct!, clis.msw!]) {
      expect(await rawAnswer(cli, target, ['Authorization: Bearer lane-key'])).toEqual({ status: 400, code: 'bad_request' })
    }
  })

  it('reads an absolute-form target (what a client sends a proxy) as its path, on both server lanes', async () => {
    for (const cli of [clis.direct!, clis.msw!]) {
      const port = new URL(cli.origin).port
      expect(await rawAnswer(cli, `http://127.0.0.1:${port}/v1/pets?limit=1`, ['Authorization: Bearer lane-key'])).toEqual({
        status: 200,
        code: undefined,
      })
    }
  })

  it('refuses a control request with an odd or missing Host on both server lanes (no admin token)', async () => {
    for (const cli of [clis.direct!, clis.msw!]) {
      const port = Number(new URL(cli.origin).port)
      for (const request of [
        'POST /__sim/reset HTTP/1.1\r\nHost: evil.com/\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
        'POST /__sim/reset HTTP/1.1\r\nHost: evil.com:80@x\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
        'POST /__sim/reset HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n',
      ]) {
        expect(statusAndCode(await rawExchange(port, request)), request.split('\r\n')[1]).toEqual({
          status: 403,
          code: 'control_forbidden',
        })
      }
    }
  })

  it('authenticates before reading a body, on both server lanes: a large body without a key gets its 401, counted', async () => {
    for (const cli of [clis.direct!, clis.msw!]) {
      const port = Number(new URL(cli.origin).port)
      const reply = await rawExchange(
        port,
        `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n${'a'.repeat(1000)}`,
      )
      expect(statusAndCode(reply)).toEqual({ status: 401, code: 'missing_api_key' })
      expect(reply).toMatch(/\r\nx-ratelimit-remaining: \d+\r\n/i)
    }
  })

  it('refuses two Authorization headers with the same 401 on every lane (Node keeps the first, Fetch joins them)', async () => {
    const headers = new Headers()
    headers.append('authorization', 'Bearer lane-key')
    headers.append('authorization', 'Bearer other-key')
    const viaFetch = await app.fetch(new Request('http://lane.test/v1/pets', { headers }))
    const fetchAnswer = { status: viaFetch.status, code: ((await viaFetch.json()) as { code?: string }).code }
    expect(fetchAnswer).toEqual({ status: 401, code: 'invalid_api_key' })
    const headerLines = ['Authorization: Bearer lane-key', 'Authorization: Bearer other-key']
    expect(await rawAnswer(clis.direct!, '/v1/pets', headerLines)).toEqual(fetchAnswer)
    expect(await rawAnswer(clis.msw!, '/v1/pets', headerLines)).toEqual(fetchAnswer)
  })
})

describe('--handlers: your own MSW handlers before the simulator', () => {
  const scratch = fileURLToPath(new URL('../test-output/handlers/', import.meta.url))
  const handlersModule = resolve(scratch, 'toys.mjs')
  const clis: Cli[] = []
  beforeAll(() => {
    mkdirSync(scratch, { recursive: true })
    // A user's module: one endpoint the spec does not cover, and a one-off override that passes on what it does not answer.
    writeFileSync(
      handlersModule,
      `import { http, HttpResponse } from 'msw'
export const handlers = [
  http.get('*/v1/pets/:petId/toys', ({ params }) => HttpResponse.json([{ toy: 'ball', petId: Number(params.petId) }])),
  http.get('*/v1/pets', ({ request }) => (new URL(request.url).searchParams.has('empty') ? HttpResponse.json([]) : undefined)),
  http.post('*/v1/pets', async ({ request }) => ((await request.clone().json()).name === 'Intercepted' ? HttpResponse.json({ intercepted: true }, { status: 202 }) : undefined)),
]
`,
    )
  })
  afterAll(async () => {
    await Promise.all(clis.map((cli) => cli.stop()))
  })

  it.each([['direct'], ['msw']])('answers with them first and passes the rest to the simulator (engine %s)', async (engine) => {
    const cli = await startCli(['--port', '0', '--log', 'silent', '--handlers', handlersModule, '--engine', engine])
    clis.push(cli)
    const auth = { authorization: 'Bearer demo-pro-key' }
    const toys = await fetch(`${cli.apiUrl}/pets/3/toys`, { headers: { ...auth, origin: 'http://app.test' } })
    expect(toys.status).toBe(200)
    expect(await toys.json()).toEqual([{ toy: 'ball', petId: 3 }])
    expect(toys.headers.get('access-control-allow-origin')).toBe('http://app.test')
    expect(await (await fetch(`${cli.apiUrl}/pets?empty`, { headers: auth })).json()).toEqual([])

    const listed = await fetch(`${cli.apiUrl}/pets?limit=2`, { headers: auth })
    expect(listed.status).toBe(200)
    expect(await listed.json()).toHaveLength(2)
    expect(listed.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/)

    const intercepted = await fetch(`${cli.apiUrl}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Intercepted","categoryId":1}',
    })
    expect(intercepted.status).toBe(202)
    // The body the user's handler read is still there for the simulator.
    const created = await fetch(`${cli.apiUrl}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Passed on","categoryId":1}',
    })
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({ name: 'Passed on', categoryId: 1 })

    // DNS rebinding reaches no handler: a foreign Host is refused before them (issue 26).
    const port = Number(new URL(cli.origin).port)
    const rebound = await rawExchange(
      port,
      'GET /v1/pets/3/toys HTTP/1.1\r\nHost: rebound.example\r\nAuthorization: Bearer demo-pro-key\r\nConnection: close\r\n\r\n',
    )
    expect(statusAndCode(rebound)).toEqual({ status: 403, code: 'host_not_allowed' })
  })

  it('refuses a module that does not export handlers, with exit code 2', async () => {
    const notHandlers = resolve(scratch, 'not-handlers.mjs')
    writeFileSync(notHandlers, 'export const handlers = 42\n')
    const { runCli } = await import('../support/cli-process.ts')
    const cli = runCli(['--port', '0', '--handlers', notHandlers])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toMatch(/--handlers: .* must export an array of MSW handlers/)
  })

  it('refuses handlers without a run method, naming the entry, with exit code 2', async () => {
    const fakeHandlers = resolve(scratch, 'fake-handlers.mjs')
    writeFileSync(fakeHandlers, 'export default [{ run: 1 }]\n')
    const { runCli } = await import('../support/cli-process.ts')
    const cli = runCli(['--port', '0', '--handlers', fakeHandlers])
    const exited = await Promise.race([cli.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 8000))])
    if (exited === 'still running') cli.child.kill('SIGKILL')
    expect(exited).toBe(2)
    expect(cli.stderr()).toMatch(/--handlers: .* must export an array of MSW handlers.*entry 0 has no run method/)
  }, 10_000)

  it('gives up on a module whose top-level await never settles, naming it (a usage error: exit code 2)', async () => {
    const neverLoads = resolve(scratch, 'never-loads.mjs')
    writeFileSync(neverLoads, 'await new Promise(() => {})\nexport default []\n')
    // In-process with a short limit: the CLI's is 10 s (defaults.handlersLoadTimeoutMs), and it exits where this records.
    const { loadHandlers } = await import('../../src/cli/cli-inputs.ts')
    const { UsageError } = await import('../../src/cli/cli-usage-error.ts')
    const gaveUp: string[] = []
    const loading = loadHandlers(neverLoads, { timeoutMs: 50, onTimeout: (message) => gaveUp.push(message) })
    await expect(loading).rejects.toThrow(UsageError)
    await expect(loading).rejects.toThrow(/^--handlers: .*never-loads\.mjs did not finish loading within 50 ms$/)
    expect(gaveUp).toEqual([`--handlers: ${neverLoads} did not finish loading within 50 ms`])
  })
})

describe('the CLI loads msw only when asked', () => {
  const srcDir = fileURLToPath(new URL('../../src/', import.meta.url))

  it('has no static import of msw from the CLI, only the dynamic one of the msw lane', () => {
    const graph = importGraph(resolve(srcDir, 'cli/run-cli.ts'), { dynamic: false })
    const importers = [...graph].filter(([, specifiers]) =>
      specifiers.some((specifier) => specifier === 'msw' || specifier.startsWith('msw/')),
    )
    expect(importers.map(([file]) => file.slice(srcDir.length))).toEqual([])
    expect(readFileSync(resolve(srcDir, 'node/msw-lane-loader.ts'), 'utf8')).toContain("await import('../handlers/msw-lane.ts')")
  })
})
