import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { callersMaxBytes } from '../../src/core/access/caller-buckets.ts'
import { defaults } from '../../src/core/defaults.ts'
import { coverageMaxBytes } from '../../src/core/journal/contract-coverage.ts'
import { apiRoutes } from '../../src/core/operations/api-routes.ts'
import { createSimulatorCore, demoKeySpec } from '../../src/core/simulator/simulator-core.ts'

// docs/journal.md's table of memory budgets (issue 45), kept equal to the code: each row's bytes at the defaults is
// what src/core/defaults.ts and the stores' own bounds make of them, and what a simulator at its defaults reports.
const text = readFileSync(new URL('../../docs/journal.md', import.meta.url), 'utf8')

it("docs/journal.md's memory budgets are the defaults' and a simulator's own", () => {
  const section = text.slice(text.indexOf('\n## Memory budgets\n'), text.indexOf('\n## Where the spec is silent'))
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| what') && !line.startsWith('| ---'))
    .map((line) => line.slice(2, -2).split(' | '))
  const bytes = Object.fromEntries(rows.map(([what, , figure]) => [what, Number(figure!.replaceAll(',', ''))]))
  const keys = Object.keys(demoKeySpec).length
  const world = {
    "the journal's exchanges": defaults.journalMaxBytes,
    "the pact's examples": defaults.pact.maxKeptBytes,
    'contract coverage': coverageMaxBytes(apiRoutes.length),
    "the callers' buckets": callersMaxBytes(defaults.maxAnonymousBuckets, keys),
  }
  const oneWorld = Object.values(world).reduce((sum, value) => sum + value, 0)
  expect(bytes).toEqual({ ...world, 'one world': oneWorld, 'every world': oneWorld * (1 + defaults.maxSandboxes) })
  expect(section).toContain(`(${apiRoutes.length} operations + 2 unmatched)`)
  // The figures a simulator at its defaults reports as its budgets.
  const memory = createSimulatorCore().memory()
  expect({
    "the journal's exchanges": memory.journal.maxBytes,
    "the pact's examples": memory.pact.maxBytes,
    'contract coverage': memory.coverage.maxBytes,
    "the callers' buckets": memory.callers.maxBytes,
    'one world': memory.maxBytes,
  }).toEqual({ ...world, 'one world': oneWorld })
})
