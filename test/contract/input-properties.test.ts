import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CommanderError } from 'commander'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { createProgram } from '../../src/cli/cli-options.ts'
import { applyConfigFile, ConfigFileError, configurableOptions } from '../../src/cli/config-file.ts'
import { errorCatalogue } from '../../src/core/http/error-catalogue.ts'
import { parseFaultText } from '../../src/core/faults/fault-text.ts'
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import { openStateFile, StateFileError } from '../../src/node/state-file.ts'

// Every input surface of issue 26 under property-based tests: random input, and what a user sees must hold (no crash,
// no 5xx but the documented ones, an Error body from the catalogue). Fixed seeds and bounded runs keep `npm test` fast
// and every failure reproducible; each input is bounded in size.

const runs = (numRuns: number) => ({ numRuns, seed: 2626, endOnFailure: true })
const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-properties-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

/** The 5xx statuses the catalogue documents that a request can get without a fault rule or a reset under way. */
const documented5xx = new Set([501])

/** The Error body of a response, checked against the catalogue. */
function expectCatalogueError(status: number, text: string): void {
  const body = JSON.parse(text) as { code: string; status: number; message: string }
  expect(body.status).toBe(status)
  expect(typeof body.message).toBe('string')
  expect(errorCatalogue[body.code as keyof typeof errorCatalogue]?.status).toBe(status)
}

const token = fc.stringMatching(/^[\w.~%!$&'()*+,;=:@-]{0,12}$/)
const pathArbitrary = fc.oneof(
  fc.constantFrom(
    '/v1/pets',
    '/v1/pets/1',
    '/v1/pets/0',
    '/v1/store/orders',
    '/openapi.json',
    '/openapi.yaml',
    '/__sim/state',
    '/__sim/health',
  ),
  fc.constantFrom('/__sim/requests', '/__sim/requests/count', '/__sim/faults', '/__sim/clock', '/__sim/snapshot', '/__sim/scenario', '/'),
  fc.array(token, { minLength: 1, maxLength: 4 }).map((segments) => `/v1/${segments.join('/')}`),
  fc.array(token, { minLength: 1, maxLength: 3 }).map((segments) => `/__sim/${segments.join('/')}`),
)
const queryArbitrary = fc.oneof(
  fc.constant(''),
  fc
    .array(fc.tuple(fc.constantFrom('limit', 'status', 'path', 'method', 'operation', 'key', 'since', 'constructor', '__proto__'), token), {
      maxLength: 4,
    })
    .map((pairs) => `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`),
)
const headerArbitrary = fc.dictionary(
  fc.constantFrom(
    'authorization',
    'origin',
    'sec-fetch-site',
    'sec-fetch-mode',
    'content-type',
    'prefer',
    'accept',
    'x-custom',
    'toString',
  ),
  fc.oneof(
    fc.constantFrom('Bearer demo-pro-key', 'Bearer nope', 'https://evil.example', 'http://localhost:5173', 'cross-site', 'none'),
    fc.constantFrom('application/json', 'text/plain', 'code=500', 'code=404', 'navigate', ''),
    fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
  ),
  { maxKeys: 5 },
)
const bodyArbitrary = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc.constant('{"name":"Rex","categoryId":1}'),
)
const hostArbitrary = fc.constantFrom('localhost:4010', '127.0.0.1', 'rebound.example', 'sim.test', '[::1]:80')

describe('the API and the control plane, with random requests', () => {
  it('never crash, and answer no 5xx but the documented ones, each error an Error body of the catalogue', async () => {
    const app = createApp({ seed: 1, pets: 20, allowedHosts: ['sim.test'] })
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        pathArbitrary,
        queryArbitrary,
        headerArbitrary,
        bodyArbitrary,
        hostArbitrary,
        async (method, path, query, headers, body, host) => {
          const sendsBody = body !== undefined && method !== 'GET' && method !== 'HEAD'
          let request: Request
          try {
            request = new Request(`http://${host}${path}${query}`, { method, headers, body: sendsBody ? body : undefined })
          } catch {
            return // Not a request a client can send (a header value Fetch refuses).
          }
          const response = await app.fetch(request, { clientAddress: '127.0.0.1' })
          expect(response.status >= 500 && !documented5xx.has(response.status), `${method} ${path}${query} -> ${response.status}`).toBe(
            false,
          )
          const text = await response.text()
          if (response.status >= 400 && method !== 'HEAD') expectCatalogueError(response.status, text)
        },
      ),
      runs(300),
    )
    // Whatever came in, the state is still readable.
    expect((await app.fetch(new Request('http://localhost/__sim/state'), { clientAddress: '127.0.0.1' })).status).toBe(200)
  })
})

/** A valid snapshot with one value somewhere in it replaced by an arbitrary one. */
const extremeNumber = fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53, -1, 0, 1e300, -1e15, 253402300800000, 253402300799999, 0.5)
const replacement = fc.oneof(extremeNumber, fc.jsonValue({ maxDepth: 2 }), fc.integer())

function spoil(value: unknown, path: readonly number[], next: unknown): unknown {
  if (path.length === 0 || typeof value !== 'object' || value === null) return next
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value)
  if (entries.length === 0) return next
  const [key, child] = entries[path[0]! % entries.length]!
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...value }
  ;(copy as Record<string, unknown>)[key] = spoil(child, path.slice(1), next)
  return copy
}

/** The paths of every number in a JSON value: where bounds matter most. */
function numberPaths(value: unknown, path: readonly string[] = []): string[][] {
  if (typeof value === 'number') return [[...path]]
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, child]) => numberPaths(child, [...path, key]))
}

/** A copy of a JSON value with the value at `path` replaced. */
function setAt(value: unknown, path: readonly string[], next: unknown): unknown {
  if (path.length === 0) return next
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string, unknown>
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), next)
  return copy
}

/** A valid snapshot spoilt: one value anywhere replaced by any, or one number replaced by an extreme one. */
function spoilings(valid: unknown) {
  return fc.oneof(
    fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), replacement).map(([path, next]) => spoil(valid, path, next)),
    fc.tuple(fc.constantFrom(...numberPaths(valid)), extremeNumber).map(([path, next]) => setAt(valid, path, next)),
  )
}

function busySimulator() {
  const sim = createSimulatorCore({ seed: 4, pets: 5 })
  sim.store.create({ name: 'Rex', categoryId: 2 })
  sim.faults.add({ operation: 'listPets', status: 503, times: 2 })
  sim.limiter.consume('anonymous:10.0.0.1', sim.keys[0]!.plan)
  return sim
}

describe('snapshots with one value spoilt', () => {
  it('PUT /__sim/snapshot: 200 or 400 invalid_body; a 400 changes nothing, the journal included; /__sim/state answers', async () => {
    const app = createApp({ seed: 4, pets: 5 })
    const send = (method: string, path: string, body?: string) =>
      app.fetch(
        new Request(`http://localhost${path}`, {
          method,
          headers: { 'content-type': 'application/json', authorization: 'Bearer demo-pro-key' },
          body,
        }),
        { clientAddress: '127.0.0.1' },
      )
    const valid = await (await send('GET', '/__sim/snapshot')).json()
    valid.rateLimits = [{ caller: 'anonymous:10.0.0.1', minute: 1, minuteCount: 1, day: 0, dayCount: 1, refusedInARow: 0, bannedUntil: 5 }]
    await fc.assert(
      fc.asyncProperty(spoilings(valid), async (snapshot) => {
        await send('GET', '/v1/pets?limit=1')
        const before = await (await send('GET', '/__sim/snapshot')).text()
        const journal = await (await send('GET', '/__sim/requests/count')).text()
        const restored = await send('PUT', '/__sim/snapshot', JSON.stringify(snapshot))
        expect([200, 400]).toContain(restored.status)
        if (restored.status === 400) {
          expectCatalogueError(400, await restored.text())
          expect(JSON.parse(await (await send('GET', '/__sim/snapshot')).text()).catalogue).toEqual(JSON.parse(before).catalogue)
          expect(await (await send('GET', '/__sim/requests/count')).text()).toBe(journal)
        }
        expect((await send('GET', '/__sim/state')).status).toBe(200)
      }),
      runs(150),
    )
  })

  it('--state files: restored, or a StateFileError naming the file, and the state is readable after either', () => {
    const valid = JSON.parse(JSON.stringify(busySimulator().snapshot()))
    valid.rateLimits[0].bannedUntil = 5
    let index = 0
    fc.assert(
      fc.property(
        fc.oneof(
          spoilings(valid).map((snapshot) => JSON.stringify(snapshot)),
          fc.string({ maxLength: 100 }),
        ),
        (text) => {
          const path = join(directory, `state-${index++}.json`)
          writeFileSync(path, text)
          const sim = createSimulatorCore({ seed: 4, pets: 5 })
          try {
            openStateFile(sim, { path, intervalMs: 0 }).discard()
          } catch (error) {
            expect(error).toBeInstanceOf(StateFileError)
            expect((error as Error).message).toContain(path)
          }
          expect(() => JSON.stringify(sim.state())).not.toThrow()
        },
      ),
      runs(150),
    )
  })
})

describe('the config file, the fault text form and the flags', () => {
  const program = () =>
    createProgram()
      .exitOverride()
      .configureOutput({ writeErr: () => {}, writeOut: () => {} })
  const keys = configurableOptions(createProgram()).map((option) => option.attributeName())
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    extremeNumber,
    fc.constantFrom('1s', '-1', 'off', 'pretty', '*', 'abc', '', '0', '65536', '10-5', 'nodir/x.json'),
  )

  it('a config file of random keys and values is applied or refused with a ConfigFileError, never another error', () => {
    let index = 0
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })), value, { maxKeys: 4 }), (data) => {
        const path = join(directory, `config-${index++}.json`)
        writeFileSync(path, JSON.stringify(data))
        const parsed = program()
        parsed.parse(['--config', path], { from: 'user' })
        try {
          applyConfigFile(parsed, path, directory)
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigFileError)
          expect((error as Error).message.startsWith(`--config ${path}: `)).toBe(true)
          expect((error as Error).message).not.toContain('\n')
        }
      }),
      runs(300),
    )
  })

  it('random flags are parsed or refused with a CommanderError, never another error', () => {
    const flags = program()
      .options.map((option) => option.long)
      .filter((flag): flag is string => flag !== undefined && flag !== '--help' && flag !== '--version')
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...flags), value.map(String)), { maxLength: 6 }), (args) => {
        try {
          program().parse(args, { from: 'user' })
        } catch (error) {
          expect(error).toBeInstanceOf(CommanderError)
        }
      }),
      runs(300),
    )
  })

  it('the fault text form gives a rule the fault rules take, or a RangeError naming the text', () => {
    const words = fc.constantFrom(
      'listPets',
      'getPet',
      '*',
      'GET',
      '/v1/pets',
      '/v1/pets/{petId}',
      '503',
      '404',
      'reset',
      'hang',
      'times=2',
      'p=0.5',
      'p=2',
      'delay=5-1',
      'key=x',
      'delay=',
      '=',
    )
    fc.assert(
      fc.property(fc.array(fc.oneof(words, fc.string({ maxLength: 10 })), { maxLength: 6 }), (parts) => {
        const text = parts.join(' ')
        const sim = createSimulatorCore({ pets: 1 })
        let rule: ReturnType<typeof parseFaultText>
        try {
          rule = parseFaultText(text, '/v1')
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError)
          return
        }
        try {
          sim.faults.add(rule)
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError)
        }
      }),
      runs(300),
    )
  })
})
