import { ApiError } from '../../core/http/api-error.ts'
import { jsonResponse } from '../../core/http/plain-http.ts'
import {
  checkSandboxName,
  invalidSandboxName,
  sandboxNameRule,
  type SandboxRegistry,
  type SharedSandboxEntry,
  type SharedSandboxes,
} from '../../core/simulator/sandbox-registry.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import type { ReconfigurableOptions } from '../../core/simulator/simulator-options.ts'
import type { PlainRequest } from '../../core/http/plain-http.ts'
import type { ControlRoute } from './control-route.ts'
import { readControlBody } from './control-body.ts'
import { applySandboxSettings, readSandboxSettings } from './sandbox-settings.ts'
import type { RequestMetrics } from '../metrics/request-metrics.ts'
import { arrayOf, boolean, integer, isoTime, object, ok, string } from './control-doc.ts'

/** One sandbox as `/__sim/sandboxes` lists and makes it (its times with a shared store, or once listed). */
const sandboxFields = {
  name: string,
  apiPath: string,
  controlPath: string,
  pets: integer,
  requests: integer,
  scenario: string,
  createdAt: isoTime,
  lastUsedAt: isoTime,
  expiresAt: isoTime,
}
const sandboxRequired = ['name', 'apiPath', 'controlPath', 'pets', 'requests', 'scenario']
const sandboxSchema = object(sandboxFields, sandboxRequired)
const sandboxMade = object({ ...sandboxFields, created: boolean }, [...sandboxRequired, 'created'])

/** What the control plane reads of the sandboxes: each one's simulator and metrics (the app over it is the sandbox's own). */
export type SandboxDirectory = SandboxRegistry<{ readonly simulator: SimulatorCore; readonly metrics?: RequestMetrics | undefined }>

/**
 * The sandboxes, on the default world's control plane (each sandbox's own plane is `/sandboxes/<name>/__sim/…`):
 *
 * - `GET /__sim/sandboxes`: every sandbox with its API path, pets, requests journaled, scenario and times, and the
 *   totals over them (the default world apart: `GET /__sim/state`);
 * - `PUT /__sim/sandboxes/{name}`: made from the configured scenario if there is none (201), else left as it is (200);
 *   with a body `{ scenario?, keys? }` (`sandbox-settings.ts`), made or put into that scenario with those keys;
 * - `DELETE /__sim/sandboxes/{name}`: forgotten, its state with it (204), or 404 `sandbox_not_found`.
 *
 * `fleet`: with a shared store, the fleet's sandboxes are listed, made and deleted, with the store's figures.
 * `configured`: the options every sandbox is made from, which a PUT's settings replace in part.
 */
export function sandboxRoutes(
  sandboxes: SandboxDirectory,
  basePath: string,
  configured: ReconfigurableOptions,
  fleet?: SharedSandboxes,
): ControlRoute[] {
  const iso = (ms: number) => new Date(ms).toISOString()
  const paths = (name: string) => ({ name, apiPath: `/sandboxes/${name}${basePath}`, controlPath: `/sandboxes/${name}/__sim` })
  const summary = (name: string, simulator: SimulatorCore) => ({
    ...paths(name),
    pets: simulator.store.size,
    requests: simulator.journal.count(),
    scenario: simulator.scenario,
  })
  // With a shared store (`--store`), the fleet's sandboxes, each with the store's figures, whatever this instance holds.
  const fleetEntry = (entry: SharedSandboxEntry) => {
    const { name, pets, requests, scenario, createdAt, lastUsedAt } = entry
    return {
      ...paths(name),
      pets,
      requests,
      scenario,
      createdAt: iso(createdAt),
      lastUsedAt: iso(lastUsedAt),
      expiresAt: iso(lastUsedAt + sandboxes.idleMs),
    }
  }
  const listing = (listed: ReturnType<typeof fleetEntry>[]) =>
    jsonResponse(
      {
        max: sandboxes.max,
        idleExpiryMs: sandboxes.idleMs,
        names: sandboxNameRule,
        sandboxes: listed,
        total: {
          sandboxes: listed.length,
          pets: listed.reduce((sum, sandbox) => sum + sandbox.pets, 0),
          requests: listed.reduce((sum, sandbox) => sum + sandbox.requests, 0),
        },
      },
      200,
    )
  return [
    {
      method: 'GET',
      path: '/sandboxes',
      name: 'sandboxes',
      doc: {
        summary: 'Every sandbox with its paths, pets, requests and times, and the totals',
        responses: ok(
          'The sandboxes',
          object({
            max: integer,
            idleExpiryMs: integer,
            names: string,
            sandboxes: arrayOf(sandboxSchema),
            total: object({ sandboxes: integer, pets: integer, requests: integer }),
          }),
        ),
      },
      resolve() {
        if (fleet !== undefined) return fleet.list().then((entries) => listing(entries.sort(byCreation).map(fleetEntry)))
        return listing(
          sandboxes.list().map((entry) => ({
            ...summary(entry.name, entry.world.simulator),
            createdAt: iso(entry.createdAt),
            lastUsedAt: iso(entry.lastUsedAt),
            expiresAt: iso(entry.expiresAt),
          })),
        )
      },
    },
    {
      method: 'PUT',
      path: '/sandboxes/{id}',
      name: 'createSandbox',
      doc: {
        summary: 'Makes the sandbox {id} from the configured scenario and keys, or those the body names (either or both)',
        description: 'An existing sandbox is put into the settings the body names and reset into them; no body leaves it as it is.',
        body: object({ scenario: string, keys: { type: 'object', additionalProperties: string } }, []),
        responses: { '201': { description: 'Made', schema: sandboxMade }, '200': { description: 'It exists', schema: sandboxMade } },
      },
      async resolve(request) {
        const name = checkSandboxName(sentName(request))
        const settings = readSandboxSettings(await readControlBody(request), fleet !== undefined)
        const { world, created } = sandboxes.create(name)
        if (fleet === undefined) {
          if (settings !== undefined) {
            try {
              applySandboxSettings(world.simulator, configured, settings)
            } catch (error) {
              // Refused: a sandbox made for it is not kept.
              if (created) sandboxes.delete(name)
              throw error
            }
          }
          return jsonResponse({ ...summary(name, world.simulator), created }, created ? 201 : 200)
        }
        // Made for the fleet only if the fleet had none: a copy made here of one it has is not a new sandbox.
        const made = await fleet.enter(name).catch((error: unknown) => {
          sandboxes.delete(name)
          throw error
        })
        const [entry] = await fleet.list(name)
        return jsonResponse(
          { ...(entry === undefined ? summary(name, world.simulator) : fleetEntry(entry)), created: made },
          made ? 201 : 200,
        )
      },
    },
    {
      method: 'DELETE',
      path: '/sandboxes/{id}',
      name: 'deleteSandbox',
      doc: { summary: 'Forgets the sandbox {id} and its state', responses: { '204': { description: 'Forgotten' } } },
      async resolve(request) {
        const name = checkSandboxName(sentName(request))
        const here = sandboxes.delete(name)
        // In a shared store: deleted for the fleet, whichever instances held a copy (their next request starts it fresh).
        const inFleet = fleet === undefined ? false : await fleet.delete(name)
        if (!here && !inFleet)
          throw new ApiError('sandbox_not_found', `No sandbox ${JSON.stringify(name)}; GET /__sim/sandboxes lists them`)
        return { status: 204, headers: {}, body: undefined }
      },
    },
    // `{id}` is one segment or nothing: the empty name (`/__sim/sandboxes/`) is refused as every bad name is.
    ...(['PUT', 'DELETE'] as const).map(
      (method): ControlRoute => ({
        method,
        path: '/sandboxes/',
        name: 'emptySandboxName',
        doc: {
          summary: 'The empty sandbox name, refused as every bad name is (400 sandbox_name_invalid)',
          responses: {},
          partOf: '/sandboxes/{id}',
        },
        resolve(request) {
          throw invalidSandboxName(sentName(request))
        },
      }),
    ),
  ]
}

/** Oldest first, as the registry lists its own. */
function byCreation(a: SharedSandboxEntry, b: SharedSandboxEntry): number {
  return a.createdAt - b.createdAt || a.name.localeCompare(b.name)
}

/**
 * The name as sent, before any decoding (the path's last segment), as `/sandboxes/<name>/…` checks it: the `{id}` the
 * control plane hands its routes is decoded, and `%61` would pass as `a` here while the API's path refuses it.
 */
function sentName(request: PlainRequest): string {
  return request.path.slice(request.path.lastIndexOf('/') + 1)
}
