import { afterAll, beforeAll, describe } from 'vitest'
import { defineApiScenarios } from './scenarios/api-scenarios.ts'
import type { ApiTarget } from './support/api-target.ts'
import { startCliTarget } from './support/cli-target.ts'

describe('standalone CLI over real HTTP', () => {
  let target: ApiTarget & { close(): Promise<unknown> }
  beforeAll(async () => {
    target = await startCliTarget()
  })
  afterAll(() => target.close())
  defineApiScenarios(() => target)
})
