// docs/ci.md's recipes that need the image, run with podman in the container step: compose.yaml with podman-compose
// (Debian's), and the Testcontainers recipe against podman's Docker-compatible socket (DOCKER_HOST, which
// run-container-tests.sh sets). Both reach the simulator through a port published on the host's loopback.
import { execFile } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { checkedFetch } from '../support/checked-fetch.ts'
import { fencedBlocks } from '../support/docs-blocks.ts'
import { closedPort as freePort } from '../support/closed-port.ts'

const run = promisify(execFile)
const image = process.env.PETSTORE_SIM_TEST_IMAGE
if (image === undefined)
  throw new Error('PETSTORE_SIM_TEST_IMAGE names the image under test (test/container/run-container-tests.sh sets it)')
const root = fileURLToPath(new URL('../..', import.meta.url))
const auth = { authorization: 'Bearer demo-pro-key' }

describe('compose.yaml with podman-compose', () => {
  it('starts the image with its port on loopback and its state on a named volume', async () => {
    const port = await freePort()
    const project = `petstore-sim-test-${process.pid}`
    const env = { ...process.env, PETSTORE_SIM_IMAGE: image, PETSTORE_SIM_HOST_PORT: String(port) }
    const compose = (...args: string[]) =>
      run('podman-compose', ['--project-name', project, '--file', 'compose.yaml', ...args], { cwd: root, env, timeout: 120_000 })
    try {
      await compose('up', '--detach')
      const deadline = Date.now() + 30_000
      let health: Response | undefined
      while (health?.status !== 200 && Date.now() < deadline) {
        health = await fetch(`http://127.0.0.1:${port}/__sim/health`).catch(() => undefined)
        if (health?.status !== 200) await new Promise((resolve) => setTimeout(resolve, 200))
      }
      expect(health?.status).toBe(200)
      const pets = await checkedFetch(`http://127.0.0.1:${port}/v1/pets?limit=3`, { headers: auth })
      expect(pets.status).toBe(200)
      expect(await pets.json()).toHaveLength(3)
      const { stdout } = await run('podman', ['volume', 'ls', '--format', '{{.Name}}'])
      expect(stdout).toContain(`${project}_petstore-state`)
    } finally {
      await compose('down', '--volumes').catch(() => {})
    }
  })
})

describe('the Testcontainers recipe', () => {
  it('passes against the image, through podman’s socket', async () => {
    expect(process.env.DOCKER_HOST, 'run-container-tests.sh starts podman system service and sets DOCKER_HOST').toMatch(/^unix:\/\//)
    const [recipe] = fencedBlocks(new URL('../../docs/ci.md', import.meta.url), '## Testcontainers for Node', 'ts')
    expect(recipe).toContain("new GenericContainer('petstore-sim')")
    // As written, but for the image's name here, and the ulimits this machine's runc can set (podman's Docker API
    // asks for more open files than the machine allows; test/container/containers.conf does the same for podman run).
    const adapted = recipe!.replace(
      "new GenericContainer('petstore-sim')",
      `new GenericContainer(${JSON.stringify(image)}).withUlimits({ nofile: { soft: 1024, hard: 4096 }, nproc: { soft: 4096, hard: 4096 } })`,
    )
    const folder = `${root}test/container/generated`
    mkdirSync(folder, { recursive: true })
    writeFileSync(`${folder}/testcontainers-recipe.test.ts`, adapted)
    try {
      const { stdout } = await run(
        process.execPath,
        [`${root}node_modules/vitest/vitest.mjs`, 'run', '--config', 'test/container/recipe.vitest.config.ts'],
        {
          cwd: root,
          // Ryuk, Testcontainers' reaper, is an image of its own, which no registry here serves; afterAll stops the
          // container. The host is loopback, where podman publishes the port.
          env: { ...process.env, TESTCONTAINERS_RYUK_DISABLED: 'true', TESTCONTAINERS_HOST_OVERRIDE: '127.0.0.1', NO_COLOR: '1' },
          timeout: 180_000,
        },
      )
      expect(stdout).toMatch(/Tests\s+1 passed \(1\)/)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
