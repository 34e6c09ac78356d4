// compose.replicas.yaml with podman-compose, in the container step: two replicas of the image on one Redis, behind
// HAProxy, reached through the load balancer's published port as a user reaches them. Redis and HAProxy are stand-ins
// built from Debian's packages (run-container-tests.sh), as no public registry is reached here. What it shows: both
// replicas serve, and they answer as one API (an exact limit, one journal, a pet read back whichever replica answers);
// with the store stopped they fail closed, and they serve again once it is back.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { checkedFetch } from '../support/checked-fetch.ts'
import { fencedBlocks } from '../support/docs-blocks.ts'
import { podman, testLabel } from '../support/podman.ts'
import { closedPort as freePort } from '../support/closed-port.ts'

const run = promisify(execFile)
const {
  PETSTORE_SIM_TEST_IMAGE: image,
  PETSTORE_SIM_TEST_REDIS_IMAGE: redisImage,
  PETSTORE_SIM_TEST_HAPROXY_IMAGE: haproxyImage,
} = process.env
if (image === undefined || redisImage === undefined || haproxyImage === undefined)
  throw new Error('PETSTORE_SIM_TEST_IMAGE, _REDIS_IMAGE and _HAPROXY_IMAGE name the images (run-container-tests.sh sets them)')
const root = fileURLToPath(new URL('../..', import.meta.url))
const adminToken = 'replicas-admin-token'
const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }
const replicas = ['petstore-sim-1', 'petstore-sim-2']

it('serves one API from two replicas behind the load balancer, and stops cleanly', async () => {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const project = `petstore-sim-replicas-${process.pid}`
  const env = {
    ...process.env,
    PETSTORE_SIM_IMAGE: image,
    REDIS_IMAGE: redisImage,
    HAPROXY_IMAGE: haproxyImage,
    PETSTORE_SIM_HOST_PORT: String(port),
    PETSTORE_SIM_ADMIN_TOKEN: adminToken,
  }
  const compose = (...args: string[]) =>
    run('podman-compose', ['--project-name', project, '--file', 'compose.replicas.yaml', ...args], { cwd: root, env, timeout: 180_000 })
  /** `name exit-code` of each container of the project, by service. */
  const containers = async () => {
    const { stdout } = await run('podman', [
      'ps',
      '--all',
      '--filter',
      `label=io.podman.compose.project=${project}`,
      '--format',
      '{{index .Labels "com.docker.compose.service"}} {{.Names}} {{.ExitCode}}',
    ])
    return stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' ') as [string, string, string])
  }
  const replicaLogs = async () => {
    const logs = await Promise.all(
      (await containers())
        .filter(([service]) => replicas.includes(service))
        .map(async ([service, name]) => {
          const { stdout, stderr } = await run('podman', ['logs', name]).catch((error: Error) => ({ stdout: error.message, stderr: '' }))
          return `${service}:\n${stdout}${stderr}`
        }),
    )
    return logs.join('\n')
  }
  try {
    await compose('up', '--detach')
    // Ready when both replicas are in HAProxy's rotation: it routes only to a replica whose /__sim/health answers 200.
    const servedBy = new Set<string>()
    const deadline = Date.now() + 60_000
    while (servedBy.size < replicas.length && Date.now() < deadline) {
      const health = await fetch(`${origin}/__sim/health`).catch(() => undefined)
      if (health?.status === 200) servedBy.add(health.headers.get('x-served-by') ?? '')
      else await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect([...servedBy].sort(), `both replicas healthy behind the load balancer; their logs:\n${await replicaLogs()}`).toEqual(replicas)

    // The page's command that shows which replica answered, as shown but for the port.
    const [commands] = fencedBlocks(
      new URL('../../docs/sharing.md', import.meta.url),
      '## Compose: two replicas, Redis and HAProxy',
      'bash',
    )
    expect(commands).toContain('docker compose -f compose.replicas.yaml up --wait')
    const curl = commands!
      .split('\n')
      .find((line) => line.startsWith('curl '))!
      .replace('127.0.0.1:4010', `127.0.0.1:${port}`)
    expect((await run('bash', ['-c', curl], { timeout: 30_000 })).stdout).toMatch(/^x-served-by: petstore-sim-[12]\r?$/im)

    // Served from the store (a replica without one would count and hold pets on its own).
    const health = (await (await fetch(`${origin}/__sim/health`)).json()) as { store?: { ready: boolean } }
    expect(health.store).toEqual({ ready: true })

    // One clock: frozen through one replica, it holds for the other; then the free plan's 60/min is exact across both.
    expect((await fetch(`${origin}/__sim/clock`, { method: 'POST', headers: admin, body: JSON.stringify({ freeze: true }) })).status).toBe(
      200,
    )
    const burst = await Promise.all(
      Array.from({ length: 70 }, () =>
        checkedFetch(`${origin}/v1/pets?limit=1`, { headers: { authorization: 'Bearer demo-free-key' } }).then((response) => ({
          status: response.status,
          servedBy: response.headers.get('x-served-by'),
        })),
      ),
    )
    expect(burst.filter(({ status }) => status === 200)).toHaveLength(60)
    expect(burst.filter(({ status }) => status === 429)).toHaveLength(10)
    expect(new Set(burst.map(({ servedBy }) => servedBy)).size).toBe(2)

    // A pet created through one replica is read back through both.
    const pro = { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json' }
    const created = await checkedFetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: pro,
      body: JSON.stringify({ name: 'Shared', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    const reads = await Promise.all(Array.from({ length: 4 }, () => checkedFetch(`${origin}/v1/pets/${id}`, { headers: pro })))
    expect(reads.map((read) => read.status)).toEqual([200, 200, 200, 200])
    expect(new Set(reads.map((read) => read.headers.get('x-served-by'))).size).toBe(2)

    // One journal: whichever replica answers, it lists the fleet's 76 API requests (the page's curl, the burst of 70,
    // the create and its 4 reads).
    const count = await fetch(`${origin}/__sim/requests/count`, { headers: admin })
    expect(await count.json()).toEqual({ count: 1 + 70 + 1 + 4 })

    // The store out: the replicas fail closed (503, never a 200 counted nowhere), and their health takes them out of
    // HAProxy's rotation; the store back (it saved its data on stopping), the same API answers again, no restart.
    const redisName = (await containers()).find(([service]) => service === 'redis')![1]
    await run('podman', ['stop', '--time', '10', redisName])
    const pets = () => fetch(`${origin}/v1/pets/${id}`, { headers: pro }).then((response) => response.status)
    const until = async (wanted: (status: number) => boolean) => {
      const end = Date.now() + 60_000
      let status = await pets()
      while (!wanted(status) && Date.now() < end) {
        await new Promise((resolve) => setTimeout(resolve, 250))
        status = await pets()
      }
      return status
    }
    expect(await until((status) => status !== 200)).toBe(503)
    expect(await Promise.all(Array.from({ length: 10 }, pets))).toEqual(Array.from({ length: 10 }, () => 503))
    // Both replicas out of rotation (their health fails): HAProxy answers itself, with the simulator's JSON 503 (its
    // errorfile), not its own text/html page. It is told from a replica's 503 by the replica's name it lacks.
    const balancers = async () => {
      const end = Date.now() + 30_000
      for (;;) {
        const response = await fetch(`${origin}/v1/pets/${id}`, { headers: pro })
        const answer = { status: response.status, servedBy: response.headers.get('x-served-by'), response }
        if ((answer.status === 503 && answer.servedBy === null) || Date.now() > end) return answer
        await response.arrayBuffer()
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    }
    const own = await balancers()
    expect({ status: own.status, servedBy: own.servedBy }).toEqual({ status: 503, servedBy: null })
    expect(own.response.headers.get('content-type')).toBe('application/json')
    expect(Number(own.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await own.response.json()).toMatchObject({ code: 'store_unavailable', status: 503 })
    await run('podman', ['start', redisName])
    expect(await until((status) => status === 200), `the API back once the store is; logs:\n${await replicaLogs()}`).toBe(200)

    // Stopped, each replica drains and exits 0 (SIGTERM to the simulator, PID 1 of its container; its JSON log says nothing).
    // Podman's own 10 s before its SIGKILL (exit 137) was once not enough for a replica on a loaded CI machine, whose
    // drain is bounded at 4.5 s by the simulator itself: 30 s, and the replicas' logs if one is killed all the same.
    await compose('stop', '--timeout', '30')
    const stopped = (await containers()).filter(([service]) => replicas.includes(service))
    expect(
      stopped.map(([service, , exitCode]) => `${service} ${exitCode}`).sort(),
      `each replica drains and exits 0; their logs:\n${await replicaLogs()}`,
    ).toEqual(replicas.map((name) => `${name} 0`))
  } finally {
    await compose('down', '--volumes').catch(() => {})
    // podman-compose 1.0 leaves the project's network behind.
    await podman(['network', 'rm', '--force', `${project}_default`]).catch(() => {})
  }
}, 240_000)

it("takes a replica whose /__sim/health answers 503 out of the load balancer's rotation", async () => {
  // compose.replicas.haproxy.cfg in front of two stand-in replicas (Node in the image): the second's health answers
  // 503, as a replica's does while its store is out, and HAProxy stops sending it requests.
  const network = `petstore-sim-lb-${process.pid}`
  const port = await freePort()
  const replica = (health: number) =>
    `require('node:http').createServer((request, response) => { response.writeHead(request.url === '/__sim/health' ? ${health} : 200); response.end() }).listen(4010)`
  const started: string[] = []
  const start = async (name: string, args: readonly string[]) => {
    started.push(
      await podman(['run', '--detach', '--label', testLabel, '--network', network, '--name', name, '--network-alias', name, ...args]),
    )
  }
  await podman(['network', 'create', '--label', testLabel, network])
  try {
    await start(`${network}-1`, ['--network-alias', 'petstore-sim-1', '--entrypoint', 'node', image!, '-e', replica(200)])
    await start(`${network}-2`, ['--network-alias', 'petstore-sim-2', '--entrypoint', 'node', image!, '-e', replica(503)])
    const config = `${root}compose.replicas.haproxy.cfg`
    await start(`${network}-lb`, [
      '--publish',
      `127.0.0.1:${port}:4010`,
      '--volume',
      `${config}:/usr/local/etc/haproxy/haproxy.cfg:ro`,
      '--volume',
      `${root}compose.replicas.store-unavailable.http:/usr/local/etc/haproxy/store-unavailable.http:ro`,
      haproxyImage!,
    ])
    // Two failed checks 2 s apart take it out: then ten requests in a row all go to the healthy one.
    const deadline = Date.now() + 30_000
    let servedBy: (string | null)[] = []
    while (Date.now() < deadline) {
      servedBy = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`http://127.0.0.1:${port}/v1/pets`).then(
            (response) => response.headers.get('x-served-by'),
            () => null,
          ),
        ),
      )
      if (servedBy.every((name) => name === 'petstore-sim-1')) break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(servedBy).toEqual(Array.from({ length: 10 }, () => 'petstore-sim-1'))
  } finally {
    await Promise.all(started.map((id) => podman(['rm', '--force', id]).catch(() => {})))
    await podman(['network', 'rm', '--force', network]).catch(() => {})
  }
}, 60_000)
