import type { Redis } from 'ioredis'
import { flattenEntries, type WorldJournal } from './world-journal.ts'
import { journalPage } from './world-mirror.ts'

/**
 * Follows the journal streams of every world this instance serves, on a connection of its own (a blocking read would
 * hold up the requests' commands): entries other instances journal reach this one's journals while it is idle, so
 * `waitFor`, the dashboard's live table and `GET /__sim/events` see them. Requests and control requests catch up on
 * their own too; an entry applied twice is skipped.
 */
export function startJournalTail(client: Redis): {
  follow(stream: string, journal: WorldJournal): void
  unfollow(stream: string, journal: WorldJournal): void
  stop(): void
} {
  const followed = new Map<string, WorldJournal>()
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
        const pairs = reply === null ? [] : Array.isArray(reply[0]) ? (reply as [string, Entries][]) : pairsOf(reply)
        let deferred = false
        for (const [stream, entries] of pairs) {
          const read = streams.find(([name]) => name === stream)
          if (read !== undefined && !read[1].apply(flattenEntries(entries), read[2])) deferred = true
        }
        // An entry of a clear its world's copy has not synced yet: read again once the catch-up under way has applied it.
        if (deferred) await new Promise((resolve) => setTimeout(resolve, 50))
      } catch {
        // The store is away: the requests answer 503 meanwhile; the tail tries again.
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, 500))
      }
    }
  }
  void loop()
  return {
    follow: (stream, journal) => void followed.set(stream, journal),
    unfollow(stream, journal) {
      if (followed.get(stream) === journal) followed.delete(stream)
    },
    stop() {
      stopped = true
      client.disconnect()
    },
  }
}

type Entries = [string, string[]][]

function pairsOf(flat: readonly unknown[]): [string, Entries][] {
  const pairs: [string, Entries][] = []
  for (let index = 0; index + 1 < flat.length; index += 2) pairs.push([String(flat[index]), flat[index + 1] as Entries])
  return pairs
}
