// The fast msw 3 recipe of docs/in-process-speed.md, run as written: the simulator's handlers on msw 3's Fetch-level
// network (patching globalThis.fetch only) instead of setupServer's socket-level interception, which runs undici's whole
// client over a mocked socket for each request (0.8–1.1 ms; the Fetch-level network ~0.2 ms, measured by npm run bench).
import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { FetchInterceptor } from '@mswjs/interceptors/fetch/web'
import { defineNetwork, InterceptorSource } from 'msw/experimental'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.ts'

const simulator = createSimulator({ baseUrl: 'http://petstore.test/v1' })
// msw 3.0.5's types declare their own copy of the Interceptor class, which TypeScript tells apart from the installed
// @mswjs/interceptors' (a #private field): the same class at run time, hence the cast.
type SourceInterceptor = ConstructorParameters<typeof InterceptorSource>[0]['interceptors'][number]
const network = defineNetwork({
  sources: [new InterceptorSource({ interceptors: [new FetchInterceptor() as unknown as SourceInterceptor] })],
  handlers: simulator.handlers,
  onUnhandledFrame: 'error',
  // Without it, msw logs every request with its whole Request and Response to the console.
  context: { quiet: true },
})
beforeAll(() => network.enable())
afterAll(() => network.disable())

it('is the recipe docs/in-process-speed.md shows (cast included: the page type-checks, test/docs/docs-typecheck.test.ts)', () => {
  const recipe = (text: string) => text.slice(text.indexOf('const simulator = '), text.indexOf('afterAll(() => network.disable())'))
  const page = readFileSync(new URL('../../docs/in-process-speed.md', import.meta.url), 'utf8')
  const section = page.slice(page.indexOf("## msw 3's Fetch-level network"))
  expect(recipe(section)).toContain('as unknown as SourceInterceptor')
  expect(recipe(section)).toBe(recipe(readFileSync(new URL(import.meta.url), 'utf8')))
})

it('answers the global fetch from the simulator: limits, errors and the journal as with setupServer', async () => {
  const headers = { Authorization: 'Bearer demo-free-key' }
  const list = await fetch('http://petstore.test/v1/pets?limit=2', { headers })
  expect(list.status).toBe(200)
  expect(await list.json()).toHaveLength(2)
  expect(list.headers.get('x-ratelimit-remaining')).toBe('59')
  const missing = await fetch('http://petstore.test/v1/pets/999999', { headers })
  expect(missing.status).toBe(404)
  expect(await missing.json()).toMatchObject({ code: 'pet_not_found', status: 404 })
  expect(simulator.journal.entries().map((entry) => `${entry.operation} ${entry.status}`)).toEqual(['listPets 200', 'getPet 404'])
})

it('does not see requests made with node:http (axios’s Node adapter, got, supertest): only the global fetch', async () => {
  // Nothing listens on this port: a request that is not intercepted fails to connect, and the journal stays as it was.
  const before = simulator.journal.entries().length
  const outcome = await new Promise<string>((resolve) => {
    const request = httpRequest('http://127.0.0.1:9/v1/pets', { headers: { Authorization: 'Bearer demo-free-key' } }, (response) =>
      resolve(`answered ${response.statusCode}`),
    )
    request.on('error', (error: NodeJS.ErrnoException) => resolve(`not intercepted: ${error.code}`))
    request.end()
  })
  expect(outcome).toMatch(/^not intercepted: /)
  expect(simulator.journal.entries()).toHaveLength(before)
})
