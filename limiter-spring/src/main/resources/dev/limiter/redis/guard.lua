-- The authentication-failure guard for one client address, one atomic step per call: the same rules as
-- dev.limiter.core.guard.StoreBackedAuthGuardStore (the guard contract suite holds the two equal), in one round
-- trip instead of three. Time is ARGV[2]: this script never calls TIME. Encoded and decoded by
-- dev.limiter.redis.GuardScriptCodec, and nowhere else.
--
-- KEYS[1] lookups in flight: sorted set, member = reservation id, score = expiry (epoch ms)
-- KEYS[2] completed failures: sorted set, member = failure id, score = expiry (epoch ms)
-- KEYS[3] the block: a string holding the block's end (epoch ms)
-- The three share one hash tag (the address), so this works on Redis Cluster.
--
-- ARGV[1] operation: reserve | fail | succeed | release | state
-- ARGV[2] now   ARGV[3] threshold   ARGV[4] window (ms)   ARGV[5] block (ms)   ARGV[6] max pending
-- ARGV[7] lookup lease (ms)   ARGV[8] reservation id ('' for none)   ARGV[9] failure id (fail) or clear (succeed: 1|0)
-- ARGV[10] expiry margin (ms)
--
-- reserve returns {outcome (1 admitted, 2 blocked, 3 saturated), block end (0 if none), completed failures}
-- fail returns    {reached the threshold (1|0), block end (0 if none)}
-- state returns   {completed failures, lookups in flight, block end (0 if none)}
-- succeed and release return {}
local op = ARGV[1]
local now = tonumber(ARGV[2])
local threshold = tonumber(ARGV[3])
local windowMillis = tonumber(ARGV[4])
local blockMillis = tonumber(ARGV[5])
local maxPending = tonumber(ARGV[6])
local leaseMillis = tonumber(ARGV[7])
local reservation = ARGV[8]
local margin = tonumber(ARGV[10])
local pendingKey, failuresKey, blockKey = KEYS[1], KEYS[2], KEYS[3]

local function int(x)
  return string.format('%.0f', x)
end

-- Keys only ever live longer: a clock a little behind on another instance cannot shorten them.
local function expireNoSooner(key, millis)
  if redis.call('PTTL', key) < millis then
    redis.call('PEXPIRE', key, int(millis))
  end
end

local function runningBlock()
  local untilMillis = tonumber(redis.call('GET', blockKey))
  if untilMillis ~= nil and untilMillis > now then
    return untilMillis
  end
  return 0
end

-- Starts the block (or finds the one running) and drops the failures it replaces; returns its end.
local function startBlock()
  local untilMillis = runningBlock()
  if untilMillis == 0 then
    untilMillis = now + blockMillis
    redis.call('SET', blockKey, int(untilMillis), 'PX', int(blockMillis + margin))
  end
  redis.call('DEL', failuresKey)
  return untilMillis
end

local live = '(' .. int(now)

if op == 'state' then
  return {redis.call('ZCOUNT', failuresKey, live, '+inf'), redis.call('ZCOUNT', pendingKey, live, '+inf'),
          runningBlock()}
end

if op == 'reserve' then
  local blocked = runningBlock()
  if blocked > 0 then
    return {2, blocked, 0}
  end
  redis.call('ZREMRANGEBYSCORE', pendingKey, '-inf', int(now))
  redis.call('ZREMRANGEBYSCORE', failuresKey, '-inf', int(now))
  local inFlight = redis.call('ZCARD', pendingKey)
  if inFlight >= maxPending then
    return {3, 0, 0}
  end
  local completed = redis.call('ZCARD', failuresKey)
  if completed >= threshold then
    return {2, startBlock(), 0}
  end
  if completed + inFlight + 1 > threshold then
    return {3, 0, 0}
  end
  redis.call('ZADD', pendingKey, int(now + leaseMillis), reservation)
  expireNoSooner(pendingKey, leaseMillis + margin)
  return {1, 0, completed}
end

if op == 'fail' then
  -- The failure is counted before the reservation goes back, in the same step: the sum never dips.
  redis.call('ZREMRANGEBYSCORE', failuresKey, '-inf', int(now))
  local completed = redis.call('ZCARD', failuresKey)
  local result
  if completed < threshold then
    redis.call('ZADD', failuresKey, int(now + windowMillis), ARGV[9])
    expireNoSooner(failuresKey, windowMillis + margin)
    if completed + 1 >= threshold then
      result = {1, startBlock()}
    else
      result = {0, runningBlock()}
    end
  else
    -- Already at the threshold: make sure the block exists (another instance may have died before).
    result = {0, startBlock()}
  end
  if reservation ~= '' then
    redis.call('ZREM', pendingKey, reservation)
  end
  return result
end

if op == 'succeed' then
  -- Completed failures only: reservations of other lookups and a running block stay.
  if ARGV[9] == '1' then
    redis.call('DEL', failuresKey)
  end
  if reservation ~= '' then
    redis.call('ZREM', pendingKey, reservation)
  end
  return {}
end

if op == 'release' then
  if reservation ~= '' then
    redis.call('ZREM', pendingKey, reservation)
  end
  return {}
end

return redis.error_reply('guard.lua: unknown operation ' .. tostring(op))
