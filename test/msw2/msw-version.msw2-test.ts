// Guards the msw 2 runs themselves: the simulator's handlers and the tests'
// setupServer really come from the msw 2 under test, not from msw 3.
import { createRequire } from 'node:module'
import { http } from 'msw'
import { createSimulator as createSimulatorOfPackage } from 'petstore-sim'
import { expect, it } from 'vitest'
import { createSimulator } from '../../src/simulator.ts'

const mswPackage = process.env.PETSTORE_SIM_MSW_PACKAGE!
const require = createRequire(import.meta.url)

it('runs on the msw 2 under test', async () => {
  expect(mswPackage).toMatch(/^msw-2-(latest|oldest)$/)
  expect(require(`${mswPackage}/package.json`).version).toMatch(/^2\./)
  const underTest = await import(`${mswPackage}`)
  expect(http).toBe(underTest.http)
  // The simulator, from the sources and from the built package (the recipe's import), builds msw 2 handlers.
  expect(createSimulator().handlers[0]).toBeInstanceOf(underTest.RequestHandler)
  expect(createSimulatorOfPackage().handlers[0]).toBeInstanceOf(underTest.RequestHandler)
})
