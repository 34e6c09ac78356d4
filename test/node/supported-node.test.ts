// petstore-sim/node on Node 20 used to start and then fail in odd places (msw 3: Promise.withResolvers is not a
// function): its servers now say which Node they need.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { assertSupportedNode, requiredNodeVersion } from '../../src/node/supported-node.ts'
import { createServer } from '../../src/node.ts'

describe('the Node.js petstore-sim/node needs', () => {
  it('is the one package.json engines names', () => {
    const engines = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).engines.node as string
    expect(engines).toBe(`>=${requiredNodeVersion}`)
  })

  it.each(['20.20.2', '22.11.0', '18.0.0'])('refuses Node %s, naming the version needed', (version) => {
    expect(() => assertSupportedNode(version)).toThrow(`petstore-sim/node needs Node.js 22.12.0 or later; this is Node.js ${version}`)
  })

  it.each(['22.12.0', '22.18.1', '24.21.0', '25.0.0'])('accepts Node %s', (version) => {
    expect(() => assertSupportedNode(version)).not.toThrow()
  })

  it('is checked when a server is created', () => {
    const real = process.versions.node
    Object.defineProperty(process.versions, 'node', { value: '20.20.2', configurable: true })
    try {
      expect(() => createServer()).toThrow(/needs Node\.js 22\.12\.0 or later; this is Node\.js 20\.20\.2/)
    } finally {
      Object.defineProperty(process.versions, 'node', { value: real, configurable: true })
    }
  })
})
