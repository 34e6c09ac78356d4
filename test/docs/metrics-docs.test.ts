import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { metricFamilies } from '../../src/app/metrics/metric-families.ts'

const page = readFileSync(new URL('../../docs/metrics.md', import.meta.url), 'utf8')

describe('docs/metrics.md', () => {
  it('lists every metric the endpoint serves, with its type, and no other', () => {
    const rows = page
      .split('\n')
      .filter((line) => line.startsWith('| `petstore_sim_'))
      .map((line) => line.split(' | ').slice(0, 2))
      .map(([name, type]) => `${name!.slice(3, -1)} ${type}`)
    expect(rows).toEqual(Object.values(metricFamilies).map((family) => `${family.name} ${family.type}`))
  })
})
