// Issue #31, item 7: docs/verify.md's section on `prism mock` had drifted (14 passed and 12 failed, where Prism 5.16
// gives 13 and 13; pointed at `/v1`, as the page says a base URL ends, every request is a 404). This runs verify, as
// the page describes, against `prism mock fixtures/openapi.yaml` on loopback and compares with what the page says.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verify } from '../../src/verify/verify-runner.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const page = readFileSync(new URL('../../docs/verify.md', import.meta.url), 'utf8')
const section = page.slice(page.indexOf('## What a shape-only mock looks like to it'))

let prism: ReturnType<typeof spawn>
let prismUrl = ''

beforeAll(async () => {
  prism = spawn(
    process.execPath,
    [
      fileURLToPath(import.meta.resolve('@stoplight/prism-cli/dist/index.js')),
      'mock',
      'fixtures/openapi.yaml',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  prismUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism mock did not start within 30 s: ${output}`)), 30_000)
    prism.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk
      const match = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    prism.on('exit', (code) => reject(new Error(`prism mock exited (${code}): ${output}`)))
  })
}, 40_000)
afterAll(() => {
  prism?.kill('SIGKILL')
})

const run = (baseUrl: string) =>
  verify({ baseUrl, key: 'any-key', writes: true, limits: true, timeoutMs: 5000, maxWaitMs: 1000, sleep: async () => {} })

describe('docs/verify.md on prism mock', () => {
  it('says what a run at its root gives: the counts, and the failed checks it names', async () => {
    const report = await run(prismUrl)
    const counts =
      /\*\*exit 1, (\d+) checks failed, (\d+) passed, (\d+) skipped, (\d+) advisory failed\*\*, in (\d+) of (\d+) announced/.exec(section)
    expect(counts, 'the bold summary of the section').not.toBeNull()
    const passed = report.checks.filter((check) => check.outcome === 'pass').length
    expect([report.failed, passed, report.skipped, report.advisoryFailed, report.requests, report.budget]).toEqual(
      counts!.slice(1).map(Number),
    )
    const failed = report.checks.filter((check) => check.outcome === 'fail' && !check.advisory).map((check) => check.id)
    const named = [...section.matchAll(/^- (.+(?:\n {2}.+)*)/gm)].flatMap((match) =>
      [...match[1]!.matchAll(/`([\w.-]+)`/g)].map((id) => id[1]!),
    )
    for (const id of failed) expect(named, id).toContain(id)
    expect(report.checks.find((check) => check.id === 'limit.minimum')).toMatchObject({ outcome: 'fail', actual: '2 pets' })
  }, 60_000)

  it('says that with /v1 the first answer is a 404, named as the cause, with one check failed', async () => {
    const report = await run(`${prismUrl}/v1`)
    expect(report.causes?.map((cause) => cause.kind)).toEqual(['wrong-base-url'])
    expect(section.replace(/\s+/g, ' ')).toContain(
      `the report begins \`WRONG BASE URL: GET http://127.0.0.1:4010/v1/pets answered 404; …\` with ${report.failed} check failed and the rest not run`,
    )
    expect(report.requests).toBe(1)
    expect(report.checks.find((check) => check.outcome === 'fail')?.response?.split('\n')[0]).toBe('404')
  }, 60_000)
})
