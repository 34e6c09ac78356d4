// The image itself, run with podman through a published port as users run it (the container step of CI:
// test/container/run-container-tests.sh builds it and sets PETSTORE_SIM_TEST_IMAGE). The API scenarios run against it
// in the matrix (test/support/matrix.ts, target `container`); here, what only an image has: who it runs as, its
// health check, SIGTERM to PID 1, state on a volume, files written to a mounted folder, the control plane published,
// the Redis client of --store.
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkedFetch } from '../support/checked-fetch.ts'
import { podman, runContainer, testLabel, type RunningContainer } from '../support/podman.ts'

const image = process.env.PETSTORE_SIM_TEST_IMAGE
if (image === undefined)
  throw new Error('PETSTORE_SIM_TEST_IMAGE names the image under test (test/container/run-container-tests.sh sets it)')
// The same Containerfile built from an installed package folder (`podman build node_modules/petstore-sim`).
const installedImage = process.env.PETSTORE_SIM_TEST_INSTALLED_IMAGE
if (installedImage === undefined)
  throw new Error('PETSTORE_SIM_TEST_INSTALLED_IMAGE names the image built from the installed package (run-container-tests.sh sets it)')
const auth = { authorization: 'Bearer demo-pro-key' }
const started: RunningContainer[] = []
const volume = `petstore-sim-test-state-${process.pid}`
const outFolder = mkdtempSync(join(tmpdir(), 'petstore-sim-out-'))
// The image runs as uid 1000; a folder a CI job mounts must be writable by it (docs/ci.md#the-container-image).
chmodSync(outFolder, 0o777)

afterAll(async () => {
  await Promise.all(started.map((container) => container.remove()))
  await podman(['volume', 'rm', '--force', volume]).catch(() => {})
  rmSync(outFolder, { recursive: true, force: true })
})

async function start(options: Omit<Parameters<typeof runContainer>[0], 'image'> = {}): Promise<RunningContainer> {
  const container = await runContainer({ image: image!, ...options })
  started.push(container)
  return container
}

describe(`the image ${image}`, () => {
  it('runs as the non-root user node, with the simulator as PID 1', async () => {
    const container = await start()
    expect(await podman(['exec', container.id, 'id', '-u'])).toBe('1000')
    expect(await podman(['exec', container.id, 'id', '-un'])).toBe('node')
    expect(await podman(['inspect', '--format', '{{.Config.User}}', container.id])).toBe('node')
    expect(await podman(['exec', container.id, 'cat', '/proc/1/cmdline'])).toMatch(/node.*petstore-sim/)
  })

  it("reaches healthy by the image's own HEALTHCHECK, and answers the API and the health probe from outside", async () => {
    const container = await start()
    // Podman runs the check from a systemd timer, which this machine lacks: run it as that timer would, until healthy.
    const deadline = Date.now() + 30_000
    let healthy = false
    while (!healthy && Date.now() < deadline) {
      healthy = await podman(['healthcheck', 'run', container.id]).then(
        () => true,
        () => false,
      )
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const healthyAt = performance.now()
    expect(await podman(['inspect', '--format', '{{.State.Health.Status}}', container.id])).toBe('healthy')
    console.log(
      `container: health answered through the published port ${((container.answeredAt - container.startedAt) / 1000).toFixed(2)} s after podman run; HEALTHCHECK healthy after ${((healthyAt - container.startedAt) / 1000).toFixed(2)} s`,
    )
    const health = await fetch(`${container.origin}/__sim/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ status: 'ok', pets: 50 })
    const pets = await checkedFetch(`${container.origin}/v1/pets?limit=2`, { headers: auth })
    expect(pets.status).toBe(200)
    expect(await pets.json()).toHaveLength(2)
  })

  it('keeps the rest of the control plane to loopback clients without an admin token, and serves it with one', async () => {
    const closed = await start()
    for (const path of ['/__sim/clock', '/__sim/requests', '/__sim/state', '/__sim/']) {
      const response = await fetch(`${closed.origin}${path}`)
      expect(response.status, path).toBe(403)
      const refused = (await response.json()) as { code: string; message: string }
      expect(refused.code, path).toBe('control_forbidden')
      // Issue 49: the 403 named no way in; it names the image's variable.
      expect(refused.message, path).toContain('PETSTORE_SIM_ADMIN_TOKEN')
    }
    // The banner advertised http://0.0.0.0:4010/__sim/, refused from the host: it names the container's loopback.
    expect(await closed.logs()).toMatch(
      /^Dashboard: http:\/\/127\.0\.0\.1:4010\/__sim\/ \(loopback clients only.*PETSTORE_SIM_ADMIN_TOKEN/m,
    )
    // Inside the container, the container's own loopback is served: `podman exec` scripts keep working.
    const inside = await podman([
      'exec',
      closed.id,
      'node',
      '-e',
      "fetch('http://127.0.0.1:4010/__sim/clock').then((r) => console.log(r.status))",
    ])
    expect(inside).toBe('200')
    const guarded = await start({ env: { PETSTORE_SIM_ADMIN_TOKEN: 'admin-secret' } })
    expect((await fetch(`${guarded.origin}/__sim/clock`)).status).toBe(401)
    expect((await fetch(`${guarded.origin}/__sim/clock`, { headers: { authorization: 'Bearer admin-secret' } })).status).toBe(200)
  })

  it('rate limits through the published port: a 429 with Retry-After', async () => {
    const container = await start({ args: ['--key', 'tiny-key=enterprise:2/100'] })
    const statuses: number[] = []
    let retryAfter: string | null = null
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await checkedFetch(`${container.origin}/v1/pets?limit=1`, { headers: { authorization: 'Bearer tiny-key' } })
      statuses.push(response.status)
      retryAfter = response.headers.get('retry-after')
      await response.arrayBuffer()
    }
    expect(statuses).toEqual([200, 200, 429])
    expect(Number(retryAfter)).toBeGreaterThan(0)
  })

  it('drains on SIGTERM as PID 1: the request in flight is answered, then exit code 0', async () => {
    const container = await start({ env: { PETSTORE_SIM_LATENCY: '1500' } })
    const inFlight = fetch(`${container.origin}/v1/pets?limit=1`, { headers: auth })
    await new Promise((resolve) => setTimeout(resolve, 500))
    const exitCode = container.stop(10)
    const answered = await inFlight
    expect(answered.status).toBe(200)
    expect(answered.headers.get('connection')).toBe('close')
    expect(await exitCode).toBe(0)
    expect(await container.logs()).toMatch(/SIGTERM: finishing requests in flight, then stopping/)
  })

  it('keeps its state on a volume: a pet created in one container is there in the next', async () => {
    const first = await start({ volumes: [`${volume}:/data`] })
    const created = await checkedFetch(`${first.origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    expect(await first.stop()).toBe(0)
    const second = await start({ volumes: [`${volume}:/data`] })
    const kept = await checkedFetch(`${second.origin}/v1/pets/${id}`, { headers: auth })
    expect(kept.status).toBe(200)
    expect(await kept.json()).toMatchObject({ id, name: 'Kept' })
  })

  it('carries the Redis client of --store: an unreachable store is a one-line cause, not a missing module', async () => {
    // Port 1 of the container's own loopback: nothing listens there, so the client loads, connects, and is refused.
    const refused = await podman([
      'run',
      '--rm',
      '--label',
      testLabel,
      // The image's state file and a store do not go together (the replicas' compose file does the same).
      '--env',
      'PETSTORE_SIM_STATE=',
      image!,
      '--store',
      'redis://127.0.0.1:1',
      '--store-wait',
      '1000',
    ]).then(
      () => 'exit code 0',
      (error: Error) => error.message,
    )
    expect(refused).not.toMatch(/cannot find (module|package)|ERR_MODULE_NOT_FOUND/i)
    const said = refused.slice(refused.indexOf(' failed: ') + ' failed: '.length)
    // Its last line says why (lines before it, if any, are the retries of --store-wait).
    expect(said.trim().split('\n').at(-1)).toMatch(/--store redis:\/\/127\.0\.0\.1:1(\/0)?: cannot connect \(ECONNREFUSED\)/)
  })

  it('writes the pact and the coverage to a mounted folder at shutdown', async () => {
    const container = await start({
      volumes: [`${outFolder}:/out`],
      env: { PETSTORE_SIM_PACT: '/out/pact.json', PETSTORE_SIM_COVERAGE: '/out/coverage.md' },
    })
    expect((await fetch(`${container.origin}/v1/pets?limit=1`, { headers: auth })).status).toBe(200)
    expect(await container.stop()).toBe(0)
    const pact = JSON.parse(readFileSync(join(outFolder, 'pact.json'), 'utf8')) as { interactions: unknown[] }
    expect(pact.interactions).toHaveLength(1)
    expect(readFileSync(join(outFolder, 'coverage.md'), 'utf8')).toMatch(/listPets/)
    // Issue 49: the pact was 0600, unreadable by a CI runner of another uid than the image's 1000; now both 0644.
    const modes = ['pact.json', 'coverage.md'].map((name) => statSync(join(outFolder, name)).mode & 0o777)
    expect(modes).toEqual([0o644, 0o644])
  })
})

// Issue 49: the image could be built only from a checkout after `npm pack`. Built from the package a project
// installed, it is the same image: the same package version, user, health check and answers.
describe(`the image built from the installed package, ${installedImage}`, () => {
  it("runs the same package as the checkout's image, as node, healthy, and answers the API through the published port", async () => {
    const version = (image: string) =>
      podman([
        'run',
        '--rm',
        '--label',
        testLabel,
        '--entrypoint',
        'node',
        image,
        '-p',
        "require('/opt/petstore-sim/node_modules/petstore-sim/package.json').version",
      ])
    expect(await version(installedImage)).toBe(await version(image!))
    expect(await podman(['image', 'inspect', '--format', '{{.Config.User}} {{json .Config.Healthcheck.Test}}', installedImage])).toBe(
      await podman(['image', 'inspect', '--format', '{{.Config.User}} {{json .Config.Healthcheck.Test}}', image!]),
    )
    const container = await runContainer({ image: installedImage })
    started.push(container)
    expect((await fetch(`${container.origin}/__sim/health`)).status).toBe(200)
    const pets = await checkedFetch(`${container.origin}/v1/pets?limit=2`, { headers: auth })
    expect(pets.status).toBe(200)
    expect(await pets.json()).toHaveLength(2)
  })

  // The Kubernetes manifests (deploy/kubernetes/) run it so: uid 1000, a read-only root, /data and /out on volumes.
  it('runs with a read-only root file system and its state on a volume, as deploy/kubernetes/ runs it', async () => {
    // --read-only, and no tmpfs on /tmp either, as Kubernetes' readOnlyRootFilesystem: /data, the image's VOLUME, is a
    // volume of the container's own.
    const container = await start({ runFlags: ['--read-only', '--read-only-tmpfs=false'] })
    const created = await checkedFetch(`${container.origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Read-only root', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    // Exit code 0: the state was saved to /data/state.json at SIGTERM (a state not saved exits 1).
    expect(await container.stop()).toBe(0)
    expect(await container.logs()).not.toMatch(/EROFS|read-only file system/i)
    expect(await container.logs()).toMatch(/State file: \/data\/state\.json/)
  })
})
