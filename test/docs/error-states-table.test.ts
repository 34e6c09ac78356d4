import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { apiRoutes } from '../../src/core/operations/api-routes.ts'

// Issue 37: docs/error-states.md's table of the statuses `Prefer: code=` forces left out createPet's 507, and no test
// held it to the route table. Every operation's row is its `statuses`, in order.
it('docs/error-states.md lists every status each operation can be forced to answer, as the route table has them', () => {
  const page = readFileSync(new URL('../../docs/error-states.md', import.meta.url), 'utf8')
  const table = page.slice(page.indexOf('| operation | statuses you can force |'))
  const rows = [...table.matchAll(/^\| (\w+) \| ([\d, ]+) \|$/gm)].map(([, operation, statuses]) => [
    operation,
    statuses!.split(',').map((status) => Number(status.trim())),
  ])
  expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(apiRoutes.map((route) => [route.operation, [...route.statuses]])))
})
