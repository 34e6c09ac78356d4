// docs/ci.md's recipes, as the page shows them: the shell script run through its paths (tests pass, the simulator
// cannot start, a test fails, --log json), the GitHub Actions workflow linted against the workflow schema, the GitLab
// CI file against GitLab's own schema, and compose.yaml against the Compose specification's. The image and compose
// file run with podman in the container step (test/container/recipes.test.ts).
import { createRequire } from 'node:module'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { validateWorkflow } from '@action-validator/core'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { binPath } from '../support/cli-process.ts'
import { collectRun, type CollectedRun } from '../support/collected-run.ts'
import { composeValidator } from '../support/compose-schema.ts'
import { fencedBlocks } from '../support/docs-blocks.ts'

const page = new URL('../../docs/ci.md', import.meta.url)
const require = createRequire(import.meta.url)
const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-ci-recipes-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

/** Runs a command (bounded: killed after 60 s), with Node 24 first on PATH as `npm run` has it. */
function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<CollectedRun> {
  const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_SIM_')))
  const path = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`
  return collectRun(command, args, { cwd, env: { ...cleanEnv, PATH: path, ...env }, timeout: 60_000 })
}

describe('the shell script (docs/ci.md)', () => {
  const [script] = fencedBlocks(page, '## A shell script', 'bash')
  let projects = 0
  /** A project with petstore-sim installed (its binary, as npm links it) and an `e2e` script that checks the API. */
  function project(e2e: string): string {
    const folder = join(directory, `project-${projects++}`)
    mkdirSync(join(folder, 'node_modules', '.bin'), { recursive: true })
    symlinkSync(binPath, join(folder, 'node_modules', '.bin', 'petstore-sim'))
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'app', private: true, scripts: { e2e } }))
    writeFileSync(join(folder, 'e2e-with-simulator.sh'), script!)
    return folder
  }
  const listsPets =
    "node -e \"fetch(process.env.API_URL + '/pets?limit=1', { headers: { authorization: 'Bearer demo-pro-key' } }).then((r) => { console.log('e2e: ' + r.status); process.exit(r.status === 200 ? 0 : 1) })\""

  it('runs the tests against the simulator, then stops it (the ready file goes with it)', async () => {
    const folder = project(listsPets)
    const result = await run('bash', ['e2e-with-simulator.sh'], folder)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^petstore-sim: http:\/\/127\.0\.0\.1:\d+\/v1$/m)
    expect(result.stdout).toMatch(/^e2e: 200$/m)
    expect(existsSync(join(folder, 'sim.url'))).toBe(false)
    expect(readFileSync(join(folder, 'sim.log'), 'utf8')).toMatch(/SIGTERM: finishing requests in flight, then stopping/)
  })

  it('works with --log json (PETSTORE_SIM_LOG=json): the URL comes from the ready file, not the log', async () => {
    const folder = project(listsPets)
    const result = await run('bash', ['e2e-with-simulator.sh'], folder, { PETSTORE_SIM_LOG: 'json' })
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^e2e: 200$/m)
    const log = readFileSync(join(folder, 'sim.log'), 'utf8').trim().split('\n')
    expect(log.map((line) => JSON.parse(line) as { status?: number }).filter((line) => line.status === 200)).toHaveLength(1)
  })

  it("fails at once with the simulator's own message when it cannot start, and runs no test", async () => {
    const folder = project('node -e "console.log(\'e2e ran\')"')
    const result = await run('bash', ['e2e-with-simulator.sh'], folder, { PETSTORE_SIM_LATENCY: 'abc' })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^petstore-sim: option '--latency <ms>' value 'abc' from env 'PETSTORE_SIM_LATENCY' is invalid/m)
    expect(result.stderr).not.toMatch(/did not start within/)
    expect(result.stdout).not.toMatch(/e2e ran/)
  })

  it('fails with the tests, and still stops the simulator', async () => {
    const folder = project('node -e "process.exit(3)"')
    const result = await run('bash', ['e2e-with-simulator.sh'], folder)
    expect(result.code).not.toBe(0)
    expect(existsSync(join(folder, 'sim.url'))).toBe(false)
    expect(readFileSync(join(folder, 'sim.log'), 'utf8')).toMatch(/SIGTERM: finishing requests in flight, then stopping/)
  })
})

describe("the README's short version of the script", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  const short = /\*\*A CI job\*\*[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!

  it("runs the tests, and fails at once with the simulator's message when it cannot start", async () => {
    const folder = join(directory, 'readme')
    mkdirSync(join(folder, 'node_modules', '.bin'), { recursive: true })
    symlinkSync(binPath, join(folder, 'node_modules', '.bin', 'petstore-sim'))
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: 'app', private: true, scripts: { e2e: 'node -e "console.log(\'e2e: \' + process.env.API_URL)"' } }),
    )
    writeFileSync(join(folder, 'ci.sh'), `set -euo pipefail\n${short}`)
    const passed = await run('bash', ['ci.sh'], folder)
    expect(passed.code, passed.stderr).toBe(0)
    expect(passed.stdout).toMatch(/^e2e: http:\/\/127\.0\.0\.1:\d+\/v1$/m)
    const refused = await run('bash', ['ci.sh'], folder, { PETSTORE_SIM_LATENCY: 'abc' })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^petstore-sim: option '--latency <ms>' value 'abc'/m)
    expect(refused.stdout).not.toMatch(/e2e:/)
  })
})

describe('the GitHub Actions workflow (docs/ci.md)', () => {
  const [workflow] = fencedBlocks(page, '## GitHub Actions', 'yaml')

  it('is valid against the workflow schema', () => {
    expect(validateWorkflow(workflow!).errors).toEqual([])
    // The linter can fail: a misspelt key is an error.
    expect(validateWorkflow(workflow!.replace('    services:', '    servicez:')).errors).not.toEqual([])
  })

  it('runs the image as a service on a published port, and the script of the page in the CLI job', () => {
    const jobs = (
      parse(workflow!) as { jobs: Record<string, { services?: Record<string, { ports: string[] }>; steps: { run?: string }[] }> }
    ).jobs
    expect(jobs['e2e-service']!.services!['petstore-sim']!.ports).toEqual(['4010:4010'])
    expect(jobs['e2e-cli']!.steps.map((step) => step.run)).toContain('bash e2e-with-simulator.sh')
  })

  // Issue 49: the service named an image no registry holds. The pipeline builds it from the installed package, pushes
  // it to the organisation's registry, and the service runs that very tag.
  it('builds the image from the installed package in the pipeline, pushes it, and runs that tag as the service', () => {
    const jobs = (
      parse(workflow!) as {
        jobs: Record<string, { needs?: string; services?: Record<string, { image: string }>; steps: { run?: string }[] }>
      }
    ).jobs
    const runs = jobs['petstore-sim-image']!.steps.map((step) => step.run ?? '')
    const built = /^docker build -t (.+) node_modules\/petstore-sim$/.exec(runs.find((run) => run.startsWith('docker build')) ?? '')
    expect(built, runs.join('\n')).not.toBeNull()
    expect(runs).toContain(`docker push ${built![1]}`)
    expect(runs.indexOf('npm ci')).toBeLessThan(runs.findIndex((run) => run.startsWith('docker build')))
    expect(jobs['e2e-service']!.needs).toBe('petstore-sim-image')
    expect(jobs['e2e-service']!.services!['petstore-sim']!.image).toBe(built![1])
  })
})

describe('the GitLab CI file (docs/ci.md)', () => {
  const [pipeline] = fencedBlocks(page, '## GitLab CI', 'yaml')
  const lint = async (text: string) => {
    const folder = mkdtempSync(join(directory, 'gitlab-'))
    writeFileSync(join(folder, '.gitlab-ci.yml'), text)
    // The package's main module is its command line.
    return run(process.execPath, [require.resolve('gitlab-ci-local'), '--list'], folder)
  }

  it("is valid against GitLab's schema (gitlab-ci-local), with the image as a service", async () => {
    const result = await lint(pipeline!)
    const output = result.stdout + result.stderr
    expect(output).toMatch(/json schema validated/)
    expect(result.code, output).toBe(0)
    expect(output).toMatch(/^e2e\s/m)
    expect(output).toMatch(/^e2e-cli\s/m)
    const misspelt = await lint(pipeline!.replace('  services:', '  servicez:'))
    expect(misspelt.code).not.toBe(0)
    expect(misspelt.stdout + misspelt.stderr).toMatch(/'servicez' property is not expected/)
  }, 60_000)

  it('builds the image from the installed package in the pipeline, pushes it, and runs that tag as the service', () => {
    const jobs = parse(pipeline!) as Record<
      string,
      { needs?: string[]; script?: string[]; services?: (string | { name: string; alias?: string })[]; artifacts?: { paths: string[] } }
    >
    expect(jobs['petstore-sim-package']!.artifacts!.paths).toEqual(['node_modules/petstore-sim/'])
    const built = /^docker build -t "(\S+)" node_modules\/petstore-sim$/.exec(
      jobs['petstore-sim-image']!.script!.find((line) => line.startsWith('docker build')) ?? '',
    )
    expect(built, jobs['petstore-sim-image']!.script!.join('\n')).not.toBeNull()
    expect(jobs['petstore-sim-image']!.script).toContain(`docker push "${built![1]}"`)
    expect(jobs['petstore-sim-image']!.needs).toEqual(['petstore-sim-package'])
    expect(jobs.e2e!.needs).toEqual(['petstore-sim-image'])
    expect(jobs.e2e!.services).toEqual([{ name: built![1], alias: 'petstore-sim' }])
  })
})

describe('compose.yaml (docs/ci.md)', () => {
  const [shown] = fencedBlocks(page, '## Compose', 'yaml')
  const file = readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8')

  it("is the repository's compose.yaml, valid against the Compose specification", () => {
    expect(shown).toBe(file)
    const validate = composeValidator()
    expect(validate(file), validate.errors()).toBe(true)
    expect(validate(file.replace('    ports:', '    portz:'))).toBe(false)
  })
})
