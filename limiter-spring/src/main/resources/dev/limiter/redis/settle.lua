-- One settlement (ADR 0012) for one (budget, key), atomically with every decision on it: per window, the
-- difference between what a request used and what it reserved goes to the window instance the reservation
-- counted in, never taking a count below zero. The same rule as BudgetArithmetic.settle (each window by its
-- algorithm's WindowArithmetic); the contract suite and the differential tests hold the two equal. Only windows
-- whose instance still counts are sent (the caller decides that from time alone); here a window is left alone
-- unless its stored state is still that instance, so a reset key, a forgotten key or a window counting afresh
-- drops its delta. Time is ARGV[1]: this script never calls TIME. The layout is encoded by
-- dev.limiter.redis.TakeScriptCodec, each window's part by its algorithm's WindowCodec.
--
-- KEYS[1]  the windows' hash, as take.lua keeps it
-- ARGV[1] now   ARGV[2] expiry margin (ms)
-- then per window i = 1..n, at j = 2 + 5 (i - 1): ARGV[j + 1] algorithm (a key of the algorithms table),
--   ARGV[j + 2] field name, ARGV[j + 3] instance, ARGV[j + 4] delta, ARGV[j + 5] its algorithm's parameter
-- Every delta is within SettlementBounds.clampDelta (the codec clamps it), and every count, bucket and debt it
-- writes saturates at SettlementBounds.MAX_COUNT (2^52) and 0, as SettlementBounds.settledCount does: exact in
-- doubles, and every expiry it sets within 2^52 ms, so PEXPIRE cannot fail on its value.
--
-- Returns {the number of windows settled, then per window sent: the lowest notify-at threshold the settlement reached
-- there (0 for none), its count after the settlement (0 where it did not settle)}.
local now = tonumber(ARGV[1])
local margin = tonumber(ARGV[2])
local n = (#ARGV - 2) / 5
local key = KEYS[1]

local function int(x)
  return string.format('%.0f', x)
end

local MAX_COUNT = 4503599627370496

local function settledCount(count, delta)
  return math.max(0, math.min(math.max(count, MAX_COUNT), count + delta))
end

-- a parameter "limit:duration"
local function rate(parameter)
  local limit, duration = string.match(parameter, '^(%d+):(%d+)$')
  return tonumber(limit), tonumber(duration)
end

-- One block per window algorithm, keyed by the code its WindowCodec sends, each with
--   settle(field, instance, delta, parameter): applies the delta; returns whether it settled, and until when the
--                                              hash must now be kept for it (0: no longer than it is)
local algorithms = {}

-- Fixed window: the instance is the window's end, the parameter "limit:duration" (what its excess is carried by,
-- FixedWindowDebt) or "limit:duration/<thresholds>" (its notify-at thresholds in units, ascending, comma-separated).
-- A threshold is reached as take.lua's fixed block decides it, with <field>:n, the highest reached in the window:
-- once per window, by the settlement that moved its count across it.
local fixed = {}
algorithms.f = fixed

function fixed.settle(field, instance, delta, parameter)
  local stored = redis.call('HMGET', key, field .. ':r', field .. ':c', field .. ':n')
  if tonumber(stored[1]) ~= instance then
    return false, 0
  end
  local count = settledCount(tonumber(stored[2]) or 0, delta)
  redis.call('HSET', key, field .. ':c', int(count))
  local limit, duration, list = string.match(parameter, '^(%d+):(%d+)/?([%d,]*)$')
  limit, duration = tonumber(limit), tonumber(duration)
  local reached = fixed.reach(field, count, tonumber(stored[3]) or 0, list)
  -- FixedWindowDebt.keepUntil: the excess is carried into the windows after this one until paid
  if count > limit then
    return true, instance + math.min(MAX_COUNT, math.floor((count - 1) / limit) * duration), reached, count
  end
  return true, 0, reached, count
end

-- ThresholdCrossings: the lowest threshold count reaches above notified (0 for none); the highest written to
-- <field>:n when it changed.
function fixed.reach(field, count, notified, list)
  local lowest, highest = 0, notified
  for t in string.gmatch(list, '%d+') do
    t = tonumber(t)
    if t > notified and t <= count then
      if lowest == 0 then
        lowest = t
      end
      highest = t
    end
  end
  if highest ~= notified then
    redis.call('HSET', key, field .. ':n', int(highest))
  end
  return lowest
end

-- Calendar window: as a fixed window, the instance the period's end, the parameter "limit:0" (nothing carried) or
-- "limit:0/<thresholds>".
algorithms.c = fixed

-- Sliding window: the instance is the bucket, the parameter "0"; buckets as take.lua keeps them, "b|o:c,o:c,..."
-- (the oldest bucket b, then each bucket's offset from b and units).
local sliding = {}
algorithms.s = sliding

function sliding.settle(field, instance, delta)
  local v = redis.call('HGET', key, field)
  if not v then
    return false, 0
  end
  local base, rest = string.match(v, '^(%d+)|(.*)$')
  local parts, found = {}, false
  if base then
    for o, c in string.gmatch(rest, '(%d+):(%d+)') do
      local count = tonumber(c)
      if tonumber(base) + tonumber(o) == instance then
        count = settledCount(count, delta)
        found = true
      end
      parts[#parts + 1] = o .. ':' .. int(count)
    end
  end
  if found then
    redis.call('HSET', key, field, base .. '|' .. table.concat(parts, ','))
  end
  return found, 0
end

-- Token bucket: the instance is 0 (a settlement moves its theoretical arrival time, whenever it comes), the
-- parameter its rate "limit:duration"; the delta in tokens is delta * duration millisecond-tokens of debt.
local bucket = {}
algorithms.t = bucket

function bucket.settle(field, instance, delta, parameter)
  local v = redis.call('HGET', key, field)
  if not v then
    return false, 0
  end
  local limit, duration = rate(parameter)
  local ms, fraction = string.match(v, '^(%d+):(%d+)$')
  local debt = math.max(0, (tonumber(ms) - now) * limit + tonumber(fraction))
  debt = settledCount(debt, delta * duration)
  local tat = now + math.floor(debt / limit)
  redis.call('HSET', key, field, int(tat) .. ':' .. int(debt % limit))
  return true, tat
end

local settled = 0
local latest = 0
local reply = {0}
for i = 1, n do
  local j = 2 + 5 * (i - 1)
  local algorithm = algorithms[ARGV[j + 1]]
  if algorithm == nil then
    return redis.error_reply('settle.lua: no algorithm ' .. tostring(ARGV[j + 1]))
  end
  local done, keep, reached, count = algorithm.settle(ARGV[j + 2], tonumber(ARGV[j + 3]), tonumber(ARGV[j + 4]),
    ARGV[j + 5])
  if done then
    settled = settled + 1
  end
  reply[#reply + 1] = reached or 0
  reply[#reply + 1] = done and (count or 0) or 0
  if keep > latest then
    latest = keep
  end
end
if latest > 0 then
  -- A bucket taken into debt is full again, a fixed window's excess paid, later than the hash was kept for.
  local ttl = redis.call('PTTL', key)
  if ttl >= 0 and latest - now + margin > ttl then
    redis.call('PEXPIRE', key, int(latest - now + margin))
  end
end
reply[1] = settled
return reply
