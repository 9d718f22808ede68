-- One decision for one (budget, key), atomically: checks every window and the concurrency bound, then counts
-- and takes the lease. The same rule as dev.limiter.core.internal.FixedWindowArithmetic#take; the contract
-- suite and the differential test hold the two equal. Time is ARGV[1]: this script never calls TIME.
--
-- KEYS[1]  the windows: one hash, per window i the fields <f_i>:r = end of the window counted in (epoch ms)
--          and <f_i>:c = units counted in it
-- KEYS[2]  the leases: sorted set, member = lease id, score = expiry (epoch ms)
-- ARGV[1] now   ARGV[2] cost   ARGV[3] count refused (1|0)   ARGV[4] expiry margin (ms)
-- ARGV[5] lease max (0 when no lease is wanted)   ARGV[6] lease length (ms)   ARGV[7] lease id
-- then per window i = 1..n: ARGV[5 + 3i] limit, ARGV[6 + 3i] end of the window that contains now,
--                           ARGV[7 + 3i] field name f_i
--
-- Returns {admitted, lease refused, leases held, earliest lease expiry (now if none),
--          reset_1, count_1, room_1, ..., reset_n, count_n, room_n}
local now = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local countRefused = ARGV[3] == '1'
local margin = tonumber(ARGV[4])
local leaseMax = tonumber(ARGV[5])
local leaseMillis = tonumber(ARGV[6])
local leaseId = ARGV[7]
local n = (#ARGV - 7) / 3
local windowsKey = KEYS[1]
local leasesKey = KEYS[2]

local function int(x)
  return string.format('%.0f', x)
end

local fields = {}
for i = 1, n do
  fields[2 * i - 1] = ARGV[7 + 3 * i] .. ':r'
  fields[2 * i] = ARGV[7 + 3 * i] .. ':c'
end
local stored = redis.call('HMGET', windowsKey, unpack(fields))

local resets, counts, room = {}, {}, {}
local roomInWindows = true
local latestReset = now
for i = 1, n do
  local limit = tonumber(ARGV[5 + 3 * i])
  local reset = tonumber(ARGV[6 + 3 * i])
  local count = 0
  local storedReset = tonumber(stored[2 * i - 1])
  -- A clock that went backwards keeps counting in the newest window this key has seen.
  if storedReset ~= nil and storedReset >= reset then
    reset = storedReset
    count = tonumber(stored[2 * i]) or 0
  end
  resets[i] = reset
  counts[i] = count
  room[i] = count + cost <= limit
  roomInWindows = roomInWindows and room[i]
  if reset > latestReset then
    latestReset = reset
  end
end

local held = 0
local leaseFree = true
if leaseMax > 0 then
  redis.call('ZREMRANGEBYSCORE', leasesKey, '-inf', int(now))
  held = redis.call('ZCARD', leasesKey)
  leaseFree = held < leaseMax
end

local admitted = roomInWindows and leaseFree
if admitted or countRefused then
  local values = {}
  for i = 1, n do
    counts[i] = counts[i] + cost
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
    earliest = tonumber(redis.call('ZRANGE', leasesKey, 0, 0, 'WITHSCORES')[2])
  end
end

local result = {admitted and 1 or 0, leaseFree and 0 or 1, held, earliest}
for i = 1, n do
  result[#result + 1] = resets[i]
  result[#result + 1] = counts[i]
  result[#result + 1] = room[i] and 1 or 0
end
return result
