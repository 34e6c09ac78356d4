import { afterAll, describe } from 'vitest'
import { defineApiScenarios } from './scenarios/api-scenarios.ts'
import { startInProcessTarget } from './support/in-process-target.ts'

describe('in-process (msw setupServer)', () => {
  const target = startInProcessTarget()
  afterAll(() => target.close())
  defineApiScenarios(() => target)
})
