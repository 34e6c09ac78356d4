import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import { metricFamilies } from '../metrics/metric-families.ts'
import { createExposition, prometheusContentType, type Exposition } from '../metrics/prometheus-text.ts'
import type { RequestMetrics } from '../metrics/request-metrics.ts'
import type { ControlRoute } from './control-route.ts'
import type { SandboxDirectory } from './sandbox-routes.ts'
import { string } from './control-doc.ts'

/**
 * `GET /__sim/metrics`: this instance's metrics in the Prometheus text format (docs/metrics.md), the default world's
 * and every sandbox's, each labelled `sandbox` (`""` for the default world). Guarded like every control route (the
 * admin token, or loopback): Prometheus sends the token with `authorization: { credentials: … }`.
 */
export function metricsRoutes(simulator: SimulatorCore, metrics: RequestMetrics, sandboxes?: SandboxDirectory): ControlRoute[] {
  return [
    {
      method: 'GET',
      path: '/metrics',
      name: 'metrics',
      doc: {
        summary: "This instance's metrics in the Prometheus text format (docs/metrics.md)",
        responses: { '200': { description: 'The exposition', contentType: prometheusContentType, schema: string } },
      },
      resolve() {
        const out = createExposition(Object.values(metricFamilies))
        writeWorld(out, '', simulator, metrics)
        if (sandboxes !== undefined) {
          const held = sandboxes.list()
          for (const { name, world } of held) writeWorld(out, name, world.simulator, world.metrics)
          out.sample(metricFamilies.sandboxes, {}, held.length)
          out.sample(metricFamilies.sandboxesMax, {}, sandboxes.max)
        }
        const { shared } = simulator
        if (shared !== undefined) {
          out.sample(metricFamilies.storeUp, {}, shared.health().ready ? 1 : 0)
          if (shared.calls !== undefined) {
            out.histogram(metricFamilies.storeRoundTrip, {}, shared.calls.roundTrips)
            out.sample(metricFamilies.storeErrors, {}, shared.calls.errors)
          }
        }
        return { status: 200, headers: { 'Content-Type': prometheusContentType }, body: out.text() }
      },
    },
  ]
}

function writeWorld(out: Exposition, sandbox: string, simulator: SimulatorCore, metrics: RequestMetrics | undefined): void {
  metrics?.write(out, sandbox)
  const journal = simulator.journal.usage()
  out.sample(metricFamilies.journalEntries, { sandbox }, journal.entries)
  out.sample(metricFamilies.journalBytes, { sandbox }, journal.bytes)
  out.sample(metricFamilies.journalEvictions, { sandbox }, journal.evicted)
}
