import type { SimulatorStatus } from '../../../core/state/simulator-status.ts'
import type { ControlClient } from './control-client.ts'
import { announce, byId } from './dom.ts'
import type { RequestsBatch, RequestsTable } from './requests-table.ts'
import type { StatusPanels } from './status-panels.ts'

// `GET /__sim/events` (server-sent events, `app/dashboard/event-stream.ts`), read with `fetch` rather than
// `EventSource` so that it sends the admin token like every other request, and read again whenever it ends.

export interface StreamParts {
  readonly client: ControlClient
  readonly status: StatusPanels
  readonly requests: RequestsTable
  /** Called on a reset event: the scenario may have changed. */
  readonly onReset: () => void
}

/** Reads the event stream for as long as the page is open: again after each end, a little later each time (at most every 5 s). */
export async function readEventStream(parts: StreamParts): Promise<never> {
  let delay = 500
  for (;;) {
    try {
      const response = await parts.client.fetchWithToken('/events', { Accept: 'text/event-stream' })
      if (await parts.client.askedAgain(response)) continue
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`)
      setConnected(true)
      delay = 500
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ''
      // The first batch of requests after opening is the whole list; later ones add to it.
      let fresh = true
      for (;;) {
        const chunk = await reader.read()
        if (chunk.done) break
        buffer += chunk.value.replace(/\r\n?/g, '\n')
        const blocks = buffer.split('\n\n')
        buffer = blocks.pop() ?? ''
        for (const block of blocks) fresh = handleEvent(parts, block, fresh)
      }
    } catch {
      // The simulator stopped or restarted: try again, a little later each time.
    }
    setConnected(false)
    await new Promise((resolve) => setTimeout(resolve, delay))
    delay = Math.min(delay * 2, 5000)
  }
}

/** One event; returns whether the next `requests` event is still the first since the stream opened. */
function handleEvent(parts: StreamParts, block: string, fresh: boolean): boolean {
  let type = 'message'
  const data: string[] = []
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) type = line.slice(6).trim()
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  if (data.length === 0) return fresh
  const payload: unknown = JSON.parse(data.join('\n'))
  if (type === 'state') parts.status.render(payload as SimulatorStatus)
  else if (type === 'requests') {
    parts.requests.add(payload as RequestsBatch, fresh)
    return false
  } else if (type === 'reset') {
    parts.requests.clear()
    announce('Simulator reset')
    parts.onReset()
  }
  return fresh
}

function setConnected(connected: boolean): void {
  const conn = byId('conn')
  conn.textContent = connected ? 'live' : 'reconnecting…'
  conn.className = `badge ${connected ? 'ok' : 'warn'}`
}
