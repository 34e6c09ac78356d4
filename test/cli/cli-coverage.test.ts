import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ContractCoverage } from '../../src/core/journal/contract-coverage.ts'
import { createSimulator } from '../../src/index.ts'
import { startCli } from '../support/cli-process.ts'

// `--coverage <file>` (issue #16): contract coverage written at shutdown, and its summary on the pretty log.

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-coverage-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

async function runAndStop(file: string, log = 'pretty') {
  const cli = await startCli(['--port', '0', '--log', log, '--coverage', file])
  const auth = { authorization: 'Bearer demo-pro-key' }
  expect((await fetch(`${cli.apiUrl}/pets?limit=1`, { headers: auth })).status).toBe(200)
  expect((await fetch(`${cli.apiUrl}/pets/1`, { headers: auth })).status).toBe(200)
  expect((await fetch(`${cli.apiUrl}/pets`, { method: 'POST', headers: { ...auth, prefer: 'code=429' } })).status).toBe(429)
  expect(await cli.stop()).toBe(0)
  return cli
}

describe('--coverage <file>', () => {
  it('writes JSON at shutdown, and prints the one-line summary on the pretty log', async () => {
    const file = join(directory, 'coverage.json')
    const cli = await runAndStop(file)
    const coverage = JSON.parse(readFileSync(file, 'utf8')) as ContractCoverage
    const createPet = coverage.operations.find((operation) => operation.operation === 'createPet')!
    expect(createPet.statuses.find((status) => status.status === 429)).toMatchObject({ count: 1, forced: 1, behaviour: 0 })
    expect(createPet.statuses.find((status) => status.status === 201)).toMatchObject({ count: 0 })
    expect(coverage.deprecatedCalls).toEqual([{ operation: 'getPet', removal: '2030-12-05T00:00:00.000Z', calls: 1 }])
    expect(cli.stdout()).toMatch(
      /contract coverage: 3 of the spec's 13 answers met, and 0 of the simulator's own 7; deprecated getPet \(removed 2030-12-05\) called 1 time\n/,
    )
  })

  it('writes Markdown when the name ends in .md', async () => {
    const file = join(directory, 'coverage.md')
    await runAndStop(file, 'silent')
    const markdown = readFileSync(file, 'utf8')
    expect(markdown).toContain('# Contract coverage')
    expect(markdown).toContain('## createPet: POST /pets')
    expect(markdown).toContain("contract coverage: 3 of the spec's 13 answers met, and 0 of the simulator's own 7;")
    expect(markdown).toContain('| 429 | yes, the spec | 1 | 0 | 1 | 0 |')
    expect(markdown).toContain('| 201 | yes, the spec | **never** | 0 | 0 | 0 |')
    expect(markdown).toContain("| 507 | yes, the simulator's own | **never** | 0 | 0 | 0 |")
  })
})

describe('docs/journal.md, contract coverage', () => {
  it("gives the totals a simulator counts, the spec's first (issue #31: both examples said 19 of 20)", () => {
    const page = readFileSync(new URL('../../docs/journal.md', import.meta.url), 'utf8')
    const { summary } = createSimulator().coverage()
    const documented = JSON.parse(/^```json\n(\{\n {2}"operations"[\s\S]*?)^```$/m.exec(page)![1]!).summary
    expect({ spec: documented.spec.documented, simulator: documented.simulator.documented, all: documented.documented }).toEqual({
      spec: summary.spec.documented,
      simulator: summary.simulator.documented,
      all: summary.documented,
    })
    const line = /^contract coverage: \d+ of the spec's (\d+) answers met, and \d+ of the simulator's own (\d+);/m.exec(page)
    expect(line, 'the one-line summary of docs/journal.md').not.toBeNull()
    expect([Number(line![1]), Number(line![2])]).toEqual([summary.spec.documented, summary.simulator.documented])
    expect([summary.spec.documented, summary.simulator.documented]).toEqual([13, 7])
  })
})
