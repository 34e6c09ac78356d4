import { unwatchFile, watchFile, type Stats } from 'node:fs'
import type { ReconfigurableOptions, SimulatorCore } from '../core/simulator/simulator-core.ts'

/** What `--watch` reads again when a file changes: the simulator's reloadable options, the other options, and the files they came from. */
export interface WatchedInputs {
  readonly simulator: ReconfigurableOptions
  /** Every other option, to tell which changes need a restart. */
  readonly rest: Readonly<Record<string, unknown>>
  /** The files to watch: the config file (also one that does not exist yet), fixtures, keys, faults. */
  readonly files: readonly string[]
}

export interface WatchReport {
  info(line: string): void
  warn(line: string): void
}

/**
 * `--watch`: polls the files the options came from (every `pollMs`; polling,
 * not `fs.watch`, because editors save by writing a new file and renaming it
 * over the old one, which ends an `fs.watch` on the old file) and, after one
 * changes, reads every input again. A valid change becomes
 * `simulator.reconfigure`: a reset into the active scenario made from the new
 * inputs. An invalid one (a JSON error, an unknown key, a bad pet) changes
 * nothing and is reported; so is a change only a restart can apply (`port`).
 *
 * @returns a function that stops watching.
 */
export function watchInputs(
  simulator: SimulatorCore,
  initial: WatchedInputs,
  read: () => WatchedInputs,
  report: WatchReport,
  pollMs = 250,
): () => void {
  let current = initial
  let watched = new Set<string>()
  let pending: ReturnType<typeof setTimeout> | undefined

  const onChange = (now: Stats, before: Stats) => {
    if (now.mtimeMs === before.mtimeMs && now.size === before.size && now.ino === before.ino) return
    // Editors write in several steps: one reload after they are done.
    clearTimeout(pending)
    pending = setTimeout(reload, 100)
    pending.unref()
  }
  const follow = (files: readonly string[]) => {
    const next = new Set(files)
    for (const file of watched) if (!next.has(file)) unwatchFile(file, onChange)
    for (const file of next) if (!watched.has(file)) watchFile(file, { interval: pollMs, persistent: false }, onChange)
    watched = next
  }

  function reload() {
    let next: WatchedInputs
    try {
      next = read()
    } catch (error) {
      report.warn(`--watch: not reloaded, the simulator keeps its state: ${(error as Error).message}`)
      return
    }
    follow(next.files)
    const changed = changedKeys(current.simulator, next.simulator)
    const restart = changedKeys(current.rest, next.rest)
    if (restart.length > 0) report.warn(`--watch: ${restart.join(', ')} changed; restart petstore-sim to apply`)
    if (changed.length === 0) {
      current = { ...next, rest: current.rest }
      return
    }
    try {
      simulator.reconfigure(next.simulator)
    } catch (error) {
      report.warn(`--watch: not reloaded, the simulator keeps its state: ${(error as Error).message}`)
      return
    }
    // The options a restart would apply stay as they were, so that the next reload names them again.
    current = { ...next, rest: current.rest }
    report.info(
      `--watch: reloaded (${changed.join(', ')} changed): a reset into scenario ${simulator.scenario}, ${simulator.store.size} pets`,
    )
  }

  follow(initial.files)
  return () => {
    clearTimeout(pending)
    follow([])
  }
}

function changedKeys(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...keys].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
}
