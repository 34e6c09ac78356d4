import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSimulatorCore } from '../src/core/simulator/simulator-core.ts'
import { openStateFile, StateFileError } from '../src/node/state-file.ts'

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-state-file-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('openStateFile', () => {
  it('starts without a file, writes on close, and restores from it', async () => {
    const path = join(directory, 'first.json')
    const simulator = createSimulatorCore({ pets: 3 })
    const file = openStateFile(simulator, { path, intervalMs: 0 })
    expect(file.loaded).toBe(false)
    simulator.store.create({ name: 'Kept', categoryId: 1 })
    expect(existsSync(path)).toBe(false)
    await file.close()
    const next = createSimulatorCore({ pets: 3 })
    expect(openStateFile(next, { path, intervalMs: 0 }).loaded).toBe(true)
    expect(next.store.get(4)?.name).toBe('Kept')
    // No temporary file is left behind.
    expect(readdirSync(directory).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('writes every interval only when something changed', async () => {
    const path = join(directory, 'interval.json')
    const simulator = createSimulatorCore({ pets: 20_000 })
    const errors: Error[] = []
    const file = openStateFile(simulator, { path, intervalMs: 1, onError: (error) => errors.push(error) })
    simulator.store.create({ name: 'One', categoryId: 1 })
    simulator.reset()
    // A 1 ms interval: ticks come during writes, and after them only a change causes another.
    const deadline = Date.now() + 5000
    while (!existsSync(path) && Date.now() < deadline) await sleep(5)
    await sleep(50)
    const written = statSync(path).mtimeMs
    await sleep(100)
    expect(statSync(path).mtimeMs).toBe(written)
    simulator.clock.advance(1000)
    const again = Date.now() + 5000
    while (statSync(path).mtimeMs === written && Date.now() < again) await sleep(5)
    expect(statSync(path).mtimeMs).toBeGreaterThan(written)
    await file.close()
    expect(errors).toEqual([])
    expect(JSON.parse(readFileSync(path, 'utf8')).clock.offsetMs).toBe(1000)
  })

  it('refuses a file it cannot restore, naming it, and leaves it as it is', () => {
    const path = join(directory, 'bad.json')
    writeFileSync(path, '{"format": 1}')
    expect(() => openStateFile(createSimulatorCore(), { path })).toThrow(StateFileError)
    expect(() => openStateFile(createSimulatorCore(), { path })).toThrow(new RegExp(`${path}.*catalogue`))
    expect(readFileSync(path, 'utf8')).toBe('{"format": 1}')
  })
})
