import type { Redis } from 'ioredis'
import type { StoreConnection } from './store-connection.ts'
import { decodeStreamEntries, isStoreCorrupt } from './store-values.ts'
import type { WorldJournal } from './world-journal.ts'
import { journalPage } from './world-mirror.ts'

/**
 * Follows the journal streams of every world this instance serves, on a connection of its own (a blocking read would
 * hold up the requests' commands): entries other instances journal reach this one's journals while it is idle, so
 * `waitFor`, the dashboard's live table and `GET /__sim/events` see them. Requests and control requests catch up on
 * their own too; an entry applied twice is skipped. A stream holding an entry this version did not write marks its
 * world not ready (`recheck`, a full read of the world, clears it) and is read again half a second later, not at once.
 */
export function startJournalTail(
  client: Redis,
  connection: Pick<StoreConnection, 'corrupt' | 'markCorrupt'>,
): {
  follow(stream: string, journal: WorldJournal, recheck: () => Promise<unknown>): void
  unfollow(stream: string, journal: WorldJournal): void
  stop(): void
} {
  const followed = new Map<string, WorldJournal>()
  const rechecks = new Map<string, () => Promise<unknown>>()
  let stopped = false
  client.on('error', () => {})
  const loop = async () => {
    while (!stopped) {
      if (followed.size === 0) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        continue
      }
      const streams = [...followed].map(([stream, journal]) => [stream, journal, journal.restarts] as const)
      try {
        const reply = (await client.call(
          'XREAD',
          'COUNT',
          journalPage,
          'BLOCK',
          1000,
          'STREAMS',
          ...streams.map(([stream]) => stream),
          ...streams.map(([, journal]) => journal.lastId),
        )) as unknown[] | null
        // RESP2 answers [[stream, entries], …]; RESP3 a map, which the client gives flat: stream, entries, ….
        const pairs = reply === null ? [] : Array.isArray(reply[0]) ? (reply as [string, unknown][]) : pairsOf(reply)
        let refused = false
        let deferred = false
        for (const [stream, entries] of pairs) {
          const read = streams.find(([name]) => name === stream)
          if (read === undefined) continue
          try {
            if (!read[1].apply(decodeStreamEntries(entries, stream, connection.corrupt), read[2])) deferred = true
          } catch (error) {
            if (!isStoreCorrupt(error)) throw error
            refused = true
            const prefix = stream.slice(0, -'journal'.length)
            connection.markCorrupt(prefix, error.message, rechecks.get(stream) ?? (() => Promise.resolve()))
          }
        }
        if (refused) await new Promise((resolve) => setTimeout(resolve, 500))
        // An entry of a clear its world's copy has not synced yet: read again once the catch-up under way has applied it.
        else if (deferred) await new Promise((resolve) => setTimeout(resolve, 50))
      } catch {
        // The store is away: the requests answer 503 meanwhile; the tail tries again.
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, 500))
      }
    }
  }
  void loop()
  return {
    follow(stream, journal, recheck) {
      followed.set(stream, journal)
      rechecks.set(stream, recheck)
    },
    unfollow(stream, journal) {
      if (followed.get(stream) !== journal) return
      followed.delete(stream)
      rechecks.delete(stream)
    },
    stop() {
      stopped = true
      client.disconnect()
    },
  }
}

function pairsOf(flat: readonly unknown[]): [string, unknown][] {
  const pairs: [string, unknown][] = []
  for (let index = 0; index + 1 < flat.length; index += 2) pairs.push([String(flat[index]), flat[index + 1]])
  return pairs
}
