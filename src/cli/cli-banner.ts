import { resolve } from 'node:path'
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
  const restored = restoredState(running)
  if (options.log === 'json') {
    output.writeLine(
      JSON.stringify({
        time: new Date().toISOString(),
        message: headline,
        url: running.url,
        apiUrl: running.apiUrl,
        control,
        dashboard: `${control}/`,
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
    lines.push(`Dashboard: ${control}/ (keys, limits, requests, clock and faults, live in the browser)`)
  }
  output.writeLine(lines.join('\n'))
}
