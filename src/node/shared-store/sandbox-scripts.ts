// The shared store's scripts about the fleet's sandboxes (`<ns>:sandboxes`, a ZSET name -> last use on the store's
// clock): their use, cap and idle expiry (a part of the admission script), their deletion and their listing.

/** Deletes the keys of one epoch of a world (its prefix given): its callers' counts (key and anonymous), its created pets, its snapshot. */
export const dropEpoch = `
local function dropEpoch(p, e)
  local ep = p .. 'e' .. e .. ':'
  local callers = redis.call('SMEMBERS', ep .. 'callers')
  for i = 1, #callers do redis.call('DEL', ep .. 'rl:' .. callers[i]) end
  local anonymous = redis.call('ZRANGE', ep .. 'anonymous', 0, -1)
  for i = 1, #anonymous do redis.call('DEL', ep .. 'rl:' .. anonymous[i]) end
  redis.call('DEL', ep .. 'callers', ep .. 'anonymous', ep .. 'created', ep .. 'snapshot')
end
`

/** Deletes every key of a world (its prefix given): a sandbox that expired, or that the fleet's cap refused. */
export const dropWorld = `${dropEpoch}
local function dropWorld(p)
  local e = redis.call('HGET', p .. 'meta', 'epoch')
  if e then dropEpoch(p, e) end
  redis.call('DEL', p .. 'meta', p .. 'journal', p .. 'journal-bytes', p .. 'journal-seq', p .. 'fault-times')
end
`

/**
 * A sandbox's use, fleet-wide, in the `<ns>:sandboxes` ZSET (name -> last use, store time): a sandbox no instance used
 * for its idle expiry starts fresh (its keys dropped: `absent`, the instance seeds it again); one new to the fleet past
 * the cap is refused (`full`, with the seconds until the least recently used expires), its keys dropped. Expired ones
 * are swept (20 at most) whenever a sandbox starts. ARGV `at`..`at`+3: sandbox name ('' for the default world), the
 * namespace's prefix (`<ns>:`), the cap, the idle expiry in ms. `sandboxMade` says whether the fleet had none.
 */
export const sandboxUse = (at: number) => `
local sandboxMade = false
if ARGV[${at}] ~= '' then
  ${dropWorld}
  local name = ARGV[${at}]
  local zkey = ARGV[${at + 1}] .. 'sandboxes'
  local max = tonumber(ARGV[${at + 2}])
  local idle = tonumber(ARGV[${at + 3}])
  local last = redis.call('ZSCORE', zkey, name)
  if (not last) or tonumber(last) + idle <= realNow then
    local gone = redis.call('ZRANGEBYSCORE', zkey, '-inf', realNow - idle, 'LIMIT', 0, 20)
    for i = 1, #gone do
      dropWorld(ARGV[${at + 1}] .. '{sandbox:' .. gone[i] .. '}:')
      redis.call('ZREM', zkey, gone[i])
    end
    if last then return {'absent'} end
    if redis.call('ZCARD', zkey) >= max then
      dropWorld(prefix)
      local oldest = redis.call('ZRANGE', zkey, 0, 0, 'WITHSCORES')
      return {'full', redis.call('ZCARD', zkey), math.max(1, math.ceil((tonumber(oldest[2]) + idle - realNow) / 1000))}
    end
    sandboxMade = true
  end
  redis.call('ZADD', zkey, realNow, name)
end
`

/** A sandbox deleted (`DELETE /__sim/sandboxes/<name>`): its keys and its place. ARGV: the namespace's prefix, the name. */
export const dropSandboxScript = `${dropWorld}
dropWorld(ARGV[1] .. '{sandbox:' .. ARGV[2] .. '}:')
return redis.call('ZREM', ARGV[1] .. 'sandboxes', ARGV[2])
`

/**
 * The fleet's sandboxes (the expired ones dropped first), or the one named, each as the store knows it: name, pets
 * (the epoch's catalogue and the pets created since), requests (the journal stream's entries since the journal's last clear), scenario, when it was
 * made and last used (ms, the store's clock). ARGV: the namespace's prefix, the idle expiry in ms, a name ('' for all).
 */
export const listSandboxesScript = `${dropWorld}
local ns = ARGV[1]
local zkey = ns .. 'sandboxes'
local t = redis.call('TIME')
local realNow = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local gone = redis.call('ZRANGEBYSCORE', zkey, '-inf', realNow - tonumber(ARGV[2]))
for i = 1, #gone do
  dropWorld(ns .. '{sandbox:' .. gone[i] .. '}:')
  redis.call('ZREM', zkey, gone[i])
end
local names = {}
if ARGV[3] == '' then
  names = redis.call('ZRANGE', zkey, 0, -1, 'WITHSCORES')
else
  local score = redis.call('ZSCORE', zkey, ARGV[3])
  if score then names = {ARGV[3], score} end
end
local out = {}
for i = 1, #names, 2 do
  local p = ns .. '{sandbox:' .. names[i] .. '}:'
  local m = redis.call('HMGET', p .. 'meta', 'epoch', 'pets', 'scenario', 'createdAt')
  if m[1] then
    local lastUse = tonumber(names[i + 1])
    out[#out + 1] = names[i]
    out[#out + 1] = tonumber(m[2] or '0') + redis.call('LLEN', p .. 'e' .. m[1] .. ':created')
    -- The stream keeps entries of before the journal's last clear (for the pact): those since it are the sequence's.
    out[#out + 1] = math.min(redis.call('XLEN', p .. 'journal'), tonumber(redis.call('GET', p .. 'journal-seq') or '0'))
    out[#out + 1] = m[3] or ''
    out[#out + 1] = tonumber(m[4] or lastUse)
    out[#out + 1] = lastUse
  end
end
return out
`
