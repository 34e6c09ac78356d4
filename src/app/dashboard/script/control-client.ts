import { announce, byId } from './dom.ts'

// The dashboard's calls to the control endpoints, with the admin token: when one answers 401 `admin_unauthorized`, the
// page asks for the token in a form and keeps it in `sessionStorage` (this tab only).

// The control plane this page was served by: `/__sim`, or a sandbox's own, `/sandboxes/<name>/__sim` (docs/sharing.md).
export const controlBase = `${location.pathname.replace(/\/__sim(?:\/.*)?$/, '')}/__sim`
const base = controlBase
const tokenKey = 'petstore-sim-admin-token'

export interface ControlClient {
  /** A control endpoint's JSON answer; an Error with the answer's message when it is not a success. */
  call<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T>
  /** `fetch` of a control path with the token, as the event stream needs it. */
  fetchWithToken(path: string, headers: Record<string, string>): Promise<Response>
  /** Whether an answer refused the token (or its absence): the token is forgotten and asked for again, once. */
  askedAgain(response: Response): Promise<boolean>
  /** Runs an action: its error shown in `errorTarget` (the page's alert by default), `done` announced when it succeeds. */
  act<T>(promise: Promise<T>, done?: string, errorTarget?: string): Promise<T | undefined>
}

export function createControlClient(): ControlClient {
  let tokenWait: Promise<void> | null = null

  function authHeaders(extra: Record<string, string>): Record<string, string> {
    const token = sessionStorage.getItem(tokenKey)
    return token ? { ...extra, Authorization: `Bearer ${token}` } : extra
  }

  function askToken(again: boolean): Promise<void> {
    if (!tokenWait) {
      tokenWait = new Promise((resolve) => {
        const dialog = byId<HTMLDialogElement>('token-dialog')
        const input = byId<HTMLInputElement>('token')
        byId('token-error').textContent = again ? 'That token was refused. Try again.' : ''
        byId<HTMLFormElement>('token-form').onsubmit = (event) => {
          event.preventDefault()
          sessionStorage.setItem(tokenKey, input.value)
          input.value = ''
          dialog.close()
          tokenWait = null
          resolve()
        }
        if (!dialog.open) dialog.showModal()
      })
    }
    return tokenWait
  }

  async function askedAgain(response: Response): Promise<boolean> {
    if (response.status !== 401) return false
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => null)
    if (body === null || typeof body !== 'object' || (body as { code?: unknown }).code !== 'admin_unauthorized') return false
    const had = sessionStorage.getItem(tokenKey) !== null
    sessionStorage.removeItem(tokenKey)
    await askToken(had)
    return true
  }

  return {
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      for (let attempt = 0; attempt < 5; attempt++) {
        const init: RequestInit = {
          method,
          cache: 'no-store',
          headers: authHeaders(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
        }
        if (method === 'POST') init.body = JSON.stringify(body === undefined ? {} : body)
        const response = await fetch(base + path, init)
        if (await askedAgain(response)) continue
        const data = (await response.json().catch(() => null)) as (T & { message?: string }) | null
        if (!response.ok) throw new Error(data?.message ? data.message : `HTTP ${response.status}`)
        return data as T
      }
      throw new Error('No admin token')
    },
    fetchWithToken: (path, headers) => fetch(base + path, { cache: 'no-store', headers: authHeaders(headers) }),
    askedAgain,
    act(promise, done, errorTarget) {
      const target = byId(errorTarget || 'error')
      target.textContent = ''
      return promise.then(
        (data) => {
          if (done) announce(done)
          return data
        },
        (error: Error) => {
          target.textContent = error.message
          return undefined
        },
      )
    },
  }
}
