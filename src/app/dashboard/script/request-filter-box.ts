import type { ControlClient } from './control-client.ts'
import { byId } from './dom.ts'

// The Requests table's filter box (issue 41): what a request carried, typed as the journal's query string takes it
// (`body.name=Rex&header.x-correlation-id=abc`, `query.limit=5`, or any other journal filter). The event stream
// carries summaries only, so the box asks the journal which of the newest requests match, and the table shows those.

/** At most this many of the newest matches are asked for: the table holds no more rows. */
const newestMatches = 300
/** How long the box waits after the last keystroke, or the last request, before it asks again. */
const settleMs = 250

export interface RequestFilterBox {
  /** Whether a request passes the box: every request when it is empty, or its text is refused. */
  passes(sequence: number): boolean
  /** Asks again soon: requests came in while the box held a filter. */
  refreshSoon(): void
}

export function createRequestFilterBox(client: ControlClient, render: () => void): RequestFilterBox {
  const input = byId<HTMLInputElement>('filter-request')
  const error = byId('filter-request-error')
  /** The sequences the journal matched; null when the box is empty or its text was refused. */
  let matching: ReadonlySet<number> | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  let asked = 0

  function ask(): void {
    timer = null
    const text = input.value.trim().replace(/^\?/, '')
    const question = ++asked
    if (text === '') {
      matching = null
      error.textContent = ''
      render()
      return
    }
    const query = new URLSearchParams(text)
    if (!query.has('limit')) query.set('limit', String(newestMatches))
    client.call<{ requests: ReadonlyArray<{ sequence: number }> }>('GET', `/requests?${query}`).then(
      (page) => {
        if (question !== asked) return
        matching = new Set(page.requests.map((entry) => entry.sequence))
        error.textContent = ''
        render()
      },
      (refused: Error) => {
        if (question !== asked) return
        matching = null
        error.textContent = refused.message
        render()
      },
    )
  }

  const soon = () => {
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(ask, settleMs)
  }
  input.oninput = soon

  return {
    passes: (sequence) => matching === null || matching.has(sequence),
    refreshSoon() {
      if (input.value.trim() !== '') soon()
    },
  }
}
