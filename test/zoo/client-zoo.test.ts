import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gradeHar } from '../../src/core/grading/har-grading.ts'
import type { ClientReport } from '../../src/core/grading/client-grader.ts'
import { startCli } from '../support/cli-process.ts'
import { misbehaving, wellBehaved, type ZooClient, type ZooWorld } from './zoo-clients.ts'

// The zoo (issue 48): real clients against the real CLI, each in a sandbox of its own, on a key with custom limits
// (enterprise:3/1000) so that 429s come after three requests. Every well-behaved client gets no finding at all (no
// false accusation), every misbehaving one exactly the rule ids it earned; each sandbox's HAR export grades to the
// same report. The hand-written clients wait by moving their world's frozen clock (no real waiting); the library
// clients wait in real time, at most 2 s each, all at once.

let cli: Awaited<ReturnType<typeof startCli>>
beforeAll(async () => {
  cli = await startCli(['--port', '0', '--log', 'silent', '--key', 'zoo-key=enterprise:3/1000', '--max-sandboxes', '50'])
})
afterAll(async () => {
  await cli?.stop()
})

const control = async (sandbox: string, path: string, body?: unknown) => {
  const response = await fetch(`${cli.origin}/sandboxes/${sandbox}/__sim${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response
}

/** A world for one client: its sandbox, its clock (running from 1.5 s before a minute ends, or frozen), its faults. */
async function worldFor(name: string, clock: 'running' | 'frozen', faults: readonly unknown[] = []): Promise<ZooWorld> {
  const sandbox = name
    .replace(/[^a-z0-9]+/gi, '-')
    .toLowerCase()
    .replace(/^-|-$/g, '')
  const made = await fetch(`${cli.origin}/__sim/sandboxes/${sandbox}`, { method: 'PUT' })
  if (made.status !== 201) throw new Error(`sandbox ${sandbox}: ${made.status}`)
  await control(
    sandbox,
    '/clock',
    clock === 'running' ? { set: '2030-06-15T10:00:58.500Z', freeze: false } : { set: '2030-06-15T10:00:00Z', freeze: true },
  )
  for (const fault of faults) await control(sandbox, '/faults', fault)
  return {
    apiUrl: `${cli.origin}/sandboxes/${sandbox}/v1`,
    key: 'zoo-key',
    sleep: async (milliseconds) => {
      await control(sandbox, '/clock', { advance: Math.max(0, Math.ceil(milliseconds)) })
    },
    now: async () => ((await (await control(sandbox, '/clock')).json()) as { epochMs: number }).epochMs,
  }
}

const sandboxOf = (world: ZooWorld) => world.apiUrl.slice(`${cli.origin}/sandboxes/`.length, -'/v1'.length)

async function reportOf(world: ZooWorld): Promise<ClientReport> {
  return (await (await control(sandboxOf(world), '/clients')).json()) as ClientReport
}

const rulesOf = (report: ClientReport) =>
  [...new Set(report.callers.flatMap((grade) => grade.findings.map((finding) => finding.rule)))].sort()

/** Runs the clients at once, each in its world, and returns each one's report. */
async function run(clients: ReadonlyArray<readonly [string, ZooClient, ZooWorld]>) {
  await Promise.all(clients.map(([, client, world]) => client(world)))
  return Promise.all(clients.map(async ([name, , world]) => [name, await reportOf(world), world] as const))
}

const libraries = new Set(['p-retry', 'ky', 'axios-retry', 'got'])

describe('the client zoo', () => {
  it('accuses no well-behaved client: p-retry, ky, axios-retry, got and two hand-written ones', async () => {
    const clients = await Promise.all(
      Object.entries(wellBehaved).map(
        async ([name, client]) => [name, client, await worldFor(`good ${name}`, libraries.has(name) ? 'running' : 'frozen')] as const,
      ),
    )
    const results = await run(clients)
    for (const [name, report] of results) {
      expect({ name, rules: rulesOf(report), verdict: report.verdict }).toEqual({ name, rules: [], verdict: 'pass' })
      // Each met the limit, five listings on three a minute: the headers' reader waited before a 429, the others
      // retried after one (more than five requests sent).
      const sent = report.callers[0]!.requests
      if (name === 'rate-limit headers') expect(sent, name).toBe(5)
      else expect(sent, name).toBeGreaterThan(5)
    }
  })

  it('gives every misbehaving client exactly the rule ids it earned', async () => {
    const clients = await Promise.all(
      Object.entries(misbehaving).map(
        async ([name, { client }]) =>
          [
            name,
            client,
            await worldFor(
              `bad ${name}`,
              'frozen',
              name.startsWith('createPet') ? [{ operation: 'createPet', fault: 'hang', hangMs: 400, times: 1 }] : [],
            ),
          ] as const,
      ),
    )
    const results = await run(clients)
    for (const [name, report, world] of results) {
      expect({ name, rules: rulesOf(report) }).toEqual({ name, rules: [...misbehaving[name]!.rules].sort() })
      // The same report from the world's HAR export, graded offline.
      const har = await (await control(sandboxOf(world), '/requests.har')).text()
      expect(gradeHar(har), name).toEqual(report)
    }
  })
})
