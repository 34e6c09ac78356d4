import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import type { ProviderStateParam } from '../../src/core/simulator/provider-state-params.ts'
import { describeProviderStates } from '../../src/core/simulator/provider-states.ts'
import { checkIds } from '../../src/verify/check-catalogue.ts'

// Issue 36: the provider states are declared once (src/core/simulator/provider-state-table.ts); the handler checks
// against that declaration, GET /__sim/provider-states lists it, and docs/pact.md's table is this rendering of it.

function paramCell(param: ProviderStateParam): string {
  const presence = param.required
    ? 'required'
    : param.default === undefined
      ? 'optional'
      : `default ${typeof param.default === 'number' ? param.default : `\`${param.default}\``}`
  const range =
    param.type === 'integer'
      ? `${param.minimum} to ${param.maximum}`
      : param.values !== undefined
        ? `one of ${param.values.join(', ')}`
        : param.maxLength !== undefined
          ? `1 to ${param.maxLength} characters`
          : undefined
  return `\`${param.name}\` (${[param.type, presence, range].filter(Boolean).join(', ')}): ${param.description}`
}

it("docs/pact.md's provider-state table is the states as declared: params, what holds after setup, teardown", () => {
  const page = readFileSync(new URL('../../docs/pact.md', import.meta.url), 'utf8')
  const section = page.slice(page.indexOf('## Provider states'), page.indexOf('## Your pacts against the simulator'))
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.slice(2, -2).split(' | '))
  const expected = describeProviderStates().map((state) => [
    state.name === '' ? '`""` (no state)' : `\`${state.name}\``,
    state.params.length === 0 ? '—' : state.params.map(paramCell).join('; '),
    state.setup,
    state.teardown,
  ])
  expect(rows).toEqual(expected)
})

// Issue 36 asks that docs/pact.md's statements about the spec be true. Its "what verify does" section said verify
// checks a ban and its length, Deprecation and Sunset headers and a 410 after the removal date: the spec shows none of
// them and verify checks none. Each of its points now names the checks that back it, and those checks exist.
it("docs/pact.md's list of what verify checks and a pact cannot names verify's own checks, each of them real", () => {
  const page = readFileSync(new URL('../../docs/pact.md', import.meta.url), 'utf8')
  const section = page.slice(page.indexOf('## What a pact cannot say'), page.indexOf('## `@pactflow/pact-msw-adapter`'))
  const points = section.split('\n- ').slice(1)
  expect(points.length).toBeGreaterThan(0)
  for (const point of points) {
    const named = [...point.matchAll(/`([a-zA-Z]+\.[a-z0-9-]+)`/g)].map((match) => match[1])
    expect(named.length, point).toBeGreaterThan(0)
    for (const id of named) expect(checkIds, point).toContain(id)
  }
  expect(section).not.toMatch(/ban: that|answers 410 after/)
})
