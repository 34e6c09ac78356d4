import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Pact } from '../../src/core/contract/pact-export.ts'
import { startCli } from '../support/cli-process.ts'

// `--pact <file>` (issue #30): the journal written as a Pact 4 file at shutdown, as `--coverage` is.

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-pact-cli-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe('--pact <file>', () => {
  it('writes the pact at shutdown, with the parties named by --pact-consumer and --pact-provider', async () => {
    const file = join(directory, 'web-animal-store.json')
    const cli = await startCli([
      '--port',
      '0',
      '--log',
      'silent',
      '--pact',
      file,
      '--pact-consumer',
      'pet-shop-web',
      '--pact-provider',
      'animal-store',
    ])
    const auth = { authorization: 'Bearer demo-pro-key' }
    expect((await fetch(`${cli.apiUrl}/pets/2`, { headers: auth })).status).toBe(200)
    expect((await fetch(`${cli.apiUrl}/pets/2`, { headers: auth })).status).toBe(200)
    expect((await fetch(`${cli.apiUrl}/pets`)).status).toBe(401)
    expect(await cli.stop()).toBe(0)
    const pact = JSON.parse(readFileSync(file, 'utf8')) as Pact
    expect(pact.consumer).toEqual({ name: 'pet-shop-web' })
    expect(pact.provider).toEqual({ name: 'animal-store' })
    expect(pact.metadata.pactSpecification.version).toBe('4.0')
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual([
      'getPet GET /v1/pets/2 with demo-pro-key: 200',
      'listPets GET /v1/pets without an API key: 401 missing_api_key',
    ])
  })

  it('says so on stderr and exits 1 when the file cannot be written', async () => {
    const file = join(directory, 'missing-folder', 'pact.json')
    const cli = await startCli(['--port', '0', '--log', 'silent', '--pact', file])
    expect(await cli.stop()).toBe(1)
    expect(cli.stderr()).toContain(`petstore-sim: --pact: cannot write ${file}`)
  })
})
