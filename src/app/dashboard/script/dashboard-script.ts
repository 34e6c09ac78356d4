import { createControlClient } from './control-client.ts'
import { readEventStream } from './event-stream-reader.ts'
import { createJournalView } from './journal-view.ts'
import { loadScenarios, wireControls } from './page-controls.ts'
import { createRequestFilterBox } from './request-filter-box.ts'
import { createRequestsTable } from './requests-table.ts'
import { watchSandboxes } from './sandboxes-panel.ts'
import { watchClients } from './clients-panel.ts'
import { createStatusPanels } from './status-panels.ts'

// The dashboard's script (`GET /__sim/`): bundled into one inline script of the page at build time
// (rolldown.config.ts; `dashboard-script-bundle.ts` holds the bundle for the sources), run under the page's CSP
// nonce. No framework: the DOM, `fetch`, and the control endpoints only.

function startDashboard(): void {
  const client = createControlClient()
  const status = createStatusPanels(client)
  const requests = createRequestsTable(createJournalView(client), (render) => createRequestFilterBox(client, render))
  wireControls({ client, status, requests })
  loadScenarios(client)
  setInterval(() => status.tick(), 1000)
  watchSandboxes(client)
  watchClients(client)
  readEventStream({ client, status, requests, onReset: () => loadScenarios(client) })
}

startDashboard()
