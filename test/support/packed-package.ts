import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** The package as `npm pack` makes it, unpacked: what a user's `node_modules/petstore-sim` holds. */
export interface PackedPackage {
  /** The tarball (`petstore-sim-<version>.tgz`). */
  readonly tarball: string
  /** The folder holding `node_modules/petstore-sim`: a project's root, from which the packed package resolves. */
  readonly project: string
  /** `<project>/node_modules/petstore-sim`: the tarball's files. */
  readonly packageDir: string
  readonly remove: () => void
}

/**
 * Packs the repository with `npm pack` (without its scripts: `npm test` has built `dist` first, and `prepack` would
 * build again) and unpacks the tarball into a folder of its own under `parent`. Under the repository's
 * node_modules by default, so that what the package does not ship (msw, vitest, the clients of the recipes) resolves
 * from there, while `petstore-sim` resolves to the tarball's files, not to the repository.
 */
export function packPackage(parent = join(root, 'node_modules', '.cache', 'petstore-sim-packed')): PackedPackage {
  mkdirSync(parent, { recursive: true })
  const project = mkdtempSync(join(parent, 'project-'))
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', project], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    // npm passes its configuration to scripts as npm_* variables: not to this one.
    env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD')),
  })
  const tarball = join(project, readdirSync(project).find((name) => name.endsWith('.tgz'))!)
  execFileSync('tar', ['-xzf', tarball, '-C', project], { timeout: 60_000 })
  mkdirSync(join(project, 'node_modules'))
  const packageDir = join(project, 'node_modules', 'petstore-sim')
  renameSync(join(project, 'package'), packageDir)
  return { tarball, project, packageDir, remove: () => rmSync(project, { recursive: true, force: true }) }
}
