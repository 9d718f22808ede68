-- Reads one (budget, key) without counting: the same view as dev.limiter.core.internal.FixedWindowArithmetic#peek.
--
-- KEYS[1]  the windows' hash   KEYS[2]  the leases sorted set (see take.lua)
-- ARGV[1] now   ARGV[2] lease max (0 when the budget has no concurrency bound)
-- then per window i = 1..n: ARGV[3i] limit, ARGV[1 + 3i] end of the window that contains now, ARGV[2 + 3i] field
--
-- Returns {leases held, earliest live lease expiry (now if none), concurrency refused,
--          reset_1, count_1, refused_1, ..., reset_n, count_n, refused_n}
local now = tonumber(ARGV[1])
local leaseMax = tonumber(ARGV[2])
local n = (#ARGV - 2) / 3
local windowsKey = KEYS[1]
local leasesKey = KEYS[2]

local result = {0, now, 0}
if leaseMax > 0 then
  local live = '(' .. string.format('%.0f', now)
  local held = redis.call('ZCOUNT', leasesKey, live, '+inf')
  result[1] = held
  if held > 0 then
    result[2] = tonumber(redis.call('ZRANGEBYSCORE', leasesKey, live, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)[2])
  end
  result[3] = held >= leaseMax and 1 or 0
end

local fields = {}
for i = 1, n do
  fields[2 * i - 1] = ARGV[2 + 3 * i] .. ':r'
  fields[2 * i] = ARGV[2 + 3 * i] .. ':c'
end
local stored = redis.call('HMGET', windowsKey, unpack(fields))

for i = 1, n do
  local limit = tonumber(ARGV[3 * i])
  local reset = tonumber(ARGV[1 + 3 * i])
  local count = 0
  local storedReset = tonumber(stored[2 * i - 1])
  if storedReset ~= nil and storedReset >= reset then
    reset = storedReset
    count = tonumber(stored[2 * i]) or 0
  end
  result[#result + 1] = reset
  result[#result + 1] = count
  result[#result + 1] = count + 1 > limit and 1 or 0
end
return result
