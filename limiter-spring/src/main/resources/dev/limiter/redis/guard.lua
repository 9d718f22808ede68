-- The authentication-failure guard for one client address, one atomic step per call: the same rules as
-- dev.limiter.core.guard.StoreBackedAuthGuardStore (the guard contract suite holds the two equal), in one round
-- trip instead of three. Time is ARGV[2]: this script never calls TIME. Encoded and decoded by
-- dev.limiter.redis.GuardScriptCodec, and nowhere else.
--
-- KEYS[1] lookups in flight: sorted set, member = reservation id, score = expiry (epoch ms)
-- KEYS[2] completed failures: sorted set, member = failure id, score = expiry (epoch ms)
-- KEYS[3] the block: a string holding the block's end (epoch ms)
-- KEYS[4] credentials proven from the address: sorted set, member = credential hash, score = expiry (epoch ms)
-- The four share one hash tag (the address), so this works on Redis Cluster.
--
-- ARGV[1] operation: reserve | fail | succeed | release | unblock | state
-- ARGV[2] now   ARGV[3] threshold   ARGV[4] window (ms)   ARGV[5] block (ms)   ARGV[6] max pending
-- ARGV[7] lookup lease (ms)   ARGV[8] reservation id ('' for none)   ARGV[9] failure id (fail)
-- ARGV[10] expiry margin (ms)   ARGV[11] credential hash (reserve, succeed; '' for none)
-- ARGV[12] proven credentials kept per address
--
-- reserve returns {outcome (1 admitted, 2 blocked, 3 saturated), block end (0 if none; when admitted, the block a
--                  proven credential passes), completed failures, proven (admitted: this credential, without a
--                  reservation; blocked: the address has proven credentials) (1|0)}
-- fail returns    {reached the threshold (1|0), block end (0 if none), the address has proven credentials (1|0)}
-- unblock returns {a block was running (1|0)}
-- state returns   {completed failures, lookups in flight, block end (0 if none), proven credentials}
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
local credential = ARGV[11]
local maxProven = tonumber(ARGV[12])
local pendingKey, failuresKey, blockKey, provenKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

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

local function provenCount()
  return redis.call('ZCOUNT', provenKey, live, '+inf')
end

local function hasProven()
  if provenCount() > 0 then
    return 1
  end
  return 0
end

if op == 'state' then
  return {redis.call('ZCOUNT', failuresKey, live, '+inf'), redis.call('ZCOUNT', pendingKey, live, '+inf'),
          runningBlock(), provenCount()}
end

if op == 'reserve' then
  local blocked = runningBlock()
  -- A credential proven from this address within the window is no guess: admitted without a reservation,
  -- through a block too.
  if credential ~= '' then
    local provenUntil = tonumber(redis.call('ZSCORE', provenKey, credential))
    if provenUntil ~= nil and provenUntil > now then
      return {1, blocked, 0, 1}
    end
  end
  if blocked > 0 then
    return {2, blocked, 0, hasProven()}
  end
  redis.call('ZREMRANGEBYSCORE', pendingKey, '-inf', int(now))
  redis.call('ZREMRANGEBYSCORE', failuresKey, '-inf', int(now))
  local inFlight = redis.call('ZCARD', pendingKey)
  if inFlight >= maxPending then
    return {3, 0, 0, 0}
  end
  local completed = redis.call('ZCARD', failuresKey)
  if completed >= threshold then
    return {2, startBlock(), 0, hasProven()}
  end
  if completed + inFlight + 1 > threshold then
    return {3, 0, 0, 0}
  end
  redis.call('ZADD', pendingKey, int(now + leaseMillis), reservation)
  expireNoSooner(pendingKey, leaseMillis + margin)
  return {1, 0, completed, 0}
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
  table.insert(result, hasProven())
  return result
end

if op == 'succeed' then
  -- Only what this credential caused: its own reservation goes back, and it is proven from this address for the
  -- window (the oldest proof dropped past the bound). Failures, other reservations and a running block stay.
  if reservation ~= '' then
    redis.call('ZREM', pendingKey, reservation)
  end
  if credential ~= '' then
    redis.call('ZREMRANGEBYSCORE', provenKey, '-inf', int(now))
    redis.call('ZADD', provenKey, int(now + windowMillis), credential)
    local over = redis.call('ZCARD', provenKey) - maxProven
    if over > 0 then
      redis.call('ZREMRANGEBYRANK', provenKey, 0, over - 1)
    end
    expireNoSooner(provenKey, windowMillis + margin)
  end
  return {}
end

if op == 'unblock' then
  -- An operator lifts the block: the address is counted from zero; lookups in flight and proven credentials stay.
  local running = 0
  if runningBlock() > 0 then
    running = 1
  end
  redis.call('DEL', blockKey, failuresKey)
  return {running}
end

if op == 'release' then
  if reservation ~= '' then
    redis.call('ZREM', pendingKey, reservation)
  end
  return {}
end

return redis.error_reply('guard.lua: unknown operation ' .. tostring(op))
