import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { planVerification } from '../../src/verify/verify-runner.ts'
import { runCli } from '../support/cli-process.ts'
import { closedPort } from '../support/closed-port.ts'
import { createReferenceProvider, type ReferenceVariant } from '../support/reference-provider.ts'

// verify-unreachable-waits.test.ts through the real CLI, which is a process: here, not in the fast layer
// (vitest.unit.config.ts excludes test/verify/verify-cli*). Loopback only: servers on 127.0.0.1, port 0.

const key = 'front-door-key'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

/** The reference provider on node:http, on the real clock, for the CLI. */
async function serveReference(variant: ReferenceVariant): Promise<string> {
  const provider = createReferenceProvider(variant, { [key]: { perMinute: 300, perDay: 10_000 } }, () => Date.now())
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = request.method === 'GET' ? undefined : Buffer.concat(chunks)
    const answer = await provider.fetch(
      new Request(`http://127.0.0.1${request.url}`, { method: request.method, headers: request.headers as HeadersInit, body }),
    )
    response.writeHead(answer.status, Object.fromEntries(answer.headers))
    response.end(Buffer.from(await answer.arrayBuffer()))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
}

describe('petstore-sim verify against a target that is not there', () => {
  it('petstore-sim verify exits 3 with one line naming the cause', async () => {
    const port = await closedPort()
    const cli = runCli(['verify', `http://127.0.0.1:${port}/v1`, '--key', key])
    expect(await cli.exited).toBe(3)
    const cause = `cannot connect to 127.0.0.1:${port} (ECONNREFUSED)`
    expect(cli.stdout().split('\n')[0]).toBe(`UNREACHABLE: ${cause}; the run stopped there`)
    expect(cli.stdout().split(cause)).toHaveLength(2)
    expect(cli.stdout()).not.toContain('fetch failed')
    expect(cli.stdout()).toContain(`1 request sent (at most ${planVerification({}).requests} announced)`)
    const json = runCli(['verify', `http://127.0.0.1:${port}/v1`, '--key', key, '--reporter', 'json'])
    expect(await json.exited).toBe(3)
    expect(JSON.parse(json.stdout())).toMatchObject({ unreachable: cause, failed: 1, requests: 1 })
    expect(json.stderr().split('\n')[0]).toBe(`petstore-sim verify: ${cause}`)
  })
})

describe('petstore-sim verify says what it waits for', () => {
  it('petstore-sim verify prints a line for a wait of a second or more, in the pretty report only, never in the JSON', async () => {
    const baseUrl = await serveReference({ busyAtFirst: 1 })
    const pretty = runCli(['verify', baseUrl, '--key', key, '--plan', 'pro'])
    expect(await pretty.exited, pretty.stdout()).toBe(0)
    // Retry-After: 2, counted from the answer: a little less than 2 s is left when the wait begins.
    expect(pretty.stdout()).toMatch(
      /^petstore-sim verify: waiting (1\.\d|2) s for the target's Retry-After: 2 s \(429 on GET \/v1\/pets\)$/m,
    )
    const json = runCli(['verify', await serveReference({ busyAtFirst: 1 }), '--key', key, '--plan', 'pro', '--reporter', 'json'])
    expect(await json.exited).toBe(0)
    expect(JSON.parse(json.stdout())).toMatchObject({ failed: 0 })
    expect(json.stdout()).not.toContain('petstore-sim verify: waiting')
    expect(json.stderr()).toContain("for the target's Retry-After: 2 s")
  }, 20_000)
})
