/**
 * A sandbox of a running simulator, made, reset and deleted over its control plane with `fetch` only: what the
 * Playwright fixture (`petstore-sim/playwright`) does around each worker and test. Every call's status is checked, and
 * a refusal is an `Error` naming its cause and what to change, not a test failing later on a 503 it never saw.
 */

/** Where and how a sandbox is made. */
export interface SandboxRequest {
  /** The simulator's origin (`http://127.0.0.1:4010`), or its URL with a path prefix for the control plane. */
  readonly url: string
  /** The sandbox's name: 1 to 63 lower-case letters, digits and `-` (docs/sharing.md). */
  readonly name: string
  /** The scenario it starts in, and returns to on each reset; the configured one when undefined. */
  readonly scenario?: string | undefined
  /** Its API keys, token → plan (`pro`, `enterprise:500/50000`), in place of the configured ones; those when undefined. */
  readonly keys?: Readonly<Record<string, string>> | undefined
  /** The simulator's admin token (`--admin-token`, `PETSTORE_SIM_ADMIN_TOKEN`), when it has one. */
  readonly adminToken?: string | undefined
}

/** A sandbox made: where its API and its control plane are. */
export interface PetstoreSandbox {
  /** Its name, `<petstoreSandboxPrefix>-<parallelIndex>` in the fixture. */
  readonly name: string
  /** The simulator it is in (its origin): where it is deleted. */
  readonly url: string
  /** Its API's base URL (`http://127.0.0.1:4010/sandboxes/pw-worker-0/v1`): what the tests call. */
  readonly apiUrl: string
  /** Its own control plane (`…/sandboxes/pw-worker-0/__sim`): reset, clock, faults, journal of this sandbox alone. */
  readonly controlUrl: string
  /** The admin token its control calls send, if any. */
  readonly adminToken: string | undefined
}

/** What to change, by the error code a setup call was answered with. */
const remedies: Readonly<Record<string, string>> = {
  too_many_sandboxes:
    'every sandbox the simulator may hold is taken: raise its cap (--max-sandboxes, PETSTORE_SIM_MAX_SANDBOXES), run fewer workers, or delete those left over (GET /__sim/sandboxes lists them)',
  admin_unauthorized: 'the simulator has an admin token: pass the same one (the fixture reads PETSTORE_SIM_ADMIN_TOKEN)',
  control_forbidden:
    'the control plane answers loopback clients only unless the simulator has an admin token: start it with --admin-token (PETSTORE_SIM_ADMIN_TOKEN) and pass the same one',
  route_not_found: 'the simulator has no sandboxes (--max-sandboxes 0) or no control plane, or the URL is not its origin',
  scenario_not_found: 'the scenario is not one the simulator knows (GET /__sim/scenario lists them)',
  sandbox_name_invalid: 'a sandbox name is 1 to 63 lower-case letters, digits and -',
  invalid_body: 'a sandbox takes a scenario and keys (token → plan) only',
}

/** Makes the sandbox, or puts the one of that name into the settings given (a reset): it exists and is fresh after. */
export async function openSandbox(request: SandboxRequest): Promise<PetstoreSandbox> {
  const origin = request.url.replace(/\/+$/, '')
  const settings = {
    ...(request.scenario === undefined ? {} : { scenario: request.scenario }),
    ...(request.keys === undefined ? {} : { keys: request.keys }),
  }
  const url = `${origin}/__sim/sandboxes/${request.name}`
  const response = await call(url, 'PUT', request.adminToken, settings)
  await expectStatus(response, [200, 201], `PUT ${url} (making sandbox ${request.name})`)
  const made = (await response.json()) as { apiPath: string; controlPath: string }
  return {
    name: request.name,
    url: origin,
    apiUrl: `${origin}${made.apiPath}`,
    controlUrl: `${origin}${made.controlPath}`,
    adminToken: request.adminToken,
  }
}

/** Starts the sandbox over: its scenario's catalogue, ids, limits, clock, faults and journal, with its keys. */
export async function resetSandbox(sandbox: PetstoreSandbox): Promise<void> {
  const url = `${sandbox.controlUrl}/reset`
  await expectStatus(await call(url, 'POST', sandbox.adminToken, {}), [200], `POST ${url} (resetting sandbox ${sandbox.name})`)
}

/** Deletes the sandbox, freeing its place under the cap; one already gone (expired, deleted) is fine. */
export async function closeSandbox(sandbox: PetstoreSandbox): Promise<void> {
  const target = `${sandbox.url}/__sim/sandboxes/${sandbox.name}`
  await expectStatus(await call(target, 'DELETE', sandbox.adminToken), [204, 404], `DELETE ${target} (deleting sandbox ${sandbox.name})`)
}

async function call(url: string, method: string, adminToken: string | undefined, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = {}
  if (adminToken !== undefined) headers.authorization = `Bearer ${adminToken}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  try {
    return await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    throw new Error(
      `petstore-sim: ${method} ${url} reached no simulator (${cause?.code ?? cause?.message ?? (error as Error).message}): start one (npx petstore-sim) or set PETSTORE_SIM_URL to its origin`,
      { cause: error },
    )
  }
}

async function expectStatus(response: Response, expected: readonly number[], what: string): Promise<void> {
  if (expected.includes(response.status)) return
  const text = await response.text()
  let code: string | undefined
  let message = text.slice(0, 500)
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown }
    if (typeof body.code === 'string') code = body.code
    if (typeof body.message === 'string') message = body.message
  } catch {
    // Not the simulator's Error body (a proxy's page, another server): its text is the cause.
  }
  const remedy = code === undefined ? undefined : remedies[code]
  throw new Error(
    `petstore-sim: ${what} answered ${response.status}${code === undefined ? '' : ` ${code}`}: ${message}${remedy === undefined ? '' : ` (${remedy})`}`,
  )
}
