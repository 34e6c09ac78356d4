import { afterEach, describe, expect, it, vi } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'

// Issue #20, item 5: `--log json` lines lacked `level`, `operation` and the error `code`, and printed durationMs as
// 3.9277470000000676 (the same through the library's startServer as through the CLI). Loopback only, port 0.

const servers: RunningServer[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

describe('--log json', () => {
  it('gives each request a level, its operation and its error code, and a short durationMs', async () => {
    const written: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
    const server = await startServer({ app: createNodeApp(), port: 0, host: '127.0.0.1', log: 'json' })
    servers.push(server)
    await (await fetch(`${server.apiUrl}/pets?limit=1`, { headers: { authorization: 'Bearer demo-pro-key' } })).arrayBuffer()
    await (await fetch(`${server.apiUrl}/pets`, { headers: { authorization: 'Bearer not-a-key' } })).arrayBuffer()
    await (await fetch(`${server.apiUrl}/pets/abc`, { headers: { authorization: 'Bearer demo-pro-key' } })).arrayBuffer()
    await (await fetch(`${server.apiUrl}/store/orders`, { headers: { authorization: 'Bearer demo-pro-key' } })).arrayBuffer()
    const lines = written
      .join('')
      .split('\n')
      .filter((line) => line.includes('"path"'))
    const records = lines.map((line) => JSON.parse(line))
    expect(records.map(({ level, method, path, operation, status, code }) => ({ level, method, path, operation, status, code }))).toEqual([
      { level: 'info', method: 'GET', path: '/v1/pets?limit=1', operation: 'listPets', status: 200, code: undefined },
      { level: 'warn', method: 'GET', path: '/v1/pets', operation: 'listPets', status: 401, code: 'invalid_api_key' },
      { level: 'warn', method: 'GET', path: '/v1/pets/abc', operation: 'getPet', status: 400, code: 'invalid_path_parameter' },
      { level: 'error', method: 'GET', path: '/v1/store/orders', operation: 'listOrders', status: 501, code: 'not_implemented' },
    ])
    // Rounded (to a tenth of a millisecond), as written: not 3.9277470000000676.
    for (const line of lines) expect(line).toMatch(/"durationMs":\d+(?:\.\d{1,3})?[,}]/)
  })
})
