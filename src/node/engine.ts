/**
 * How a server answers: `direct` hands requests to the simulator as plain
 * data (no Fetch objects, no msw); `msw` answers everything through msw's
 * `getResponse` and the simulator's MSW handlers, for comparison and as a
 * fallback.
 */
export type Engine = 'direct' | 'msw'
export const engines: readonly Engine[] = ['direct', 'msw']
