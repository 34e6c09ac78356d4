import type { TransportFacts } from '../core/http/plain-http.ts'

/*
 * The types the Node lane and the msw lane (`handlers/msw-lane.ts`) share, in a file of their own that imports
 * neither: `handlers/msw-lane.ts` took `Engine` from a node file and the Node listener took `FetchLane` from
 * `handlers/msw-lane.ts`, a cycle between the two folders' files.
 */

/**
 * How a server answers: `direct` hands requests to the simulator as plain
 * data (no Fetch objects, no msw); `msw` answers everything through msw's
 * `getResponse` and the simulator's MSW handlers, for comparison and as a
 * fallback.
 */
export type Engine = 'direct' | 'msw'
export const engines: readonly Engine[] = ['direct', 'msw']

/** A server lane that answers Fetch requests through msw's `getResponse`. */
export type FetchLane = (request: Request, transport: TransportFacts) => Promise<Response>
