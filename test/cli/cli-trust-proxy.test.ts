// --trust-proxy (issue 45, Medium 8) through the real CLI: from the flag, PETSTORE_SIM_TRUST_PROXY and the config
// file, two keyless clients a trusted proxy forwards are two callers; a bad entry is a usage error.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, startCli } from '../support/cli-process.ts'

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-trust-proxy-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

/** The anonymous buckets after one keyless request from each of two forwarded clients. */
async function bucketsOfTwoClients(apiUrl: string, origin: string): Promise<number> {
  for (const client of ['203.0.113.1', '203.0.113.2']) {
    const response = await fetch(`${apiUrl}/pets`, { headers: { 'x-forwarded-for': client } })
    expect(response.status).toBe(401)
  }
  const state = (await (await fetch(`${origin}/__sim/state`)).json()) as { anonymous: { buckets: number } }
  return state.anonymous.buckets
}

describe('--trust-proxy', () => {
  it.each([
    ['the flag', ['--trust-proxy', '127.0.0.1'], {}],
    ['the environment', [], { PETSTORE_SIM_TRUST_PROXY: '10.0.0.0/8,loopback' }],
    ['the config file', ['--config', 'config'], {}],
  ])('from %s, reads the address a trusted proxy forwards', async (_from, args, env) => {
    const config = join(directory, 'trust.json')
    writeFileSync(config, JSON.stringify({ trustProxy: ['::1', '127.0.0.0/8'] }))
    const cli = await startCli(['--port', '0', '--log', 'silent', ...args.map((arg) => (arg === 'config' ? config : arg))], env)
    try {
      expect(await bucketsOfTwoClients(cli.apiUrl, cli.origin)).toBe(2)
    } finally {
      await cli.stop()
    }
  })

  it('is off by default: the forwarded addresses are ignored', async () => {
    const cli = await startCli(['--port', '0', '--log', 'silent'])
    try {
      expect(await bucketsOfTwoClients(cli.apiUrl, cli.origin)).toBe(1)
    } finally {
      await cli.stop()
    }
  })

  it('refuses an entry that is no address, range or name, with a usage error', async () => {
    const cli = runCli(['--port', '0', '--trust-proxy', '10.0.0.0/40'])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toContain('"10.0.0.0/40" is not a proxy address')
  })
})
