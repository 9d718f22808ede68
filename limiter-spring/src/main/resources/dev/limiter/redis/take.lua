-- One decision for one (budget, key), atomically: checks every window and the concurrency bound, then counts
-- and takes the lease. The same rule as dev.limiter.core.internal.FixedWindowArithmetic; the contract suite and
-- the differential test hold the two equal. In dry-run mode (a peek) it only reads: nothing is counted, leased,
-- expired or written. Time is ARGV[1]: this script never calls TIME. The argument layout and the reply are
-- encoded and decoded by dev.limiter.redis.TakeScriptCodec, and nowhere else.
--
-- KEYS[1]  the windows: one hash, per window i the fields <f_i>:r = end of the window counted in (epoch ms)
--          and <f_i>:c = units counted in it
-- KEYS[2]  the leases: sorted set, member = lease id, score = expiry (epoch ms)
-- ARGV[1] now   ARGV[2] cost   ARGV[3] count refused (1|0)   ARGV[4] expiry margin (ms)
-- ARGV[5] lease max (0 when no lease is wanted)   ARGV[6] lease length (ms)   ARGV[7] lease id
-- ARGV[8] dry run (1|0)
-- then per window i = 1..n: ARGV[6 + 3i] limit, ARGV[7 + 3i] end of the window that contains now,
--                           ARGV[8 + 3i] field name f_i
--
-- Returns {admitted, lease refused, leases held, earliest live lease expiry (now if none),
--          reset_1, count_1, room_1, ..., reset_n, count_n, room_n}
local now = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local countRefused = ARGV[3] == '1'
local margin = tonumber(ARGV[4])
local leaseMax = tonumber(ARGV[5])
local leaseMillis = tonumber(ARGV[6])
local leaseId = ARGV[7]
local dryRun = ARGV[8] == '1'
local n = (#ARGV - 8) / 3
local windowsKey = KEYS[1]
local leasesKey = KEYS[2]

local function int(x)
  return string.format('%.0f', x)
end

local fields = {}
for i = 1, n do
  fields[2 * i - 1] = ARGV[8 + 3 * i] .. ':r'
  fields[2 * i] = ARGV[8 + 3 * i] .. ':c'
end
local stored = redis.call('HMGET', windowsKey, unpack(fields))

local resets, counts, room = {}, {}, {}
local roomInWindows = true
local rolled = false
local latestReset = now
for i = 1, n do
  local limit = tonumber(ARGV[6 + 3 * i])
  local reset = tonumber(ARGV[7 + 3 * i])
  local count = 0
  local storedReset = tonumber(stored[2 * i - 1])
  -- A clock that went backwards keeps counting in the newest window this key has seen.
  if storedReset ~= nil and storedReset >= reset then
    reset = storedReset
    count = tonumber(stored[2 * i]) or 0
  else
    rolled = true
  end
  resets[i] = reset
  counts[i] = count
  room[i] = count + cost <= limit
  roomInWindows = roomInWindows and room[i]
  if reset > latestReset then
    latestReset = reset
  end
end

local live = '(' .. int(now)
local held = 0
local leaseFree = true
if leaseMax > 0 then
  if not dryRun then
    redis.call('ZREMRANGEBYSCORE', leasesKey, '-inf', int(now))
  end
  held = redis.call('ZCOUNT', leasesKey, live, '+inf')
  leaseFree = held < leaseMax
end

local admitted = roomInWindows and leaseFree and not dryRun
local counting = admitted or (countRefused and not dryRun)
-- A refusal that moved a window on is written too, so that a clock going back later keeps counting in the
-- newest window, as the in-process store does.
if counting or (rolled and not dryRun) then
  local values = {}
  for i = 1, n do
    if counting then
      counts[i] = counts[i] + cost
    end
    values[4 * i - 3] = fields[2 * i - 1]
    values[4 * i - 2] = int(resets[i])
    values[4 * i - 1] = fields[2 * i]
    values[4 * i] = int(counts[i])
  end
  redis.call('HSET', windowsKey, unpack(values))
  -- The hash lives until its longest window ends; a shorter window's fields are simply rolled over.
  redis.call('PEXPIRE', windowsKey, int(latestReset - now + margin))
end

local earliest = now
if leaseMax > 0 then
  if admitted then
    redis.call('ZADD', leasesKey, int(now + leaseMillis), leaseId)
    held = held + 1
    local latest = redis.call('ZRANGE', leasesKey, -1, -1, 'WITHSCORES')
    redis.call('PEXPIRE', leasesKey, int(tonumber(latest[2]) - now + margin))
  end
  if held > 0 then
    earliest = tonumber(redis.call('ZRANGEBYSCORE', leasesKey, live, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)[2])
  end
end

local result = {admitted and 1 or 0, leaseFree and 0 or 1, held, earliest}
for i = 1, n do
  result[#result + 1] = resets[i]
  result[#result + 1] = counts[i]
  result[#result + 1] = room[i] and 1 or 0
end
return result
