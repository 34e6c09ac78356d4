import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, describe, expect, it } from 'vitest'
import { createProgram, type CliOptions } from '../../src/cli/cli-options.ts'
import { applyConfigFile } from '../../src/cli/config-file.ts'
import { configJsonSchema, configSchemaPath } from '../../src/cli/config-schema.ts'
import { runCli, startCli } from '../support/cli-process.ts'

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-config-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

let files = 0
function configFile(content: unknown): string {
  const path = join(directory, `config-${files++}.json`)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

/** The options as the CLI ends up with them: flags and `env` parsed, then the config file applied. */
function resolveOptions(args: string[], env: Record<string, string> = {}, workingDirectory = directory) {
  const saved = { ...process.env }
  for (const name of Object.keys(process.env)) if (name.startsWith('PETSTORE_SIM_')) delete process.env[name]
  Object.assign(process.env, env)
  try {
    const program = createProgram().exitOverride()
    const options = program.parse(args, { from: 'user' }).opts<CliOptions>()
    const config = applyConfigFile(program, options.config, workingDirectory)
    return { options: program.opts<CliOptions>(), config }
  } finally {
    process.env = saved
  }
}

describe('the config file', () => {
  it('sets options by their camelCase names, through the flags’ own parsers', () => {
    const path = configFile({
      $schema: './node_modules/petstore-sim/fixtures/petstore-sim.config.schema.json',
      port: 4999,
      seed: '77',
      banAfter: 'off',
      banFor: '30s',
      log: 'json',
      key: ['a-key=pro', 'b-key=enterprise:10/20'],
      prefer: false,
      latency: { min: 5, max: 9 },
      scenario: 'empty',
    })
    const { options } = resolveOptions(['--config', path])
    expect(options).toMatchObject({
      port: 4999,
      seed: 77,
      banAfter: 'off',
      banFor: 30_000,
      log: 'json',
      key: ['a-key=pro', 'b-key=enterprise:10/20'],
      prefer: false,
      latency: { min: 5, max: 9 },
      scenario: 'empty',
    })
  })

  it('ranks flags over environment variables over the file over defaults', () => {
    const path = configFile({ port: 5001, seed: 5002, pets: 5003 })
    const { options } = resolveOptions(['--config', path, '--port', '6001'], { PETSTORE_SIM_PORT: '7001', PETSTORE_SIM_SEED: '7002' })
    expect({ port: options.port, seed: options.seed, pets: options.pets, host: options.host }).toEqual({
      port: 6001,
      seed: 7002,
      pets: 5003,
      host: '127.0.0.1',
    })
  })

  it('is read from petstore-sim.config.json in the working directory when there is no --config', () => {
    const working = join(directory, 'project')
    mkdirSync(working, { recursive: true })
    writeFileSync(join(working, 'petstore-sim.config.json'), JSON.stringify({ pets: 3, fixtures: 'pets.json' }))
    const { options, config } = resolveOptions([], {}, working)
    expect(config.path).toBe('petstore-sim.config.json')
    expect(options.pets).toBe(3)
    // A path in the file is relative to the file.
    expect(options.fixtures).toBe(join(working, 'pets.json'))
    expect(resolveOptions([], {}, directory).config.path).toBeUndefined()
  })

  it('takes keys, faults and fixtures inline, and scenarios', () => {
    const path = configFile({
      keys: { 'inline-key': 'business' },
      faults: [{ operation: 'listPets', status: 503 }],
      fixtures: [{ name: 'Inline', categoryId: 1 }],
      scenarios: { busy: { description: 'Busy', usage: { '*': { minute: 'all' } } } },
    })
    const { config } = resolveOptions(['--config', path])
    expect(config.inline).toEqual({
      keys: { 'inline-key': 'business' },
      faults: [{ operation: 'listPets', status: 503 }],
      fixtures: [{ name: 'Inline', categoryId: 1 }],
    })
    expect(Object.keys(config.scenarios!)).toEqual(['busy'])
  })

  it.each([
    [{ prot: 4010, colour: 'red' }, /unknown keys prot, colour/],
    [{ port: 70000 }, /port: --port must be a whole number from 0 to 65535/],
    [{ log: 'loud' }, /log: must be one of pretty, json, silent/],
    [{ prefer: 'no' }, /prefer: must be true or false/],
    [{ scenarios: { 'bad name': {} } }, /scenarios: Scenario name "bad name"/],
    ['{"port": ', /not valid JSON/],
    [[1, 2], /must hold a JSON object/],
  ])('refuses %j naming the problem', (content, message) => {
    const path = configFile(content)
    expect(() => resolveOptions(['--config', path])).toThrow(message)
  })

  it('ships a JSON Schema made from the flags, which accepts a full file and refuses an unknown key', () => {
    const generated = configJsonSchema(createProgram())
    const shipped = new URL(`../../${configSchemaPath}`, import.meta.url)
    // UPDATE_CONFIG_SCHEMA=1 writes the file after a change of the flags (then `npm run format`, which lays it out).
    if (process.env.UPDATE_CONFIG_SCHEMA === '1') writeFileSync(shipped, `${JSON.stringify(generated, null, 2)}\n`)
    expect(JSON.parse(readFileSync(shipped, 'utf8'))).toEqual(generated)
    const validate = new Ajv2020({ strict: false }).compile(generated)
    const full = {
      $schema: `./node_modules/petstore-sim/${configSchemaPath}`,
      port: 0,
      log: 'silent',
      key: ['k=pro'],
      keys: { t: 'free' },
      prefer: true,
      latency: '20-80',
      scenarios: { mine: { description: 'Mine', pets: 3, clock: { set: '2031-01-01T00:00:00Z', freeze: true } } },
    }
    expect(validate(full), JSON.stringify(validate.errors)).toBe(true)
    expect(validate({ prot: 1 })).toBe(false)
    expect(validate({ scenarios: { mine: { petz: 1 } } })).toBe(false)
  })
})

describe('the CLI with --config', () => {
  it('sets options from the file, a flag overrides it, and an unknown key exits 2 naming it', async () => {
    const path = configFile({ pets: 4, scenario: 'default', keys: { 'config-key': 'pro' }, log: 'silent' })
    const cli = await startCli(['--config', path, '--port', '0', '--pets', '2'])
    try {
      const response = await fetch(`${cli.apiUrl}/pets`, { headers: { authorization: 'Bearer config-key' } })
      expect(response.status).toBe(200)
      expect(await response.json()).toHaveLength(2)
      expect(cli.stdout()).not.toContain('demo-pro-key')
    } finally {
      await cli.stop()
    }
    const refused = runCli(['--config', configFile({ pets: 4, petz: 5 }), '--port', '0'])
    expect(await refused.exited).toBe(2)
    expect(refused.stderr()).toMatch(/--config .*: unknown key petz/)
  })
})

describe('the CLI with --watch', () => {
  it('reloads the config file and the fixtures on change, logs what changed, and keeps the old state on an invalid edit', async () => {
    const fixtures = join(directory, 'watched-pets.json')
    writeFileSync(fixtures, JSON.stringify([{ name: 'First', categoryId: 1 }]))
    const path = configFile({ fixtures, log: 'pretty' })
    const cli = await startCli(['--config', path, '--port', '0', '--watch'])
    const names = async () =>
      ((await (await fetch(`${cli.apiUrl}/pets`, { headers: { authorization: 'Bearer demo-pro-key' } })).json()) as { name: string }[]).map(
        (pet) => pet.name,
      )
    const poll = { timeout: 10_000, interval: 100 }
    try {
      expect(await names()).toEqual(['First'])
      writeFileSync(
        fixtures,
        JSON.stringify([
          { name: 'Second', categoryId: 1 },
          { name: 'Third', categoryId: 2 },
        ]),
      )
      await expect.poll(names, poll).toEqual(['Second', 'Third'])
      await expect.poll(() => cli.stdout(), poll).toMatch(/--watch: reloaded \(fixtures changed\)/)

      // An invalid edit: reported, and the simulator keeps what it had.
      writeFileSync(fixtures, '[{"name": ')
      await expect
        .poll(() => cli.stderr(), poll)
        .toMatch(/--watch: not reloaded, the simulator keeps its state: --fixtures: .* is not valid JSON/)
      expect(await names()).toEqual(['Second', 'Third'])

      // The config file itself: a scenario, and a key only a restart applies.
      writeFileSync(fixtures, JSON.stringify([{ name: 'Fourth', categoryId: 1 }]))
      writeFileSync(path, JSON.stringify({ fixtures, log: 'pretty', scenario: 'empty', pets: 9, host: '127.0.0.2' }))
      await expect.poll(names, poll).toEqual([])
      await expect.poll(() => cli.stderr(), poll).toMatch(/--watch: host changed; restart petstore-sim to apply/)
      writeFileSync(path, JSON.stringify({ fixtures, log: 'pretty', colour: 'red' }))
      await expect.poll(() => cli.stderr(), poll).toMatch(/not reloaded.*unknown key colour/)
      expect(await names()).toEqual([])
    } finally {
      await cli.stop()
    }
  })
})
