-- Reads one (budget, key) without counting: the same view as dev.limiter.core.internal.FixedWindowArithmetic#peek.
--
-- KEYS[1..n]  the window hashes   KEYS[n+1]  the leases sorted set (see take.lua)
-- ARGV[1] now   ARGV[2] lease max (0 when the budget has no concurrency bound)
-- ARGV[1 + 2i] limit of window i   ARGV[2 + 2i] end of window i's window that contains now (i = 1..n)
--
-- Returns {leases held, earliest live lease expiry (now if none), concurrency refused,
--          reset_1, count_1, refused_1, ..., reset_n, count_n, refused_n}
local now = tonumber(ARGV[1])
local leaseMax = tonumber(ARGV[2])
local n = #KEYS - 1
local leasesKey = KEYS[n + 1]

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

for i = 1, n do
  local limit = tonumber(ARGV[1 + 2 * i])
  local reset = tonumber(ARGV[2 + 2 * i])
  local count = 0
  local stored = redis.call('HMGET', KEYS[i], 'r', 'c')
  local storedReset = tonumber(stored[1])
  if storedReset ~= nil and storedReset >= reset then
    reset = storedReset
    count = tonumber(stored[2]) or 0
  end
  result[#result + 1] = reset
  result[#result + 1] = count
  result[#result + 1] = count + 1 > limit and 1 or 0
end
return result
