import { expect } from 'vitest'
import type { Instance } from './targets.ts'

// What the cases of an instance that starts late share: a world that has served more calls than its journal holds.
export const journalSize = 5
export const calls = 30

export interface JournalLine {
  readonly sequence: number
  readonly path: string
  readonly status: number
}

export const journalOf = async (reader: Instance): Promise<JournalLine[]> =>
  ((await reader.controlOk('/requests')).requests as JournalLine[]).map(({ sequence, path, status }) => ({ sequence, path, status }))

/** `calls` getPets of pets 1 to 6 in turn, through a: every one answered 200. */
export async function serveMoreThanTheJournalHolds(a: Instance): Promise<void> {
  const statuses: number[] = []
  for (let call = 0; call < calls; call++) statuses.push((await a.api(`/pets/${(call % 6) + 1}`)).status)
  expect(statuses).toEqual(Array.from({ length: calls }, () => 200))
}
