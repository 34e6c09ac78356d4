import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { defaults } from '../core/defaults.ts'
import { sandboxNamePattern } from '../core/simulator/sandbox-registry.ts'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'
import type { SandboxDirectory } from '../app/control/sandbox-routes.ts'
import { writeAtomically } from './atomic-write.ts'
import { readInputFile } from './input-file.ts'

/** The sandboxes' state files beside a `--state` file: one snapshot per sandbox, `<path>.sandboxes/<name>.json`. */
export interface SandboxStateFiles {
  /** The sandboxes restored at start. */
  readonly restored: readonly string[]
  /** Whether a sandbox changed, was made or was forgotten since the last save. */
  dirty(): boolean
  /** Writes each changed sandbox's snapshot (atomically) and removes the files of sandboxes gone. */
  save(): Promise<void>
}

/**
 * Restores every sandbox saved beside `path` (made again, each from its snapshot), then keeps their files: a file per
 * sandbox, so a save writes only the sandboxes that changed, and a sandbox's file is the same snapshot format as the
 * default world's (`GET /sandboxes/<name>/__sim/snapshot`). Throws an `Error` naming the file it cannot restore.
 */
export function openSandboxStateFiles(sandboxes: SandboxDirectory, path: string): SandboxStateFiles {
  const folder = `${path}.sandboxes`
  const written = new Set<string>()
  const saved = listFolder(folder)
    .sort()
    .filter((file) => file.endsWith('.json') && sandboxNamePattern.test(file.slice(0, -'.json'.length)))
  // Checked before any is made: restoring one past the cap would fail naming that file, with advice (a DELETE) that a
  // simulator which does not start cannot take.
  if (saved.length > sandboxes.max) {
    throw new Error(
      `${folder} holds ${saved.length} saved sandboxes, more than the cap (--max-sandboxes ${sandboxes.max}): raise the cap, or remove the files of the sandboxes not needed`,
    )
  }
  for (const file of saved) {
    const name = file.slice(0, -'.json'.length)
    const text = readInputFile(join(folder, file), defaults.maxStateFileBytes)
    if (text.length === 0) continue
    try {
      sandboxes.create(name).world.simulator.restore(JSON.parse(text))
    } catch (error) {
      throw new Error(`${join(folder, file)} is not a state this simulator can restore: ${(error as Error).message}`, { cause: error })
    }
    written.add(name)
  }
  // Each sandbox's changes, from its own events; a sandbox seen for the first time is unsaved.
  const marks = new WeakMap<SimulatorCore, { dirty: boolean }>()
  const restored = [...written]
  for (const name of restored) watch(sandboxes.find(name)!.simulator, false)
  function watch(simulator: SimulatorCore, dirty: boolean): { dirty: boolean } {
    const mark = { dirty }
    simulator.events.subscribe(() => {
      mark.dirty = true
    })
    marks.set(simulator, mark)
    return mark
  }
  const markOf = (simulator: SimulatorCore) => marks.get(simulator) ?? watch(simulator, true)

  return {
    restored,
    dirty() {
      const listed = sandboxes.list()
      return listed.length !== written.size || listed.some((entry) => !written.has(entry.name) || markOf(entry.world.simulator).dirty)
    },
    async save() {
      const listed = sandboxes.list()
      if (listed.length > 0) mkdirSync(folder, { recursive: true })
      for (const { name, world } of listed) {
        const mark = markOf(world.simulator)
        if (!mark.dirty && written.has(name)) continue
        mark.dirty = false
        try {
          await writeAtomically(join(folder, `${name}.json`), world.simulator.snapshot())
        } catch (error) {
          mark.dirty = true
          throw error
        }
        written.add(name)
      }
      const held = new Set(listed.map((entry) => entry.name))
      for (const name of written) {
        if (held.has(name)) continue
        rmSync(join(folder, `${name}.json`), { force: true })
        written.delete(name)
      }
    },
  }
}

function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}
