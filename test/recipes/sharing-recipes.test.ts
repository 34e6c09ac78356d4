// docs/sharing.md's per-CI-job recipe as the page shows it: the script run for two jobs at once against one simulator,
// each job in a sandbox of its own, deleted when it ends.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startCli } from '../support/cli-process.ts'
import { collectRun, type CollectedRun } from '../support/collected-run.ts'
import { fencedBlocks } from '../support/docs-blocks.ts'

const page = new URL('../../docs/sharing.md', import.meta.url)
const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-sharing-'))
let cli: Awaited<ReturnType<typeof startCli>>
beforeAll(async () => {
  cli = await startCli(['--port', '0', '--log', 'silent'])
})
afterAll(async () => {
  await cli?.stop()
  rmSync(directory, { recursive: true, force: true })
})

// The job's tests: a pet created in a fresh catalogue gets id 51 and makes 51 pets, whatever the other job does.
const e2e = `node -e "
const api = process.env.API_URL, headers = { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json' };
(async () => {
  const created = await (await fetch(api + '/pets', { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) })).json();
  const pets = await (await fetch(api + '/pets?limit=100', { headers })).json();
  console.log('e2e: ' + api + ' id ' + created.id + ' pets ' + pets.length);
  process.exit(created.id === 51 && pets.length === 51 ? 0 : 1);
})()"`

/** The script in a project whose `e2e` runs the tests above (bounded: killed after 60 s). */
function runJob(jobId: string): Promise<CollectedRun> {
  const [script] = fencedBlocks(page, '## One sandbox per CI job', 'bash')
  const folder = join(directory, `job-${jobId}`)
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'app', private: true, scripts: { e2e } }))
  writeFileSync(join(folder, 'job.sh'), script!)
  const path = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`
  return collectRun('bash', ['job.sh'], {
    cwd: folder,
    env: { ...process.env, PATH: path, PETSTORE_SIM_URL: cli.origin, CI_JOB_ID: jobId },
    timeout: 60_000,
  })
}

it('runs two jobs at once, each in its own sandbox named after its id, and deletes both', async () => {
  const [first, second] = await Promise.all([runJob('4711'), runJob('Build_Linux.2')])
  expect(first!.code, first!.stderr).toBe(0)
  expect(second!.code, second!.stderr).toBe(0)
  expect(first!.stdout).toContain(`${cli.origin}/sandboxes/job-4711/v1 id 51 pets 51`)
  expect(second!.stdout).toContain(`${cli.origin}/sandboxes/job-build-linux-2/v1 id 51 pets 51`)
  const listed = (await (await fetch(`${cli.origin}/__sim/sandboxes`)).json()) as { sandboxes: unknown[] }
  expect(listed.sandboxes).toEqual([])
  expect(await (await fetch(`${cli.origin}/__sim/requests/count`)).json()).toEqual({ count: 0 })
}, 90_000)
