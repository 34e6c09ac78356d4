import { defaults } from '../defaults.ts'

/**
 * Anonymous buckets held at most, by default. A bucket is mostly its id
 * string and its Map entry (longer ids, IPv6, cost a little more each), and
 * the limiter that never forgot held one for every address it had seen
 * (test/core/limiter-memory.ts; the figures: test/bench/HISTORY.md, "Figures
 * moved out of source comments"). So memory stays bounded by this many
 * buckets, whatever the number of addresses.
 */
export const defaultMaxAnonymousBuckets = defaults.maxAnonymousBuckets

/**
 * Bytes counted for one caller's bucket in a world's memory (world-memory.ts): what an IPv4 address's bucket measured
 * (test/bench/HISTORY.md, "Figures moved out of source comments"), rounded up for IPv6 ids and a ban's entry.
 */
export const callerBucketBytes = 256

/** The most bytes of callers' buckets: the anonymous cap, and one bucket per key (keyed callers are the keys in force). */
export function callersMaxBytes(maxAnonymousBuckets: number, keys: number): number {
  return (maxAnonymousBuckets + keys) * callerBucketBytes
}

/** The prefix of the ids of anonymous callers' buckets, one per client address (`anonymous:<address>`). */
export const anonymousCallerPrefix = 'anonymous:'

/**
 * One caller's counts. Windows are kept as minute and day numbers since the
 * epoch, not as epoch ms: small integers, which V8 stores in the object
 * itself, where ms would each need a separate heap number (about 40 fewer
 * bytes per bucket, which matters at 100,000 buckets). Ends of bans, which
 * are epoch ms and rare, are kept apart for the same reason.
 */
interface Bucket {
  minute: number
  minuteCount: number
  day: number
  dayCount: number
  refusedInARow: number
}

/** The buckets of a rate limiter's callers and their bans: what is held, and what is forgotten when. */
interface CallerBuckets {
  /**
   * The caller's bucket for a request: created when it has none (dropping the
   * least recently used anonymous bucket when they are at the cap), and, for
   * an anonymous caller, made the most recently used. Sweeps first when a
   * sweep is due. The windows are the caller's to bring up to date.
   */
  take(callerId: string, now: number, minute: number, day: number): Bucket
  /** The caller's bucket, if one is held: nothing is created or moved. */
  find(callerId: string): Bucket | undefined
  /** Epoch ms at which the ban of a caller ends, for callers with a bucket only. */
  readonly bannedUntil: Map<string, number>
  /** How many anonymous buckets are banned at `now`: a scan of the bans only. */
  anonymousBanned(now: number): number
  readonly anonymousSize: number
  readonly size: number
  reset(): void
  /** Every bucket held, with its ban, as plain data (for snapshots). */
  records(): BucketRecord[]
  /** Replaces every bucket with these (a snapshot's); anonymous ones past the cap are dropped. */
  load(records: readonly BucketRecord[]): void
}

/** One caller's counts as plain data: minutes and days since the epoch, and the end of its ban (epoch ms) if it has one. */
export interface BucketRecord {
  readonly caller: string
  readonly minute: number
  readonly minuteCount: number
  readonly day: number
  readonly dayCount: number
  readonly refusedInARow: number
  readonly bannedUntil?: number | undefined
}

/**
 * A bucket carries information only while the caller is banned, or has used
 * quota in the current UTC day (a minute count is never above the day count of
 * the same day: both grow together and the day resets no later than the
 * minute). Any other bucket decides every next request exactly as a fresh one
 * would: its windows reset on the next request, and a refusal streak left in it
 * ends there too, since a fresh window allows at least one request (plans have
 * positive limits: parsePlan and createKeyRing refuse any other) and an allowed
 * request ends the streak. So such buckets are forgotten. test/core/rate-limiter.test.ts
 * checks this equivalence against the limiter that never forgets, for time that
 * moves forward. The one difference: when the clock is moved back to a UTC day
 * it has left, the old limiter still had the counts of that day for callers
 * that had not called since; this one may have forgotten them, so they start
 * that day afresh (as a real API, whose time never goes back, cannot show).
 *
 * Memory, then, is bounded by the callers active today, which for anonymous
 * callers is the number of client addresses: unbounded on a server open to a
 * network. So anonymous buckets are also capped (`maxAnonymousBuckets`); past
 * the cap, the least recently used one is dropped, which forgives that caller's
 * counts (or ban). This is what nginx's limit_req does when its zone is full
 * ("the least recently used state is removed", nginx.org/r/limit_req_zone).
 * The strict alternative, sending new addresses to one shared overflow bucket,
 * would let anyone with many addresses use up that bucket and lock out every
 * newcomer; dropping the idlest only lets a caller that has been idle while
 * `maxAnonymousBuckets` others called start afresh.
 *
 * Forgetting is amortised: a sweep over all buckets runs once more calls have
 * been made since the last sweep than that sweep kept buckets. A sweep visits
 * at most those it kept plus one new bucket per call since, so it costs O(1)
 * per call, amortised, and needs no timer: time comes only from the clock.
 */
export function createCallerBuckets(maxAnonymousBuckets: number, isAnonymous: (callerId: string) => boolean): CallerBuckets {
  const keyBuckets = new Map<string, Bucket>()
  /** In order of last use, least recent first: a use moves a bucket to the end. */
  const anonymousBuckets = new Map<string, Bucket>()
  /**
   * Walks anonymousBuckets from least to most recently used, to find the bucket
   * to drop when full. Kept from one drop to the next: a Map iterator sees
   * entries added after it was made, and skips deleted ones; starting a new one
   * for each drop would skip the same deleted entries (at the front of the
   * Map's table until it is rebuilt) again and again, which made a call at
   * the default cap orders of magnitude slower (test/bench/HISTORY.md,
   * "Figures moved out of source comments").
   */
  let leastRecentlyUsed = anonymousBuckets.keys()
  /** Epoch ms at which the ban of a caller ends, for callers with a bucket only. */
  const bannedUntil = new Map<string, number>()
  let callsSinceSweep = 0
  /** How many buckets the last sweep kept: the next sweep is due after more calls than that. */
  let keptBySweep = 0

  const forget = (buckets: Map<string, Bucket>, callerId: string) => {
    buckets.delete(callerId)
    bannedUntil.delete(callerId)
  }

  // `forEach`, not `for…of` over `[a, b]` and the entries: with one key calling (a test suite, the bench) a sweep is
  // due every other call, and the array, two iterators and an entry pair per bucket each time showed in the bench's
  // profile (test/bench/HISTORY.md, "Figures moved out of source comments").
  const sweep = (now: number, day: number) => {
    const visit = (buckets: Map<string, Bucket>) => (bucket: Bucket, callerId: string) => {
      const banned = now < (bannedUntil.get(callerId) ?? 0)
      if (!banned && (bucket.day < day || bucket.dayCount === 0)) forget(buckets, callerId)
    }
    keyBuckets.forEach(visit(keyBuckets))
    anonymousBuckets.forEach(visit(anonymousBuckets))
    callsSinceSweep = 0
    keptBySweep = keyBuckets.size + anonymousBuckets.size
    // A fresh walk: it skips the sweep's deletions once, and lets go of the tables the Map has since replaced.
    leastRecentlyUsed = anonymousBuckets.keys()
  }

  const take = (callerId: string, now: number, minute: number, day: number): Bucket => {
    if (++callsSinceSweep > keptBySweep) sweep(now, day)
    const anonymous = isAnonymous(callerId)
    const buckets = anonymous ? anonymousBuckets : keyBuckets
    let bucket = buckets.get(callerId)
    if (bucket === undefined) {
      if (anonymous && anonymousBuckets.size >= maxAnonymousBuckets) {
        let leastRecent = leastRecentlyUsed.next()
        if (leastRecent.done === true) {
          leastRecentlyUsed = anonymousBuckets.keys()
          leastRecent = leastRecentlyUsed.next()
        }
        if (leastRecent.done !== true) forget(anonymousBuckets, leastRecent.value)
      }
      bucket = { minute, minuteCount: 0, day, dayCount: 0, refusedInARow: 0 }
    } else if (anonymous) {
      anonymousBuckets.delete(callerId)
    } else {
      return bucket
    }
    buckets.set(callerId, bucket)
    return bucket
  }

  function reset(): void {
    keyBuckets.clear()
    anonymousBuckets.clear()
    bannedUntil.clear()
    leastRecentlyUsed = anonymousBuckets.keys()
    callsSinceSweep = 0
    keptBySweep = 0
  }

  return {
    take,
    find: (callerId) => keyBuckets.get(callerId) ?? anonymousBuckets.get(callerId),
    bannedUntil,
    anonymousBanned(now) {
      let banned = 0
      for (const [callerId, end] of bannedUntil) if (now < end && anonymousBuckets.has(callerId)) banned++
      return banned
    },
    get anonymousSize() {
      return anonymousBuckets.size
    },
    get size() {
      return keyBuckets.size + anonymousBuckets.size
    },
    reset,
    records() {
      return [keyBuckets, anonymousBuckets].flatMap((buckets) =>
        [...buckets].map(([caller, bucket]): BucketRecord => {
          const banEnd = bannedUntil.get(caller)
          return { caller, ...bucket, ...(banEnd === undefined ? {} : { bannedUntil: banEnd }) }
        }),
      )
    },
    load(records) {
      reset()
      for (const { caller, bannedUntil: banEnd, ...bucket } of records) {
        const buckets = isAnonymous(caller) ? anonymousBuckets : keyBuckets
        if (buckets === anonymousBuckets && anonymousBuckets.size >= maxAnonymousBuckets) continue
        buckets.set(caller, { ...bucket })
        if (banEnd !== undefined) bannedUntil.set(caller, banEnd)
      }
      leastRecentlyUsed = anonymousBuckets.keys()
      keptBySweep = keyBuckets.size + anonymousBuckets.size
    },
  }
}
