-- Keeps one lease of a request still in flight: moves its expiry forward if it is still live. A lease that
-- expired (even if not yet removed), was released or was forgotten is not brought back: another request may hold
-- its slot by now. Time is ARGV[1]: this script never calls TIME. Kept apart from take.lua, which it does not
-- change: it touches only the lease set take.lua writes (same key, same hash tag).
--
-- KEYS[1]  the leases: sorted set, member = lease id, score = expiry (epoch ms)
-- ARGV[1] now   ARGV[2] new expiry (ms)   ARGV[3] lease id   ARGV[4] expiry margin (ms)
--
-- Returns {1} when the lease was live (and now lives until ARGV[2], or later), else {0}
local now = tonumber(ARGV[1])
local expiry = tonumber(ARGV[2])
local score = redis.call('ZSCORE', KEYS[1], ARGV[3])
if not score or tonumber(score) <= now then
  return {0}
end
if expiry > tonumber(score) then
  redis.call('ZADD', KEYS[1], 'XX', string.format('%.0f', expiry), ARGV[3])
  local wanted = expiry - now + tonumber(ARGV[4])
  if redis.call('PTTL', KEYS[1]) < wanted then
    redis.call('PEXPIRE', KEYS[1], string.format('%.0f', wanted))
  end
end
return {1}
