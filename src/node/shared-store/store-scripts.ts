import { storeScript } from './store-connection.ts'
import { publishScript } from './publish-script.ts'
import { dropSandboxScript, listSandboxesScript, sandboxUse } from './sandbox-scripts.ts'

// The Lua scripts of the shared store, one atomic step each (EVALSHA, EVAL on NOSCRIPT: ioredis's defineCommand).
// Every script takes the world's `meta` hash as KEYS[1] and the world's key prefix (`<ns>:{<world>}:`) as ARGV[1]: the
// other keys of the world are named from it, so a script touches keys it was not given, and the sandbox scripts other
// worlds' keys: one Redis server, not Redis Cluster (docs/sharing.md#redis-cluster-not-supported). Numbers come back as integer replies (Lua
// numbers are doubles; `tostring` would print 1.7e+12).

/**
 * Reads the world's version and clock; `stale` (with nothing decided) when the caller's copy is behind: its version
 * is `<life>/<version>`, the life set when the world was first written, so a copy of a world the store lost (restarted
 * empty) is never taken for the new one's, whose versions and epochs count from 1 again. The last ARGV
 * of every script that uses it is the instant (the store's clock) past which the instance no longer waits for the
 * answer: a script run later (it waited in the queue of a paused store) is `expired` and changes nothing, so a request
 * answered 503 never counts. A field of the meta that is not a number is `corrupt`, key and problem named.
 */
const header = `
local meta = KEYS[1]
local prefix = ARGV[1]
local m = redis.call('HMGET', meta, 'version', 'epoch', 'clockOffsetMs', 'clockFrozenAt', 'nextId', 'life')
if not m[1] then return {'absent'} end
if (m[6] or '') .. '/' .. m[1] ~= ARGV[2] then return {'stale', m[1]} end
-- Fields another process wrote (issue 45): refused by name (store_corrupt), before any arithmetic fails on them.
local numeric = {{2, 'epoch'}, {3, 'clockOffsetMs'}, {4, 'clockFrozenAt'}, {5, 'nextId'}}
for _, f in ipairs(numeric) do
  local v = m[f[1]]
  if not ((v == nil and f[1] ~= 2 and f[1] ~= 5) or (v == '' and f[1] == 4) or (v and #v <= 16 and string.match(v, '^-?%d+$'))) then
    return {'corrupt', meta .. ', field ' .. f[2], 'not a whole number: ' .. string.sub(tostring(v), 1, 40)}
  end
end
local epochPrefix = prefix .. 'e' .. m[2] .. ':'
local t = redis.call('TIME')
local realNow = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- A request the instance has answered 503 already (the script waited in a paused store's queue): decided not at all.
if realNow > tonumber(ARGV[#ARGV]) then return {'expired'} end
local function storeNow()
  if m[4] and m[4] ~= '' then return tonumber(m[4]) end
  return realNow + tonumber(m[3] or '0')
end
`

/**
 * One request's admission, exactly as `core/access/rate-limiter.ts` decides it: the store's clock (`TIME` plus the
 * world's offset, or its frozen instant), the ban, both fixed windows (UTC minute and day) that never move back, the
 * ban after `after` refusals in a row. `peek` counts nothing; `forced` peeks and consumes only when refused.
 * ARGV: prefix, version, caller, perMinute, perDay, banAfter (-1: none), banMs, admission, anonymous TTL ms (0: none),
 * pets the caller's copy holds, the cap on anonymous callers, the sandbox's use (see `sandboxUse`), deadline. Anonymous
 * callers are kept in the epoch's `anonymous` ZSET by last use (the store's time), at most the cap (the least recently
 * used dropped, as `maxAnonymousBuckets` does in memory), expired ones swept a few at a time; key callers in `callers`. Reply: ok, outcome (0 allowed, 1 limited, 2 banned), window (0 minute, 1 day, 2 ban),
 * limit, remaining, reset (unix s), retry-after (s), created pets, the epoch, then up to 50 created pets past the caller's
 * count.
 */
export const admitScript = `${header}
${sandboxUse(12)}
local now = storeNow()
local caller = ARGV[3]
local perMinute = tonumber(ARGV[4])
local perDay = tonumber(ARGV[5])
local banAfter = tonumber(ARGV[6])
local banMs = tonumber(ARGV[7])
local admission = ARGV[8]
local key = epochPrefix .. 'rl:' .. caller
local b = redis.call('HMGET', key, 'm', 'mc', 'd', 'dc', 'r', 'b')
local nowMinute = math.floor(now / 60000)
local nowDay = math.floor(now / 86400000)
local minute = math.max(nowMinute, tonumber(b[1] or '0'))
local day = math.max(nowDay, tonumber(b[3] or '0'))
local minuteCount = 0
if b[1] and tonumber(b[1]) == minute then minuteCount = tonumber(b[2]) end
local dayCount = 0
if b[3] and tonumber(b[3]) == day then dayCount = tonumber(b[4]) end
local refused = tonumber(b[5] or '0')
local banEnd = nil
if b[6] and b[6] ~= '' then banEnd = tonumber(b[6]) end
local created = redis.call('LLEN', epochPrefix .. 'created')
local known = tonumber(ARGV[10])
local function reply(outcome, window, limit, remaining, resetMs, retryMs)
  local out = {'ok', outcome, window, limit, remaining, math.ceil(resetMs / 1000), math.max(1, math.ceil(retryMs / 1000)), created, m[2]}
  if created > known then
    local pets = redis.call('LRANGE', epochPrefix .. 'created', known, known + 49)
    for i = 1, #pets do out[#out + 1] = pets[i] end
  end
  return out
end
local function refusal(outcome, window, limit, untilMs) return reply(outcome, window, limit, 0, untilMs, untilMs - now) end
local function allowed(minuteLeft, dayLeft)
  if dayLeft < minuteLeft then return reply(0, 1, perDay, dayLeft, (day + 1) * 86400000, 0) end
  return reply(0, 0, perMinute, minuteLeft, (minute + 1) * 60000, 0)
end
if admission ~= 'consume' then
  local refusedNow = nil
  if banEnd and now < banEnd then refusedNow = refusal(2, 2, perMinute, banEnd)
  elseif dayCount >= perDay then refusedNow = refusal(1, 1, perDay, (day + 1) * 86400000)
  elseif minuteCount >= perMinute then refusedNow = refusal(1, 0, perMinute, (minute + 1) * 60000) end
  if refusedNow == nil then return allowed(perMinute - minuteCount, perDay - dayCount) end
  if admission == 'peek' then return refusedNow end
end
local ttl = tonumber(ARGV[9])
if ttl > 0 then
  local anonymous = epochPrefix .. 'anonymous'
  redis.call('ZADD', anonymous, realNow, caller)
  local expired = redis.call('ZRANGEBYSCORE', anonymous, '-inf', realNow - ttl, 'LIMIT', 0, 10)
  for i = 1, #expired do
    redis.call('ZREM', anonymous, expired[i])
    redis.call('DEL', epochPrefix .. 'rl:' .. expired[i])
  end
  local over = redis.call('ZCARD', anonymous) - tonumber(ARGV[11])
  if over > 0 then
    local dropped = redis.call('ZPOPMIN', anonymous, math.min(over, 10))
    for i = 1, #dropped, 2 do redis.call('DEL', epochPrefix .. 'rl:' .. dropped[i]) end
  end
else
  redis.call('SADD', epochPrefix .. 'callers', caller)
end
local function save(fields)
  redis.call('HSET', key, 'm', minute, 'mc', minuteCount, 'd', day, 'dc', dayCount, 'r', refused, unpack(fields))
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end
if banEnd then
  if now < banEnd then
    save({})
    return refusal(2, 2, perMinute, banEnd)
  end
  redis.call('HDEL', key, 'b')
  refused = 0
end
local minuteExhausted = minuteCount >= perMinute
local dayExhausted = dayCount >= perDay
if minuteExhausted or dayExhausted then
  if banAfter >= 0 and refused >= banAfter then
    local untilMs = now + banMs
    save({'b', untilMs})
    return refusal(2, 2, perMinute, untilMs)
  end
  refused = refused + 1
  save({})
  if dayExhausted then return refusal(1, 1, perDay, (day + 1) * 86400000) end
  return refusal(1, 0, perMinute, (minute + 1) * 60000)
end
refused = 0
minuteCount = minuteCount + 1
dayCount = dayCount + 1
save({})
return allowed(perMinute - minuteCount, perDay - dayCount)
`

/**
 * createPet: the pet (as its NewPet JSON) appended to the epoch's created pets, its id the epoch's first id plus its
 * place, so ids are the fleet's and in order; the cap (`maxPets`) and the last id checked here.
 * ARGV: prefix, version, pets the caller's copy holds, NewPet JSON, maxPets, last id, deadline.
 * Reply: ok, id, the epoch, then the created pets past the caller's count (its own last); or full, next id.
 */
export const createPetScript = `${header}
local list = epochPrefix .. 'created'
local count = redis.call('LLEN', list)
local id = tonumber(m[5]) + count
if count >= tonumber(ARGV[5]) or id > tonumber(ARGV[6]) then return {'full', id} end
redis.call('RPUSH', list, ARGV[4])
local out = {'ok', id, m[2]}
local pets = redis.call('LRANGE', list, tonumber(ARGV[3]), -1)
for i = 1, #pets do out[#out + 1] = pets[i] end
return out
`

/**
 * A journal entry, in the world's capped stream with the fleet-wide sequence (one INCR and XADD, so stream order is
 * sequence order) and its generation: the world's journal, pact and coverage versions (`<j>/<p>/<c>`, '' for never
 * cleared), so that an instance reading it after a clear knows what it still feeds (world-journal.ts). The stream
 * holds at most `capacity` entries and `maxBytes` bytes of them (each its payload and origin, and 64 for its
 * fields), the oldest dropped first, as the journal in memory: `journal-bytes` counts what it holds. Capped by
 * entries only, large createPets took Redis's memory far past the journal's (test/bench/HISTORY.md, "Figures moved
 * out of source comments").
 * ARGV: prefix, capacity, entry JSON, origin (instance:n), last stream id the caller applied, the caller's origin
 * prefix (`instance:`), maxBytes.
 * Reply: the entries after that id, this one last (the latest 500 at most), as [id, seq, origin, payload, generation] flattened,
 * but for the caller's own: this one without its payload (the caller holds it), the others not at all (each comes in
 * its own reply, which the connection delivers before this one). Under 32 concurrent requests each reply carried some
 * 30 of the instance's own entries back to it, their bodies and ids costing it more than the rest of the request.
 */
export const recordScript = `
local prefix = ARGV[1]
local stream = prefix .. 'journal'
local seq = redis.call('INCR', prefix .. 'journal-seq')
local g = redis.call('HMGET', KEYS[1], 'journalVersion', 'pactVersion', 'coverageVersion')
local generation = (g[1] or '') .. '/' .. (g[2] or '') .. '/' .. (g[3] or '')
local size = #ARGV[3] + #ARGV[4] + 64
local id = redis.call('XADD', stream, '*', 's', seq, 'o', ARGV[4], 'p', ARGV[3], 'g', generation, 'n', size)
local bytes = redis.call('INCRBY', prefix .. 'journal-bytes', size)
local capacity = tonumber(ARGV[2])
local maxBytes = tonumber(ARGV[7])
local held = redis.call('XLEN', stream)
while held > 0 and (held > capacity or bytes > maxBytes) do
  local oldest = redis.call('XRANGE', stream, '-', '+', 'COUNT', 1)[1]
  local f = oldest[2]
  local n = 0
  for i = 1, #f, 2 do if f[i] == 'n' then n = tonumber(f[i + 1]) end end
  redis.call('XDEL', stream, oldest[1])
  bytes = redis.call('DECRBY', prefix .. 'journal-bytes', n)
  held = held - 1
end
local entries = redis.call('XREVRANGE', stream, id, '(' .. ARGV[5], 'COUNT', 500)
local own = ARGV[6]
local out = {}
for i = #entries, 1, -1 do
  local fields = entries[i][2]
  local mine = string.sub(fields[4], 1, #own) == own
  if not mine or entries[i][1] == id then
    out[#out + 1] = entries[i][1]
    out[#out + 1] = fields[2]
    out[#out + 1] = fields[4]
    if mine then out[#out + 1] = '' else out[#out + 1] = fields[6] end
    out[#out + 1] = fields[8] or ''
  end
end
return out
`

/**
 * A sandbox entered in the fleet without an API request (its control plane, `PUT /__sim/sandboxes/<name>`), as the
 * admission script does (`sandboxUse`). ARGV: prefix, version, name, the namespace's prefix, cap, idle ms, deadline.
 * Reply: ok, 1 when the fleet had no such sandbox (0 otherwise).
 */
export const useSandboxScript = `${header}
${sandboxUse(3)}
return {'ok', sandboxMade and 1 or 0}
`

/**
 * One firing of a fault rule with `times`, claimed for the fleet: what is left in `fault-times` counted down, or
 * nothing when the fleet has spent it (or the rule is gone). ARGV: prefix, version, rule id, deadline.
 * Reply: ok, 1 when claimed (0 when spent).
 */
export const claimFaultScript = `${header}
local times = prefix .. 'fault-times'
local left = tonumber(redis.call('HGET', times, ARGV[3]) or '0')
if left <= 0 then return {'ok', 0} end
redis.call('HSET', times, ARGV[3], left - 1)
return {'ok', 1}
`

/**
 * The callers' buckets of the world's epoch (for `/__sim/state`, the dashboard and snapshots), a batch at a time, so
 * that no one script reads every anonymous caller (tens of thousands in one script held Redis up for long:
 * test/bench/HISTORY.md, "Figures moved out of source comments"): the key
 * callers (forgetting those whose bucket expired) with the first batch, and the anonymous ones from rank `start`, least
 * recently used first, `count` of them. ARGV: prefix, epoch, start, count. Reply: the anonymous callers held, then
 * caller, m, mc, d, dc, r, b ('' for none) for each bucket.
 */
export const bucketsScript = `
local epochPrefix = ARGV[1] .. 'e' .. ARGV[2] .. ':'
local start = tonumber(ARGV[3])
local anonymous = epochPrefix .. 'anonymous'
local out = {redis.call('ZCARD', anonymous)}
local function add(caller)
  local b = redis.call('HMGET', epochPrefix .. 'rl:' .. caller, 'm', 'mc', 'd', 'dc', 'r', 'b')
  if not b[1] then return false end
  out[#out + 1] = caller
  for j = 1, 5 do out[#out + 1] = b[j] end
  out[#out + 1] = b[6] or ''
  return true
end
if start == 0 then
  local callers = redis.call('SMEMBERS', epochPrefix .. 'callers')
  for i = 1, #callers do
    if not add(callers[i]) then redis.call('SREM', epochPrefix .. 'callers', callers[i]) end
  end
end
-- An expired anonymous bucket is skipped, not removed: removing it would shift the ranks of the batches to come.
local batch = redis.call('ZRANGE', anonymous, start, start + tonumber(ARGV[4]) - 1)
for i = 1, #batch do add(batch[i]) end
return out
`

/** The scripts with their SHA-1s, computed once. */
export const storeScripts = {
  admit: storeScript(admitScript),
  createPet: storeScript(createPetScript),
  record: storeScript(recordScript),
  claimFault: storeScript(claimFaultScript),
  publish: storeScript(publishScript),
  buckets: storeScript(bucketsScript),
  dropSandbox: storeScript(dropSandboxScript),
  useSandbox: storeScript(useSandboxScript),
  listSandboxes: storeScript(listSandboxesScript),
} as const
