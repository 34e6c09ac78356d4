// A user's project installs the packed package next to msw 2 and next to
// msw 3, with a plain `npm install` (the peer range must accept both, so no
// --legacy-peer-deps), then runs the simulator in-process under msw's
// setupServer and as the installed CLI. The two installs run at once; npm's
// cache (filled by this repository's own install) serves most of the files.
import { spawn } from 'node:child_process'
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packPackage } from '../support/packed-package.ts'

const mswMajors = ['2', '3'] as const

/** Outside the repository, so that nothing resolves from its node_modules. */
const workDir = mkdtempSync(join(tmpdir(), 'petstore-sim-consumer-'))

/** The user's test: 200 with a key and 401 without, both with rate-limit headers. */
const scenario = `import { readFileSync } from 'node:fs'
import { setupServer } from 'msw/node'
import { createSimulator } from 'petstore-sim'
import { readOpenApiDocument } from 'petstore-sim/node'

const mswVersion = JSON.parse(readFileSync(new URL(import.meta.resolve('msw/package.json')), 'utf8')).version
const server = setupServer(...createSimulator({ seed: 1 }).handlers)
// msw 3 renamed msw 2's onUnhandledRequest to onUnhandledFrame.
server.listen(mswVersion.startsWith('2.') ? { onUnhandledRequest: 'error' } : { onUnhandledFrame: 'error' })
const answer = async (response) => ({
  status: response.status,
  body: await response.json(),
  limit: response.headers.get('x-ratelimit-limit'),
  remaining: response.headers.get('x-ratelimit-remaining'),
  reset: response.headers.get('x-ratelimit-reset'),
})
const listed = await answer(await fetch('https://api.example.com/v1/pets?limit=2', { headers: { Authorization: 'Bearer demo-pro-key' } }))
const refused = await answer(await fetch('https://api.example.com/v1/pets'))
server.close()
const { document } = await readOpenApiDocument()
console.log(JSON.stringify({ mswVersion, listed, refused, openApiTitle: document.info.title }))
`

interface Run {
  code: number | null
  output: string
}

function run(command: string, args: readonly string[], cwd: string, timeoutMs: number): Promise<Run> {
  // npm passes its configuration to scripts as npm_* variables; the user's project must not inherit this repository's.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD'))
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

/** Starts the project's installed `petstore-sim` binary on a free port and fetches one list. */
function runInstalledCli(project: string): Promise<{ status: number; limit: string | null }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_SIM_')))
  const child = spawn(
    process.execPath,
    [join(project, 'node_modules/petstore-sim/bin/petstore-sim.js'), '--port', '0', '--log', 'silent'],
    { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  let err = ''
  child.stderr.on('data', (chunk) => (err += chunk))
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the installed CLI printed no URL within 15 s: ${out}${err}`)), 15_000)
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    child.on('exit', (code) => reject(new Error(`the installed CLI exited (${code}): ${out}${err}`)))
  })
    .then(async (apiUrl) => {
      const response = await fetch(`${apiUrl}/pets?limit=1`, { headers: { Authorization: 'Bearer demo-free-key' } })
      await response.arrayBuffer()
      return { status: response.status, limit: response.headers.get('x-ratelimit-limit') }
    })
    .finally(() => child.kill('SIGKILL'))
}

const installs = new Map<string, Promise<{ project: string; install: Run }>>()

beforeAll(async () => {
  const { tarball } = packPackage(workDir)
  for (const major of mswMajors) {
    const project = join(workDir, `msw${major}`)
    mkdirSync(project)
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `consumer-msw${major}`, private: true, type: 'module' }))
    writeFileSync(join(project, 'scenario.mjs'), scenario)
    installs.set(
      major,
      run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `msw@${major}`], project, 150_000).then((install) => ({
        project,
        install,
      })),
    )
  }
  // Both installs at once; a failed one is reported by its own tests.
  await Promise.all(installs.values())
}, 180_000)

afterAll(() => rmSync(workDir, { recursive: true, force: true }))

describe.each(mswMajors)('installed next to msw %s', (major) => {
  it('installs with a plain npm install, with the docs the README links to, without the sources', async () => {
    const { project, install } = await installs.get(major)!
    expect(install.code, install.output).toBe(0)
    expect(install.output).not.toMatch(/ERESOLVE|peer dep/i)
    // The image's build files and the deployments ship too (issue 49): `podman build node_modules/petstore-sim`.
    expect(readdirSync(join(project, 'node_modules/petstore-sim')).sort()).toEqual([
      '.containerignore',
      '.dockerignore',
      'Containerfile',
      'LICENSE',
      'README.md',
      'bin',
      'compose.replicas.haproxy.cfg',
      'compose.replicas.yaml',
      'compose.yaml',
      'deploy',
      'dist',
      'docs',
      'fixtures',
      'package.json',
    ])
  })

  it('serves a 200 and a 401 with rate-limit headers under setupServer', async () => {
    const { project } = await installs.get(major)!
    const scenarioRun = await run(process.execPath, ['scenario.mjs'], project, 30_000)
    expect(scenarioRun.code, scenarioRun.output).toBe(0)
    const result = JSON.parse(scenarioRun.output.trim().split('\n').at(-1)!)
    expect(result.mswVersion).toMatch(new RegExp(`^${major}\\.`))
    expect(result.listed).toMatchObject({ status: 200, limit: '300', remaining: '299' })
    expect(result.listed.body).toHaveLength(2)
    expect(result.refused).toMatchObject({ status: 401, body: { code: 'missing_api_key', status: 401 }, limit: '60', remaining: '59' })
    for (const answer of [result.listed, result.refused]) expect(Number(answer.reset)).toBeGreaterThan(Date.now() / 1000)
    expect(result.openApiTitle).toMatch(/Animal Store/)
  })

  it('installs no Redis client (an optional peer), and --store then names the package to install, exit 2', async () => {
    const { project } = await installs.get(major)!
    const tree = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], project, 60_000)
    expect(tree.output).toMatch(/node_modules\/petstore-sim\n/)
    expect(tree.output).not.toMatch(/ioredis|@ioredis|redis/i)
    const store = await run(
      process.execPath,
      [
        join(project, 'node_modules/petstore-sim/bin/petstore-sim.js'),
        '--port',
        '0',
        '--store',
        'redis://127.0.0.1:1',
        '--store-wait',
        '500',
      ],
      project,
      15_000,
    )
    expect({ code: store.code, output: store.output }).toEqual({
      code: 2,
      output: 'petstore-sim: --store needs the Redis client ioredis, an optional peer dependency that is not installed: npm i ioredis\n',
    })
  })

  it('runs the installed petstore-sim command on that msw', async () => {
    const { project } = await installs.get(major)!
    expect(await runInstalledCli(project)).toEqual({ status: 200, limit: '60' })
  })
})
