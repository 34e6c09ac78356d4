// docs/sharing.md's recipes of the shared store, as the page shows them: two simulators on the page's Redis (on a free
// port), one simulator with --workers 2 (on a Redis of test/support/redis-server.ts), and the compose example checked
// against the Compose specification (the container step runs it with podman: test/container/replicas.test.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { errorStatuses } from '../../src/core/http/error-codes.ts'
import { startCli } from '../support/cli-process.ts'
import { collectRun } from '../support/collected-run.ts'
import { composeValidator } from '../support/compose-schema.ts'
import { fencedBlocks } from '../support/docs-blocks.ts'
import { redisServerBinary, startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { closedPort as freePort } from '../support/closed-port.ts'

const page = new URL('../../docs/sharing.md', import.meta.url)
const shownStore = 'redis://127.0.0.1:6379'
let redis: RedisServer
beforeAll(async () => {
  redis = await startRedisServer({ tcp: true })
}, 30_000)
afterAll(async () => {
  await redis?.stop()
})

/** How a recipe starts the simulator: `npx petstore-sim` in the foreground, the package's own command in the background. */
const simulatorLine = /^(?:npx petstore-sim|\.\/node_modules\/\.bin\/petstore-sim) /

/** The simulator lines of a block, as arguments: on the test's Redis and a free port, in the foreground. */
function simulatorCommands(block: string, store: string): string[][] {
  return block
    .split('\n')
    .filter((line) => simulatorLine.test(line))
    .map((line) =>
      line
        .replace(simulatorLine, '')
        .replace(/ &$/, '')
        .split(' ')
        .map((arg) => (arg === shownStore ? store : arg))
        .map((arg, index, args) => (args[index - 1] === '--port' ? '0' : arg)),
    )
}

/** `demo-free-key` (60/min) on a frozen clock: `count` requests spread over the origins, with their statuses. */
async function burst(origins: readonly string[], count: number): Promise<number[]> {
  await fetch(`${origins[0]}/__sim/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"freeze":true}' })
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const response = await fetch(`${origins[index % origins.length]}/v1/pets?limit=1`, {
        headers: { authorization: 'Bearer demo-free-key' },
      })
      await response.arrayBuffer()
      return response.status
    }),
  )
}

const statusCounts = (statuses: readonly number[]) => ({
  ok: statuses.filter((status) => status === 200).length,
  limited: statuses.filter((status) => status === 429).length,
})

describe('two simulators on one Redis (docs/sharing.md)', () => {
  it('are one API: a pet created through one is read through the other, and the limit counts over both', async () => {
    const [block] = fencedBlocks(page, '## Two simulators on one Redis', 'bash')
    // The page's Redis, as shown but on a free port, in a folder of its own (it saves nothing there: --save '').
    const port = await freePort()
    const redisLine = block!.split('\n').find((line) => line.startsWith('redis-server '))!
    expect(redisLine).toBe("redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes")
    const folder = mkdtempSync(join(tmpdir(), 'petstore-sim-recipe-redis-'))
    const binary = redisServerBinary()!
    const started = await collectRun(
      'bash',
      ['-c', `${redisLine.replace('redis-server', binary).replace('6379', String(port))} --pidfile ${folder}/redis.pid --dir ${folder}`],
      {
        cwd: folder,
        timeout: 10_000,
      },
    )
    expect(started.code, started.stderr).toBe(0)
    const commands = simulatorCommands(block!, `redis://127.0.0.1:${port}`)
    expect(commands).toHaveLength(2)
    const simulators = await Promise.all(
      commands.map((args) => startCli([...args, '--log', 'silent'], {}, 30_000).catch((error: Error) => error)),
    )
    try {
      for (const simulator of simulators) if (simulator instanceof Error) throw simulator
      const [first, second] = simulators.map((simulator) => (simulator as Exclude<typeof simulator, Error>).origin) as [string, string]
      const headers = { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json' }
      const created = await fetch(`${first}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Shared', categoryId: 1 }) })
      expect(created.status).toBe(201)
      const { id } = (await created.json()) as { id: number }
      const read = await fetch(`${second}/v1/pets/${id}`, { headers })
      expect(read.status).toBe(200)
      expect(await read.json()).toMatchObject({ id, name: 'Shared' })
      expect(statusCounts(await burst([first, second], 70))).toEqual({ ok: 60, limited: 10 })
      // One journal: each lists both simulators' 72 requests.
      for (const origin of [first, second]) expect(await (await fetch(`${origin}/__sim/requests/count`)).json()).toEqual({ count: 72 })
    } finally {
      await Promise.all(simulators.map((simulator) => (simulator instanceof Error ? undefined : simulator.stop())))
      process.kill(Number(readFileSync(join(folder, 'redis.pid'), 'utf8')), 'SIGKILL')
      rmSync(folder, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('simulators the page starts in the background (docs/sharing.md)', () => {
  it('stop on `kill $!`: each line, run by bash as shown, is the simulator itself, not a launcher', async () => {
    const [block] = fencedBlocks(page, '## Two simulators on one Redis', 'bash')
    const lines = block!.split('\n').filter((line) => line.endsWith(' &') && line.includes('petstore-sim'))
    expect(lines).toHaveLength(2)
    // A user's project: the package's command in node_modules/.bin, as npm links it (here, to this checkout's).
    const project = mkdtempSync(join(tmpdir(), 'petstore-sim-background-'))
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true })
    symlinkSync(fileURLToPath(new URL('../../bin/petstore-sim.js', import.meta.url)), join(project, 'node_modules', '.bin', 'petstore-sim'))
    try {
      for (const line of lines) {
        const ready = join(project, 'ready')
        rmSync(ready, { force: true })
        const started = line
          .replace(shownStore, redis.tcpUrl!)
          .replace(/--port \d+/, '--port 0')
          .replace(/ &$/, ` --store-namespace background --log silent --ready-file ${ready} &`)
        // Bounded throughout: 30 s to be ready, 10 s to stop; a simulator left running is killed by its PID and fails.
        const script = `${started}
for i in $(seq 1 300); do [ -s ${ready} ] && break; sleep 0.1; done
[ -s ${ready} ] || { echo 'never ready'; kill -9 $! 2>/dev/null; exit 3; }
port=$(sed -E 's|^http://[^:]+:([0-9]+)/.*$|\\1|' ${ready})
kill $!
for i in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null || { echo stopped; exit 0; }; sleep 0.1; done
echo 'still serving'
for pid in $(pgrep -f -- '--ready-file ${ready}'); do [ "$pid" = "$$" ] || kill -9 "$pid"; done
exit 4
`
        const run = await collectRun('bash', ['-c', script], { cwd: project, timeout: 60_000 })
        expect({ line, code: run.code, said: run.stdout.trim().split('\n').at(-1) }, run.stdout + run.stderr).toEqual({
          line,
          code: 0,
          said: 'stopped',
        })
      }
    } finally {
      rmSync(project, { recursive: true, force: true })
    }
  }, 90_000)
})

describe('--workers (docs/sharing.md)', () => {
  it('serves the port from two workers that count as one', async () => {
    const [block] = fencedBlocks(page, '## Every core: `--workers`', 'bash')
    const [args] = simulatorCommands(block!, redis.tcpUrl!)
    expect(args).toEqual(['--store', redis.tcpUrl, '--workers', '2'])
    // Another namespace: the store still holds the world of the test above.
    const simulator = await startCli([...args!, '--store-namespace', 'workers-recipe', '--port', '0', '--log', 'silent'], {}, 30_000)
    try {
      expect(statusCounts(await burst([simulator.origin], 70))).toEqual({ ok: 60, limited: 10 })
    } finally {
      expect(await simulator.stop()).toBe(0)
    }
  }, 60_000)
})

describe('the compose example (docs/sharing.md)', () => {
  const [compose] = fencedBlocks(page, '## Compose: two replicas, Redis and HAProxy', 'yaml')
  const [haproxy] = fencedBlocks(page, '## Compose: two replicas, Redis and HAProxy', 'haproxy')
  const file = readFileSync(new URL('../../compose.replicas.yaml', import.meta.url), 'utf8')

  it("is the repository's compose.replicas.yaml, valid against the Compose specification", () => {
    expect(compose).toBe(file)
    const validate = composeValidator()
    expect(validate(file), validate.errors()).toBe(true)
    expect(validate(file.replace('    healthcheck:', '    healthcheque:'))).toBe(false)
  })

  it('puts both replicas on the store, behind the load balancer that alone publishes a port', () => {
    const { services } = parse(file) as {
      services: Record<string, { image: string; ports?: string[]; environment?: Record<string, string>; volumes?: string[] }>
    }
    expect(Object.keys(services).sort()).toEqual(['load-balancer', 'petstore-sim-1', 'petstore-sim-2', 'redis'])
    for (const name of ['petstore-sim-1', 'petstore-sim-2']) {
      expect(services[name]!.environment).toMatchObject({ PETSTORE_SIM_STORE: 'redis://redis:6379', PETSTORE_SIM_STATE: '' })
      expect(services[name]!.ports).toBeUndefined()
    }
    expect(services.redis!.image).toBe(`\${REDIS_IMAGE:-docker.io/library/redis:7}`)
    expect(services['load-balancer']!.ports).toEqual([`127.0.0.1:\${PETSTORE_SIM_HOST_PORT:-4010}:4010`])
    expect(services['load-balancer']!.volumes).toEqual([
      './compose.replicas.haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro',
      './compose.replicas.store-unavailable.http:/usr/local/etc/haproxy/store-unavailable.http:ro',
    ])
  })

  it("answers HAProxy's own 503 as the simulator's store_unavailable: the errorfile it mounts is a whole HTTP response", () => {
    const config = readFileSync(new URL('../../compose.replicas.haproxy.cfg', import.meta.url), 'utf8')
    expect(config).toMatch(/^ {2}errorfile 503 \/usr\/local\/etc\/haproxy\/store-unavailable\.http$/m)
    const raw = readFileSync(new URL('../../compose.replicas.store-unavailable.http', import.meta.url))
    const text = raw.toString('utf8')
    const [head, body, ...rest] = text.split('\r\n\r\n')
    expect(rest).toEqual([])
    // HTTP's own line ends, CRLF, throughout the head.
    expect(head!.split('\r\n').every((line) => !line.includes('\n'))).toBe(true)
    const [statusLine, ...fields] = head!.split('\r\n')
    expect(statusLine).toBe('HTTP/1.1 503 Service Unavailable')
    const headers = new Map(
      fields.map((field) => [field.slice(0, field.indexOf(':')).toLowerCase(), field.slice(field.indexOf(':') + 1).trim()]),
    )
    expect(headers.get('content-type')).toBe('application/json')
    expect(Number(headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(headers.get('content-length'))).toBe(Buffer.byteLength(body!))
    const error = JSON.parse(body!) as { code: string; message: string; status: number }
    expect(error).toEqual({ code: 'store_unavailable', message: expect.stringMatching(/nothing was counted or changed/), status: 503 })
    expect(errorStatuses[error.code as keyof typeof errorStatuses]).toBe(error.status)
  })

  it("shows the repository's HAProxy config, which routes to the replicas its health checks pass", () => {
    const config = readFileSync(new URL('../../compose.replicas.haproxy.cfg', import.meta.url), 'utf8')
    expect(haproxy).toBe(config)
    expect(config).toMatch(/^ {2}http-check send meth GET uri \/__sim\/health /m)
    expect(config).toMatch(/^ {2}http-check expect status 200$/m)
    expect(config).toMatch(/^ {2}server petstore-sim-1 petstore-sim-1:4010$/m)
    expect(config).toMatch(/^ {2}server petstore-sim-2 petstore-sim-2:4010$/m)
  })
})
