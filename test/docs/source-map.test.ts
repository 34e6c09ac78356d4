import { readdirSync, readFileSync, statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// src/README.md is the contributors' map: its file tables must name every source file, and nothing that is not there.
//
// The rule: the first cell of a table row names a path under src/ in backticks. A row ending in `.ts` names that
// file; a row ending in `/` names a folder and stands for every .ts file under it (lanes and entries are described
// by folder: `app/`, `handlers/`, `node/`, `cli/`). The core is mapped file by file: no folder row under `core/`.
// Every .ts file under src/ must be named by a file row or lie under a folder row; every row must name a file or a
// folder (with .ts files in it) that exists.

const srcDir = new URL('../../src/', import.meta.url)
const map = readFileSync(new URL('README.md', srcDir), 'utf8')

function sourceFiles(folder: URL, prefix = ''): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(new URL(`${entry.name}/`, folder), `${prefix}${entry.name}/`)
      : entry.name.endsWith('.ts')
        ? [`${prefix}${entry.name}`]
        : [],
  )
}

/** The first cells of every table row that name a path (a header row's first cell is plain text). */
function mappedPaths(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => /^\| `([^`]+)` \|/.exec(line)?.[1])
    .filter((path): path is string => path !== undefined)
}

describe('src/README.md, the source map', () => {
  const files = sourceFiles(srcDir)
  const rows = mappedPaths(map)
  const fileRows = rows.filter((path) => path.endsWith('.ts'))
  const folderRows = rows.filter((path) => path.endsWith('/'))

  it('has rows of files and of folders only', () => {
    expect(files.length).toBeGreaterThan(40)
    expect(fileRows.length).toBeGreaterThan(30)
    expect(rows.filter((path) => !path.endsWith('.ts') && !path.endsWith('/'))).toEqual([])
  })

  it('names every .ts file under src/, by its own row or by a folder row outside core/', () => {
    expect(folderRows.filter((folder) => folder.startsWith('core/'))).toEqual([])
    const unmapped = files.filter((file) => !fileRows.includes(file) && !folderRows.some((folder) => file.startsWith(folder)))
    expect(unmapped).toEqual([])
  })

  it('names nothing that does not exist', () => {
    expect(fileRows.filter((file) => !files.includes(file))).toEqual([])
    const emptyFolders = folderRows.filter((folder) => {
      const exists = (() => {
        try {
          return statSync(new URL(folder, srcDir)).isDirectory()
        } catch {
          return false
        }
      })()
      return !exists || !files.some((file) => file.startsWith(folder))
    })
    expect(emptyFolders).toEqual([])
  })

  it('names each file once', () => {
    expect(fileRows.filter((file, index) => fileRows.indexOf(file) !== index)).toEqual([])
  })
})
