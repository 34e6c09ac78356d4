import { describe, expect, it } from 'vitest'
import { apiReport, entryPoints, reportExports, reportFolder, updateCommand } from './api-report.ts'

// Issue #38, item 1: the public API is locked by API Extractor's reports (api-report/*.api.md), one per entry point
// of package.json `exports`. Any change to what an entry exports, or to a signature, fails here until the report is
// rewritten (`npm run api:update`) and committed: a deliberate diff, reviewed like code. Needs the build's
// declarations (dist/types), as `npm test` makes them first.

describe('the public API (api-report/*.api.md)', () => {
  it('has a report per entry point of package.json exports', () => {
    expect(entryPoints().map((entry) => `${entry.specifier} ${entry.report}`)).toEqual([
      'petstore-sim petstore-sim.api.md',
      'petstore-sim/node petstore-sim-node.api.md',
      'petstore-sim/verify petstore-sim-verify.api.md',
      'petstore-sim/playwright petstore-sim-playwright.api.md',
    ])
  })

  it.each(entryPoints())(
    'is what the build declares for $specifier, every type its calls take or return exported',
    (entry) => {
      const { unchanged, problems } = apiReport(entry, false)
      expect(problems, `API Extractor on ${entry.types}`).toEqual([])
      expect(unchanged, `${reportFolder}/${entry.report} differs from the build: run \`${updateCommand}\` and commit the diff`).toBe(true)
    },
    60_000,
  )

  it('reads the names a report declares, with their kinds', () => {
    const report = [
      'export function createSimulator(options?: SimulatorOptions): Simulator;',
      'export interface StandardSchemaV1<Input = unknown> {',
      '    readonly nested: string;',
      'export declare namespace StandardSchemaV1 {',
      'export const defaults: Readonly<{',
      'export abstract class Base {',
    ].join('\n')
    expect(reportExports(report)).toEqual([
      { name: 'createSimulator', kind: 'function' },
      { name: 'StandardSchemaV1', kind: 'interface' },
      { name: 'StandardSchemaV1', kind: 'namespace' },
      { name: 'defaults', kind: 'const' },
      { name: 'Base', kind: 'class' },
    ])
  })
})
