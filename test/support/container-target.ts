import { pageOrigin, scenarioPetCount, scenarioSeed, testKeySpec, type ApiTarget } from './api-target.ts'
import { controlledTarget } from './cli-target.ts'
import { runContainer } from './podman.ts'

/** The admin token the container target is started with: through a published port, no client is on loopback. */
export const containerAdminToken = 'container-test-admin-token'

/**
 * The image (`PETSTORE_SIM_TEST_IMAGE`, which the container step of CI sets) run with podman, reached through its
 * published port as users reach it: the same flags as the CLI target, given as flags after the image's name, and the
 * admin token as `PETSTORE_SIM_ADMIN_TOKEN` (configuration by environment, as a `services:` block gives it).
 */
export async function startContainerTarget(image: string): Promise<ApiTarget & { close(): Promise<unknown> }> {
  const keyArgs = Object.entries(testKeySpec).flatMap(([token, plan]) => ['--key', `${token}=${plan}`])
  const container = await runContainer({
    image,
    args: ['--log', 'silent', '--seed', String(scenarioSeed), '--pets', String(scenarioPetCount), ...keyArgs, '--cors-origin', pageOrigin],
    env: { PETSTORE_SIM_ADMIN_TOKEN: containerAdminToken },
  })
  const admin = (input: string, init: RequestInit = {}) =>
    fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${containerAdminToken}` } })
  return { ...controlledTarget(`${container.origin}/v1`, container.origin, admin, container.remove), adminToken: containerAdminToken }
}
