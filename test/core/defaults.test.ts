import { describe, expect, it } from 'vitest'
import { createProgram } from '../../src/cli/cli-options.ts'
import { defaults } from '../../src/core/defaults.ts'
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'

describe('defaults are declared once', () => {
  it('gives the CLI the library defaults', () => {
    // What the CLI runs with when given no flags (and no PETSTORE_SIM_* variables).
    const cliDefaults = createProgram().exitOverride().parse([], { from: 'user' }).opts()
    expect({
      port: cliDefaults.port,
      host: cliDefaults.host,
      seed: cliDefaults.seed,
      pets: cliDefaults.pets,
      basePath: cliDefaults.basePath,
      banAfter: cliDefaults.banAfter,
      banFor: cliDefaults.banFor,
      bodyLimit: cliDefaults.bodyLimit,
      log: cliDefaults.log,
      defaultStatus: cliDefaults.defaultStatus,
      engine: cliDefaults.engine,
      headersTimeout: cliDefaults.headersTimeout,
      requestTimeout: cliDefaults.requestTimeout,
      maxPipelined: cliDefaults.maxPipelined,
      prefer: cliDefaults.prefer,
    }).toEqual({
      port: defaults.port,
      host: defaults.host,
      seed: defaults.seed,
      pets: defaults.pets,
      basePath: defaults.basePath,
      banAfter: defaults.ban.after,
      banFor: defaults.ban.durationMs,
      bodyLimit: defaults.bodyLimit,
      log: defaults.cliLog,
      defaultStatus: defaults.defaultStatus,
      engine: defaults.engine,
      headersTimeout: defaults.headersTimeoutMs,
      requestTimeout: defaults.requestTimeoutMs,
      maxPipelined: defaults.maxPipelinedRequests,
      prefer: true,
    })
  })

  it('gives a simulator created without options the same defaults', () => {
    const simulator = createSimulatorCore()
    expect({ basePath: simulator.basePath, pets: simulator.store.size, bodyLimit: simulator.bodyLimit }).toEqual({
      basePath: defaults.basePath,
      pets: defaults.pets,
      bodyLimit: defaults.bodyLimit,
    })
  })

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(defaults)).toBe(true)
    expect(Object.isFrozen(defaults.ban)).toBe(true)
  })
})
