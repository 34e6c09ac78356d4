import type { JournalEntry } from '../core/request-journal.ts'

/*
 * Facts the handlers and a transport pass each other on the very Request and
 * Response objects msw hands through (msw passes the transport's Request to
 * the resolver and returns the resolver's Response as is). Symbol-keyed
 * properties are used rather than WeakMaps: a WeakMap entry per request is an
 * ephemeron the garbage collector must trace, which showed in the benchmark's
 * p99. The symbols are constants; no state lives here.
 */
const clientAddressKey = Symbol('petstore-sim.clientAddress')
const bodyBytesKey = Symbol('petstore-sim.bodyBytes')
const journalEntryKey = Symbol('petstore-sim.journalEntry')

type Annotated = { [clientAddressKey]?: string; [bodyBytesKey]?: Uint8Array; [journalEntryKey]?: JournalEntry }

/** Records the network address of a request's client (a transport calls it). */
export function setClientAddress(request: Request, address: string): void {
  ;(request as Annotated)[clientAddressKey] = address
}

export function clientAddressOf(request: Request): string | undefined {
  return (request as Annotated)[clientAddressKey]
}

/** Remembers the bytes a response's body was made from, so a transport can send them without reading the stream. */
export function setBodyBytes(response: Response, bytes: Uint8Array): void {
  ;(response as Annotated)[bodyBytesKey] = bytes
}

/** The bytes the body was made from, while the body has not been read. */
export function bodyBytesOf(response: Response): Uint8Array | undefined {
  return response.bodyUsed ? undefined : (response as Annotated)[bodyBytesKey]
}

export function setJournalEntry(response: Response, entry: JournalEntry): void {
  ;(response as Annotated)[journalEntryKey] = entry
}

/** The journal entry of the API request this response answered. */
export function journalEntryOf(response: Response): JournalEntry | undefined {
  return (response as Annotated)[journalEntryKey]
}
