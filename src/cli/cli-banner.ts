import { resolve } from 'node:path'
import { isLoopbackBindAddress } from '../core/access/host-policy.ts'
import { demoKeySpec } from '../core/simulator/simulator-core.ts'
import type { RunningServer } from '../node/server.ts'
import type { CliOptions } from './cli-options.ts'
import type { ConfigData } from './config-file.ts'
import type { GuardedOutput } from './guarded-output.ts'
import { restoredState, restoredStateLines } from './restored-state.ts'

/** The banner; `storeDisplay` is the shared store's URL without its password (`--store`). */
export function printBanner(
  running: RunningServer,
  options: CliOptions,
  config: ConfigData,
  output: GuardedOutput,
  storeDisplay?: string | undefined,
): void {
  const store = storeDisplay === undefined ? undefined : { url: storeDisplay, namespace: options.storeNamespace }
  const usingDemoKeys = options.key.length === 0 && options.keys === undefined && config.inline.keys === undefined
  const keys = running.simulator.keys.map((key) => ({
    key: usingDemoKeys && key.token in demoKeySpec ? key.token : key.fingerprint,
    plan: key.planLabel,
    perMinute: key.plan.perMinute,
    perDay: key.plan.perDay,
  }))
  const headline = `petstore-sim listening on ${running.apiUrl}`
  const control = `${running.url}/__sim`
  const dashboard = dashboardUrl(running, options)
  const restored = restoredState(running)
  if (options.log === 'json') {
    output.writeLine(
      JSON.stringify({
        time: new Date().toISOString(),
        message: headline,
        url: running.url,
        apiUrl: running.apiUrl,
        control,
        ...(dashboard.url === undefined ? {} : { dashboard: dashboard.url }),
        keys,
        // The config file read, if any: one found in the working directory is applied without a flag naming it.
        ...(config.path === undefined ? {} : { config: resolve(config.path) }),
        ...(restored === undefined ? {} : { state: { path: options.state, ...restored } }),
        ...(store === undefined ? {} : { store }),
        ...(options.workers > 1 ? { workers: options.workers } : {}),
      }),
    )
    return
  }
  const lines = [headline]
  if (options.log === 'pretty') {
    lines.push(usingDemoKeys ? 'Demo API keys (send "Authorization: Bearer <key>"):' : 'API keys (fingerprints; the keys are yours):')
    for (const key of keys) lines.push(`  ${key.key.padEnd(22)} ${key.plan.padEnd(24)} ${key.perMinute}/min, ${key.perDay}/day`)
    lines.push(
      `Control endpoints: ${control}/health, /reset, /clock, /requests, /faults, /snapshot, /scenario (${options.adminToken === undefined ? 'loopback clients only' : 'with the admin token'})`,
    )
    if (config.path !== undefined) {
      // Without --config, the file in the working directory is read unasked: say so, and how to tell it apart.
      const found = options.config === undefined ? ' (found in the working directory; --config <file> names another)' : ''
      lines.push(`Config file: ${resolve(config.path)}${found}`)
    }
    if (running.simulator.scenario !== 'default') lines.push(`Scenario: ${running.simulator.scenario}`)
    if (store !== undefined)
      lines.push(`Shared store: ${store.url} (namespace ${store.namespace}): every instance on it answers as one API`)
    if (options.workers > 1) lines.push(`Workers: ${options.workers} processes serve the port (Node's cluster)`)
    if (options.state !== undefined) {
      lines.push(`State file: ${options.state} (saved on exit, and every ${options.stateInterval} ms after a change)`)
      if (restored !== undefined) lines.push(...restoredStateLines(restored))
    }
    lines.push(`OpenAPI document: ${running.url}/openapi.json (or .yaml)`)
    lines.push(
      !dashboard.loopbackOnly
        ? `Dashboard: ${dashboard.url} (keys, limits, requests, clock and faults, live in the browser)`
        : `Dashboard: ${dashboard.url ?? 'none on this address'} (loopback clients only${dashboard.url === undefined ? ', and none reaches this address' : ': the machine or container it runs in'}; others get 403 until an admin token is set, ${tokenSetting})`,
    )
  }
  output.writeLine(lines.join('\n'))
}

const tokenSetting = 'PETSTORE_SIM_ADMIN_TOKEN or --admin-token'

/**
 * The dashboard's URL as a browser can open it. Bound to every interface (a container's 0.0.0.0) without an admin
 * token, the control plane serves loopback clients under a loopback `Host` only: the bound address's URL answered 403
 * on the machine itself, and through a container's published port from the host (issue 49), so the loopback URL is
 * given, and the line says how to open it to others. Bound to one address off loopback, no client is on loopback: no
 * URL answers until a token is set. With a token, or bound to loopback, the server's own URL.
 */
function dashboardUrl(running: RunningServer, options: CliOptions): { url: string | undefined; loopbackOnly: boolean } {
  const url = new URL(`${running.url}/__sim/`)
  if (options.adminToken !== undefined || isLoopbackBindAddress(url.hostname)) return { url: url.href, loopbackOnly: false }
  if (url.hostname !== '0.0.0.0' && url.hostname !== '[::]') return { url: undefined, loopbackOnly: true }
  url.hostname = '127.0.0.1'
  return { url: url.href, loopbackOnly: true }
}
