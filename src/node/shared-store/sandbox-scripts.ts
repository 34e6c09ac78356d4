// The shared store's scripts about the fleet's sandboxes (`<ns>:sandboxes`, a ZSET name -> last use on the store's
// clock): their use, cap and idle expiry (a part of the admission script), their deletion and their listing.

/** Deletes every key of a world (its prefix given): a sandbox that expired, or that the fleet's cap refused. */
export const dropWorld = `
local function dropWorld(p)
  local e = redis.call('HGET', p .. 'meta', 'epoch')
  if e then
    local ep = p .. 'e' .. e .. ':'
    local callers = redis.call('SMEMBERS', ep .. 'callers')
    for i = 1, #callers do redis.call('DEL', ep .. 'rl:' .. callers[i]) end
    redis.call('DEL', ep .. 'callers', ep .. 'created', ep .. 'snapshot')
  end
  redis.call('DEL', p .. 'meta', p .. 'journal', p .. 'journal-seq', p .. 'fault-times')
end
`

/**
 * A sandbox's use, fleet-wide, in the `<ns>:sandboxes` ZSET (name -> last use, store time): a sandbox no instance used
 * for its idle expiry starts fresh (its keys dropped: `absent`, the instance seeds it again); one new to the fleet past
 * the cap is refused (`full`, with the seconds until the least recently used expires), its keys dropped. Expired ones
 * are swept (20 at most) whenever a sandbox starts. ARGV 11..14: sandbox name ('' for the default world), the
 * namespace's prefix (`<ns>:`), the cap, the idle expiry in ms.
 */
export const sandboxUse = `
if ARGV[11] ~= '' then
  ${dropWorld}
  local name = ARGV[11]
  local zkey = ARGV[12] .. 'sandboxes'
  local max = tonumber(ARGV[13])
  local idle = tonumber(ARGV[14])
  local last = redis.call('ZSCORE', zkey, name)
  if (not last) or tonumber(last) + idle <= realNow then
    local gone = redis.call('ZRANGEBYSCORE', zkey, '-inf', realNow - idle, 'LIMIT', 0, 20)
    for i = 1, #gone do
      dropWorld(ARGV[12] .. '{sandbox:' .. gone[i] .. '}:')
      redis.call('ZREM', zkey, gone[i])
    end
    if last then return {'absent'} end
    if redis.call('ZCARD', zkey) >= max then
      dropWorld(prefix)
      local oldest = redis.call('ZRANGE', zkey, 0, 0, 'WITHSCORES')
      return {'full', redis.call('ZCARD', zkey), math.max(1, math.ceil((tonumber(oldest[2]) + idle - realNow) / 1000))}
    end
  end
  redis.call('ZADD', zkey, realNow, name)
end
`

/** A sandbox deleted (`DELETE /__sim/sandboxes/<name>`): its keys and its place. ARGV: the namespace's prefix, the name. */
export const dropSandboxScript = `${dropWorld}
dropWorld(ARGV[1] .. '{sandbox:' .. ARGV[2] .. '}:')
return redis.call('ZREM', ARGV[1] .. 'sandboxes', ARGV[2])
`
