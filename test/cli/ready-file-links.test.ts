// --ready-file is written like --state and --pact (issue 45, Low 13): through a new temporary file opened with
// O_EXCL | O_NOFOLLOW and renamed over the name, so a symbolic link planted at the old fixed temporary name
// (`.<name>.<pid>.tmp`) or at the file's own name is never followed: the file it points to keeps its bytes.
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { writeReadyFile } from '../../src/cli/ready-file.ts'
import { runCli } from '../support/cli-process.ts'

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-ready-links-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

function victim(name: string): string {
  const path = join(directory, name)
  writeFileSync(path, 'keep me')
  return path
}

/** Polls (bounded: 10 s) for a non-empty file, as `until [ -s file ]` does. */
async function waitForFile(path: string, exited: () => boolean): Promise<string> {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline && !exited()) {
    if (existsSync(path) && readFileSync(path, 'utf8') !== '') return readFileSync(path, 'utf8')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`${path} was not written`)
}

describe('--ready-file and symbolic links', () => {
  it("does not follow a link planted at the CLI's old temporary name", async () => {
    const target = victim('precious-cli.txt')
    const path = join(directory, 'sim.url')
    const cli = runCli(['--port', '0', '--log', 'silent', '--ready-file', path])
    // Planted before the server listens (start-up takes far longer than this turn of the event loop).
    symlinkSync(target, join(directory, `.sim.url.${cli.child.pid}.tmp`))
    const text = await waitForFile(path, () => cli.child.exitCode !== null)
    expect(text).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\n$/)
    expect(readFileSync(target, 'utf8')).toBe('keep me')
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)
  })

  it('does not follow a link planted at the temporary name of this process', () => {
    const target = victim('precious-temporary.txt')
    const path = join(directory, 'in-process.url')
    symlinkSync(target, join(directory, `.in-process.url.${process.pid}.tmp`))
    writeReadyFile(path, 'http://127.0.0.1:4010/v1')
    expect(readFileSync(target, 'utf8')).toBe('keep me')
    expect(readFileSync(path, 'utf8')).toBe('http://127.0.0.1:4010/v1\n')
  })

  it('replaces a link at the file name itself, never its target', () => {
    const target = victim('precious-target.txt')
    const path = join(directory, 'linked.url')
    symlinkSync(target, path)
    writeReadyFile(path, 'http://127.0.0.1:4010/v1')
    expect(readFileSync(target, 'utf8')).toBe('keep me')
    expect(lstatSync(path).isSymbolicLink()).toBe(false)
    expect(readFileSync(path, 'utf8')).toBe('http://127.0.0.1:4010/v1\n')
  })
})
