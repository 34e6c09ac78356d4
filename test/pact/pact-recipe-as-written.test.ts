// Issue 49: docs/pact.md's Verifier example failed as a `.ts` file in a default (CommonJS) project, "Cannot use import
// statement outside a module", and the page did not say how to run it. Here it runs as the page says, under the name
// the page gives, with `node`, in a project whose package.json sets no "type": only the simulator's URL is this
// test's (port 0), and the pact is one a consumer's run recorded.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createNodeApp } from '../../src/node/node-app.ts'
import { startServer, type RunningServer } from '../../src/node/server.ts'
import { fencedBlocks } from '../support/docs-blocks.ts'
import { consumerRun } from '../support/pact-verification.ts'

const page = new URL('../../docs/pact.md', import.meta.url)
const root = fileURLToPath(new URL('../..', import.meta.url))
// A project of its own (Node strips no types under node_modules), whose node_modules is the repository's: there
// @pact-foundation/pact resolves, as in a project that installed it.
const project = mkdtempSync(join(tmpdir(), 'petstore-sim-pact-recipe-'))
symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'))
const servers: RunningServer[] = []
const start = async (seed: number) => {
  const server = await startServer({ app: createNodeApp({ seed }), port: 0, host: '127.0.0.1', log: 'silent' })
  servers.push(server)
  return server
}
let provider: RunningServer

beforeAll(async () => {
  const recorder = await start(7)
  const pact = await consumerRun(recorder.apiUrl, recorder.url, 'demo-pro-key')
  mkdirSync(join(project, 'pacts'))
  writeFileSync(join(project, 'pacts', 'web-animal-store.json'), JSON.stringify(pact))
  provider = await start(11)
})
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  rmSync(project, { recursive: true, force: true })
})

it('runs as the page says: saved under the name it gives, `node <file>`, in a project of the default module type', async () => {
  const text = readFileSync(page, 'utf8')
  const command = /`node ([\w-]+\.mts)`/.exec(text)
  expect(command, 'docs/pact.md names the file and the command that runs the Verifier example').not.toBeNull()
  const file = command![1]!
  const [recipe] = fencedBlocks(page, '## Your pacts against the simulator', 'ts')
  expect(recipe).toContain("const simulator = 'http://127.0.0.1:4010'")
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'web', private: true }))
  writeFileSync(join(project, file), recipe!.replace("'http://127.0.0.1:4010'", JSON.stringify(provider.url)))
  const result = await promisify(execFile)(process.execPath, [file], {
    cwd: project,
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true', NO_COLOR: '1' },
    timeout: 120_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout}${error.stderr}` }),
  )
  expect(result.output).not.toMatch(/Cannot use import statement|ERR_/)
  expect(result.code, result.output).toBe(0)
  expect(result.output).toMatch(/Verifying a pact between web\S* and animal-store|animal-store/)
}, 150_000)
