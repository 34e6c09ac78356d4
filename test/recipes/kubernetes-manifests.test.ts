// deploy/kubernetes/ (issue 49, part 4), as a platform team applies it: every object valid against the Kubernetes API
// schemas (kubernetes-models' validators, generated from the Kubernetes OpenAPI), and what the docs promise of them:
// non-root with a read-only root file system, probes on /__sim/health, resources, the admin token from a Secret, and
// the replicas on one Redis. The image itself runs so (read-only, uid 1000) in the container step (image.test.ts).
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Service } from 'kubernetes-models/v1'
import { Deployment } from 'kubernetes-models/apps/v1'
import { afterAll, describe, expect, it } from 'vitest'
import { parse, parseAllDocuments } from 'yaml'
import { createProgram } from '../../src/cli/cli-options.ts'
import { fencedBlocks } from '../support/docs-blocks.ts'

interface EnvVar {
  name: string
  value?: string
  valueFrom?: { secretKeyRef?: { name: string; key: string } }
}
interface Container {
  name: string
  image: string
  env?: EnvVar[]
  readinessProbe?: { httpGet?: { path: string; port: string | number } }
  livenessProbe?: { httpGet?: { path: string; port: string | number }; tcpSocket?: { port: string | number } }
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> }
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean }
}
interface Manifest {
  apiVersion: string
  kind: string
  metadata: { name: string }
  spec: {
    replicas?: number
    ports?: { port: number }[]
    template?: { spec: { securityContext?: { runAsNonRoot?: boolean; runAsUser?: number }; containers: Container[] } }
  }
}

const files = ['petstore-sim.yaml', 'petstore-sim-replicas.yaml'] as const
const manifests = (file: string, text = readFileSync(new URL(`../../deploy/kubernetes/${file}`, import.meta.url), 'utf8')) =>
  parseAllDocuments(text).map((document) => document.toJS() as Manifest)
const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version

/** Validates an object against its kind's schema; throws with the schema's complaint. */
function validate(manifest: Manifest): void {
  const models: Record<string, { validate(): void }> = {
    'apps/v1 Deployment': new Deployment(manifest as never),
    'v1 Service': new Service(manifest as never),
  }
  const model = models[`${manifest.apiVersion} ${manifest.kind}`]
  if (model === undefined) throw new Error(`no schema here for ${manifest.apiVersion} ${manifest.kind}`)
  model.validate()
}

/**
 * The schemas above let unknown fields through (kubernetes-models' validators allow additional properties), which
 * kubectl's strict field validation refuses: a misspelt `readinesProbe` would be a probe never run. kubernetes-models'
 * types know every field, so each object is type-checked as an object literal of its kind (TypeScript's excess
 * property check). The type errors, none when every field is known.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const typesFolder = join(root, 'node_modules', '.cache', 'petstore-sim-kubernetes-types')
mkdirSync(typesFolder, { recursive: true })
const scratch = mkdtempSync(join(typesFolder, 'check-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let checks = 0
async function unknownFields(objects: readonly Manifest[]): Promise<string> {
  const types: Record<string, [string, string]> = {
    'apps/v1 Deployment': ['IDeployment', 'kubernetes-models/apps/v1/Deployment'],
    'v1 Service': ['IService', 'kubernetes-models/v1/Service'],
  }
  const lines = objects.map((manifest, index) => {
    const [type, module] = types[`${manifest.apiVersion} ${manifest.kind}`]!
    return `import type { ${type} as T${index} } from '${module}'\nexport const object${index}: T${index} = ${JSON.stringify(manifest)}`
  })
  const file = join(scratch, `manifests-${checks++}.ts`)
  writeFileSync(file, `${lines.join('\n')}\n`)
  const tsc = join(root, 'node_modules', '.bin', 'tsc')
  const args = ['--ignoreConfig', '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', file]
  return promisify(execFile)(tsc, args, { cwd: root, timeout: 60_000 }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  )
}

const simulator = (file: string) => {
  const deployment = manifests(file).find((manifest) => manifest.kind === 'Deployment' && manifest.metadata.name === 'petstore-sim')!
  return { deployment, container: deployment.spec.template!.spec.containers[0]! }
}
const env = (container: Container) => new Map((container.env ?? []).map((variable) => [variable.name, variable]))

describe.each(files)('deploy/kubernetes/%s', (file) => {
  it('is valid against the Kubernetes schemas, every object of it', () => {
    const objects = manifests(file)
    expect(objects.length).toBeGreaterThanOrEqual(2)
    for (const manifest of objects) expect(() => validate(manifest), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow()
  })

  it('has no field the Kubernetes API does not know (kubectl validates fields strictly)', async () => {
    expect(await unknownFields(manifests(file))).toBe('')
  }, 60_000)

  it('runs the image non-root, read-only, with probes on /__sim/health, resources and the token from a Secret', () => {
    const { deployment, container } = simulator(file)
    expect(container.image).toMatch(new RegExp(`/petstore-sim:${version.replaceAll('.', '\\.')}$`))
    // The image's user, node: uid 1000 (Containerfile's USER).
    expect(deployment.spec.template!.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 })
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false })
    expect(container.readinessProbe?.httpGet?.path).toBe('/__sim/health')
    expect(container.livenessProbe?.httpGet?.path ?? container.livenessProbe?.tcpSocket?.port).toBeDefined()
    expect(container.resources?.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) })
    expect(container.resources?.limits).toMatchObject({ memory: expect.any(String) })
    expect(env(container).get('PETSTORE_SIM_ADMIN_TOKEN')?.valueFrom?.secretKeyRef).toEqual({ name: 'petstore-sim-admin', key: 'token' })
    const service = manifests(file).find((manifest) => manifest.kind === 'Service' && manifest.metadata.name === 'petstore-sim')!
    expect(service.spec.ports?.map((port) => port.port)).toEqual([4010])
  })

  it("sets only variables that are flags' own (docs/cli.md#flags)", () => {
    const known = new Set(createProgram().options.map((option) => option.envVar))
    for (const name of env(simulator(file).container).keys()) expect(known.has(name), name).toBe(true)
  })
})

describe('the replicas variant', () => {
  it('runs two replicas on the Redis of its own Service, with no state file, and liveness that a store outage does not fail', () => {
    const { deployment, container } = simulator('petstore-sim-replicas.yaml')
    expect(deployment.spec.replicas).toBe(2)
    const redis = manifests('petstore-sim-replicas.yaml').find(
      (manifest) => manifest.kind === 'Service' && manifest.metadata.name !== 'petstore-sim',
    )!
    expect(env(container).get('PETSTORE_SIM_STORE')?.value).toBe(`redis://${redis.metadata.name}:${redis.spec.ports![0]!.port}`)
    expect(env(container).get('PETSTORE_SIM_STATE')?.value).toBe('')
    // /__sim/health answers 503 while the store is out: readiness takes the replica out, a restart would not help.
    expect(container.livenessProbe?.tcpSocket?.port).toBe('http')
    expect(simulator('petstore-sim.yaml').container.livenessProbe?.httpGet?.path).toBe('/__sim/health')
  })

  it('differs from the single replica only where replicas need it: same security, readiness and resources', () => {
    const [single, replicas] = files.map((file) => simulator(file))
    expect(replicas!.deployment.spec.template!.spec.securityContext).toEqual(single!.deployment.spec.template!.spec.securityContext)
    for (const key of ['image', 'securityContext', 'readinessProbe', 'resources'] as const)
      expect(replicas!.container[key], key).toEqual(single!.container[key])
  })
})

describe('the validator', () => {
  it('refuses a manifest the API server would (the checks above can fail)', () => {
    const text = readFileSync(new URL('../../deploy/kubernetes/petstore-sim.yaml', import.meta.url), 'utf8')
    const [broken] = manifests('petstore-sim.yaml', text.replace('containerPort: 4010', 'containerPort: http-port'))
    expect(() => validate(broken!)).toThrow(/containerPort/)
    const [noSelector] = manifests('petstore-sim.yaml', text.replace(/^ {2}selector:\n {4}matchLabels:\n {6}.*\n/m, ''))
    expect(() => validate(noSelector!)).toThrow(/selector/)
  })

  it('finds a misspelt field (the field check above can fail)', async () => {
    const text = readFileSync(new URL('../../deploy/kubernetes/petstore-sim.yaml', import.meta.url), 'utf8')
    const misspelt = manifests('petstore-sim.yaml', text.replace('readinessProbe:', 'readinesProbe:'))
    expect(() => validate(misspelt[0]!)).not.toThrow()
    expect(await unknownFields(misspelt)).toMatch(/'"?readinesProbe"?' does not exist in type 'IContainer'/)
  }, 60_000)
})

describe("docs/ci.md's scrape of the replicas", () => {
  it('scrapes the metrics route of every pod behind the Service the manifests name, with the admin token', () => {
    const [scrape] = fencedBlocks(new URL('../../docs/ci.md', import.meta.url), '## Kubernetes', 'yaml')
    const config = parse(scrape!) as {
      scrape_configs: {
        metrics_path: string
        authorization: { type: string; credentials_file: string }
        kubernetes_sd_configs: { role: string }[]
        relabel_configs: { source_labels: string[]; regex: string; action: string }[]
      }[]
    }
    const [job] = config.scrape_configs
    expect(job!.metrics_path).toBe('/__sim/metrics')
    expect(job!.authorization.type).toBe('Bearer')
    // Every pod (endpoints), not the Service's one answer: the metrics are each instance's own.
    expect(job!.kubernetes_sd_configs).toEqual([{ role: 'endpoints' }])
    const services = manifests('petstore-sim-replicas.yaml').filter((manifest) => manifest.kind === 'Service')
    const kept = job!.relabel_configs.find((rule) => rule.action === 'keep')!
    expect(kept.source_labels).toEqual(['__meta_kubernetes_service_name'])
    expect(services.map((service) => service.metadata.name)).toContain(kept.regex)
  })
})
