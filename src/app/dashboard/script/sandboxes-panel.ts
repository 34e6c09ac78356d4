import { byId, el, utc } from './dom.ts'
import type { ControlClient } from './control-client.ts'

// The sandboxes (`GET /__sim/sandboxes`), on the default world's dashboard: each with a link to its own dashboard.
// A sandbox's dashboard has no such endpoint (a 404): the panel stays hidden there.

interface SandboxList {
  readonly max: number
  readonly sandboxes: ReadonlyArray<{
    readonly name: string
    readonly controlPath: string
    readonly pets: number
    readonly requests: number
    readonly lastUsedAt: string
    readonly expiresAt: string
  }>
  readonly total: { readonly sandboxes: number; readonly pets: number; readonly requests: number }
}

/** Shows the sandboxes now and every 5 s while the page is open. */
export function watchSandboxes(client: ControlClient): void {
  const refresh = () => {
    client.call<SandboxList>('GET', '/sandboxes').then(render, () => {
      byId('sandboxes-panel').hidden = true
    })
  }
  refresh()
  setInterval(refresh, 5000)
}

function render(list: SandboxList): void {
  byId('sandboxes-panel').hidden = false
  const { total } = list
  byId('sandboxes-summary').textContent =
    total.sandboxes === 0
      ? `No sandboxes (at most ${list.max}): a request with an API key to /sandboxes/<name>/v1, or PUT /__sim/sandboxes/<name>, makes one.`
      : `${total.sandboxes} of at most ${list.max} sandboxes: ${total.pets} pets, ${total.requests} requests in their journals.`
  const box = byId('sandboxes')
  box.textContent = ''
  for (const sandbox of list.sandboxes) {
    const item = el('li')
    item.dataset.sandbox = sandbox.name
    const link = el('a', '', sandbox.name)
    link.href = `${sandbox.controlPath}/`
    item.append(link, el('span', 'muted', ` · ${sandbox.pets} pets · ${sandbox.requests} requests · last used ${utc(sandbox.lastUsedAt)}`))
    box.appendChild(item)
  }
}
