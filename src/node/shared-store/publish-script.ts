import { dropEpoch } from './sandbox-scripts.ts'
/**
 * A control change published to the fleet, the version bumped, only if the world is still at the version the
 * instance's copy was at when the change was made on it (compare-and-set): two instances changing the world at the
 * same moment each made the change on their own copy, and the later one writing its whole rule list or its absolute
 * clock offset over the other's lost it. ARGV: prefix, the copy's version (`<life>/<version>`, as the other scripts
 * compare it; ignored by `init`), kind, then by kind:
 * - `epoch` (reset, scenario, restore, provider state) and `init` (a world's first state, written only if none is
 *   there): snapshot JSON, next id, clock offset, frozen at ('' for none), fault rules JSON, options fingerprint, pets
 *   in the snapshot, scenario, then caller, m, mc, d, dc, r, b ('' for none) for each bucket;
 * - `clock`: offset, frozen at; `faults`: rules JSON; `journal`, `pact`, `coverage`: nothing (cleared);
 * and last, the deadline (the store's clock) past which the instance no longer waits for the answer: a publish run
 * later (it waited in a paused store's queue) is `expired` and changes nothing, as the request was answered 503.
 * What is left of each rule's `times` is kept in `fault-times` (rule id -> firings left), the fleet's count
 * (`claimFaultScript`): a new epoch starts it from the rules given; new rules add theirs, and removed ones leave it.
 * Reply: ok, version, epoch, journal, pact and coverage versions after it, life ('' for a field never set); `stale` when the world has moved on
 * (nothing written); `expired`; or `exists` for an `init` of a world already there.
 */
export const publishScript = `${dropEpoch}
local meta = KEYS[1]
local prefix = ARGV[1]
local kind = ARGV[3]
if kind == 'init' then
  if redis.call('EXISTS', meta) == 1 then return {'exists'} end
else
  local m = redis.call('HMGET', meta, 'version', 'life')
  if not m[1] or (m[2] or '') .. '/' .. m[1] ~= ARGV[2] then return {'stale'} end
end
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(ARGV[#ARGV]) then return {'expired'} end
-- The stream is kept (a new world's aside): its entries carry the journal version they were written in, so an
-- instance that had not read them yet still feeds its pact and coverage from them, as resets keep those in memory.
local function clearJournal()
  if kind == 'init' then redis.call('DEL', prefix .. 'journal', prefix .. 'journal-bytes') end
  redis.call('DEL', prefix .. 'journal-seq')
  redis.call('HINCRBY', meta, 'journalVersion', 1)
end
local function countTimes(rulesJson, fresh)
  local times = prefix .. 'fault-times'
  if fresh then redis.call('DEL', times) end
  local kept = {}
  for _, rule in ipairs(cjson.decode(rulesJson).rules) do
    if type(rule.remaining) == 'number' then
      kept[rule.id] = true
      redis.call('HSETNX', times, rule.id, rule.remaining)
    end
  end
  for _, id in ipairs(redis.call('HKEYS', times)) do
    if not kept[id] then redis.call('HDEL', times, id) end
  end
end
if kind == 'epoch' or kind == 'init' then
  local old = redis.call('HGET', meta, 'epoch')
  if old then dropEpoch(prefix, old) end
  local epoch = redis.call('HINCRBY', meta, 'epoch', 1)
  local epochPrefix = prefix .. 'e' .. epoch .. ':'
  redis.call('SET', epochPrefix .. 'snapshot', ARGV[4])
  redis.call('HSET', meta, 'nextId', ARGV[5], 'clockOffsetMs', ARGV[6], 'clockFrozenAt', ARGV[7], 'faults', ARGV[8], 'options', ARGV[9])
  redis.call('HSET', meta, 'pets', ARGV[10], 'scenario', ARGV[11])
  if kind == 'init' then
    redis.call('HSET', meta, 'createdAt', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), 'life', t[1] .. '.' .. t[2])
  end
  countTimes(ARGV[8], true)
  for i = 12, #ARGV - 1, 7 do
    local key = epochPrefix .. 'rl:' .. ARGV[i]
    redis.call('HSET', key, 'm', ARGV[i + 1], 'mc', ARGV[i + 2], 'd', ARGV[i + 3], 'dc', ARGV[i + 4], 'r', ARGV[i + 5])
    if ARGV[i + 6] ~= '' then redis.call('HSET', key, 'b', ARGV[i + 6]) end
    -- Anonymous callers by last use, as the admission script keeps them (capped there).
    if string.sub(ARGV[i], 1, 10) == 'anonymous:' then
      redis.call('ZADD', epochPrefix .. 'anonymous', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), ARGV[i])
    else
      redis.call('SADD', epochPrefix .. 'callers', ARGV[i])
    end
  end
  clearJournal()
elseif kind == 'clock' then
  redis.call('HSET', meta, 'clockOffsetMs', ARGV[4], 'clockFrozenAt', ARGV[5])
elseif kind == 'faults' then
  redis.call('HSET', meta, 'faults', ARGV[4])
  countTimes(ARGV[4], false)
elseif kind == 'journal' then
  clearJournal()
elseif kind == 'pact' then
  redis.call('HINCRBY', meta, 'pactVersion', 1)
elseif kind == 'coverage' then
  redis.call('HINCRBY', meta, 'coverageVersion', 1)
end
redis.call('HINCRBY', meta, 'version', 1)
local out = redis.call('HMGET', meta, 'version', 'epoch', 'journalVersion', 'pactVersion', 'coverageVersion', 'life')
-- A field never set (no pact or coverage cleared yet) is '' as the mirror reads it from HGETALL, never nil: a nil
-- came back as null, which the mirror took for a version other than '' and cleared the fleet's pact and coverage.
for i = 1, #out do if not out[i] then out[i] = '' end end
table.insert(out, 1, 'ok')
return out
`
