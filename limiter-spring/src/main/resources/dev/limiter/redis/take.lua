-- One decision for one (budget, key), atomically: checks every window, each by its own algorithm, and the
-- concurrency bound, then counts and takes the lease. The same rule as dev.limiter.core.internal.BudgetArithmetic
-- (FixedWindowArithmetic, SlidingWindowArithmetic, TokenBucketArithmetic); the contract suites and the
-- differential tests hold the two equal. In dry-run mode (a peek) it only reads: nothing is counted, leased,
-- expired or written. Time is ARGV[1]: this script never calls TIME. The argument layout and the reply are
-- encoded and decoded by dev.limiter.redis.TakeScriptCodec, and nowhere else.
--
-- KEYS[1]  the windows: one hash. A fixed window i has the fields <f_i>:r = end of the window counted in
--          (epoch ms) and <f_i>:c = units counted in it; a sliding window the field <f_i> = its buckets,
--          "b|o:c,o:c,..." (the oldest bucket's index b, then per bucket its offset from b and its units,
--          oldest first); a token bucket the field <f_i> = "ms:fraction",
--          its theoretical arrival time in ms plus fraction / limit of a ms
-- KEYS[2]  the leases: sorted set, member = lease id, score = expiry (epoch ms)
-- ARGV[1] now   ARGV[2] cost (each window takes its own, below)   ARGV[3] count refused (1|0)   ARGV[4] expiry margin (ms)
-- ARGV[5] lease max (0 when no lease is wanted)   ARGV[6] lease length (ms)   ARGV[7] lease id
-- ARGV[8] dry run (1|0)
-- then per window i = 1..n, at j = 8 + 6 (i - 1): ARGV[j + 1] algorithm (f|s|t), ARGV[j + 2] limit,
--   ARGV[j + 3] and ARGV[j + 4]: fixed: end of the window that contains now, and its duration when it carries
--   what it counted beyond its limit into the windows after it (a window in a unit other than requests;
--   FixedWindowDebt), else 0; sliding: duration, resolution;
--   token bucket: duration, burst;   ARGV[j + 5] field name f_i;   ARGV[j + 6] what the request takes from
--   this window (ARGV[2] for a window of requests, the estimate of its unit for any other; ADR 0012)
--
-- Returns {admitted, lease refused, leases held, earliest live lease expiry (now if none),
--          then per window: reset, count (fixed) or remaining (the others), room (1|0),
--          retry at (-1 for never; a fixed window: its reset, or later while it carries an excess)}
local now = tonumber(ARGV[1])
local countRefused = ARGV[3] == '1'
local margin = tonumber(ARGV[4])
local leaseMax = tonumber(ARGV[5])
local leaseMillis = tonumber(ARGV[6])
local leaseId = ARGV[7]
local dryRun = ARGV[8] == '1'
local n = (#ARGV - 8) / 6
local windowsKey = KEYS[1]
local leasesKey = KEYS[2]

local function int(x)
  return string.format('%.0f', x)
end

local function ceilDiv(a, b)
  return -math.floor(-a / b)
end

local algos, limits, pa, pb, names, at, costs = {}, {}, {}, {}, {}, {}, {}
local fields = {}
for i = 1, n do
  local j = 8 + 6 * (i - 1)
  costs[i] = tonumber(ARGV[j + 6])
  algos[i] = ARGV[j + 1]
  limits[i] = tonumber(ARGV[j + 2])
  pa[i] = tonumber(ARGV[j + 3])
  pb[i] = tonumber(ARGV[j + 4])
  names[i] = ARGV[j + 5]
  at[i] = #fields + 1
  if algos[i] == 'f' then
    fields[#fields + 1] = names[i] .. ':r'
    fields[#fields + 1] = names[i] .. ':c'
  else
    fields[#fields + 1] = names[i]
  end
end
local stored = redis.call('HMGET', windowsKey, unpack(fields))

-- SettlementBounds.MAX_KEEP_MILLIS: the longest a key is kept for what it carries
local MAX_KEEP = 4503599627370496

-- FixedWindowDebt.carried: what the window ending at reset starts with after one that ended at storedReset
local function carried(i, storedReset, storedCount, reset)
  if pb[i] == 0 or storedCount <= limits[i] or storedReset <= 0 or reset <= storedReset then
    return 0
  end
  return math.max(0, storedCount - math.floor((reset - storedReset) / pb[i]) * limits[i])
end

-- FixedWindowDebt.keepUntil: until when a fixed window still matters, its excess carried
local function keepUntil(i, reset, count)
  if pb[i] == 0 or count <= limits[i] then
    return reset
  end
  return reset + math.min(MAX_KEEP, math.floor((count - 1) / limits[i]) * pb[i])
end

-- FixedWindowDebt.retryAt: a refused fixed window's retry, its reset or a later window's start while it carries
local function retryAt(i, reset, count, cost, hasRoom)
  if hasRoom or pb[i] == 0 then
    return reset
  end
  local windows = math.floor((count + cost - 1) / limits[i])
  if windows <= 1 then
    return reset
  end
  return reset + math.min(MAX_KEEP, (windows - 1) * pb[i])
end

-- Sliding window (SlidingWindowArithmetic): bucket b counts until (b + 1) * resolution + duration; read at
-- now, or at the newest bucket's start when a clock went back behind it.
local function slidingRead(i)
  local bs, cs = {}, {}
  local v = stored[at[i]]
  if v then
    local base, rest = string.match(v, '^(%d+)|(.*)$')
    base = tonumber(base)
    for o, c in string.gmatch(rest, '(%d+):(%d+)') do
      bs[#bs + 1] = base + tonumber(o)
      cs[#cs + 1] = tonumber(c)
    end
  end
  return bs, cs
end

local function slidingAt(i, bs)
  if #bs == 0 then
    return now
  end
  return math.max(now, bs[#bs] * pb[i])
end

local function expiry(i, b)
  return (b + 1) * pb[i] + pa[i]
end

local function slidingAlive(i, bs, cs)
  local t = slidingAt(i, bs)
  local alive = 0
  for j = 1, #bs do
    if expiry(i, bs[j]) > t then
      alive = alive + cs[j]
    end
  end
  return alive
end

-- Token bucket (TokenBucketArithmetic): debt = (TAT - now) * limit, in millisecond-tokens.
local function bucketRead(i)
  local v = stored[at[i]]
  if v then
    local ms, fraction = string.match(v, '^(%d+):(%d+)$')
    return tonumber(ms), tonumber(fraction)
  end
  return 0, 0
end

local function bucketDebt(i, ms, fraction)
  return math.max(0, (ms - now) * limits[i] + fraction)
end

local resets, counts, room = {}, {}, {}
local sbs, scs, tms, tfr = {}, {}, {}, {}
local roomInWindows = true
local rolled = false
for i = 1, n do
  local limit = limits[i]
  local cost = costs[i]
  if algos[i] == 'f' then
    local reset = pa[i]
    local count = 0
    local storedReset = tonumber(stored[at[i]])
    -- A clock that went backwards keeps counting in the newest window this key has seen.
    if storedReset ~= nil and storedReset >= reset then
      reset = storedReset
      count = tonumber(stored[at[i] + 1]) or 0
    else
      rolled = true
      if storedReset ~= nil then
        count = carried(i, storedReset, tonumber(stored[at[i] + 1]) or 0, reset)
      end
    end
    resets[i] = reset
    counts[i] = count
    room[i] = count + cost <= limit
  elseif algos[i] == 's' then
    sbs[i], scs[i] = slidingRead(i)
    room[i] = slidingAlive(i, sbs[i], scs[i]) + cost <= limit
  else
    tms[i], tfr[i] = bucketRead(i)
    room[i] = bucketDebt(i, tms[i], tfr[i]) + cost * pa[i] <= pb[i] * pa[i]
  end
  roomInWindows = roomInWindows and room[i]
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

-- Counts, then says how every window stands; collects what to write.
local values = {}
local reply = {}
local latestReset = now
for i = 1, n do
  local limit = limits[i]
  local cost = costs[i]
  local reset, second, retry
  if algos[i] == 'f' then
    if counting then
      counts[i] = counts[i] + cost
    end
    -- A refusal that moved a window on is written too, so that a clock going back later keeps counting in
    -- the newest window, as the in-process store does.
    if counting or (rolled and not dryRun) then
      values[#values + 1] = fields[at[i]]
      values[#values + 1] = int(resets[i])
      values[#values + 1] = fields[at[i] + 1]
      values[#values + 1] = int(counts[i])
    end
    reset = resets[i]
    second = counts[i]
    retry = retryAt(i, reset, counts[i], cost, room[i])
    local keep = keepUntil(i, reset, counts[i])
    if keep > latestReset then
      latestReset = keep
    end
  elseif algos[i] == 's' then
    local bs, cs = sbs[i], scs[i]
    if counting then
      local current = math.floor(slidingAt(i, bs) / pb[i])
      if #bs > 0 and bs[#bs] == current then
        cs[#cs] = cs[#cs] + cost
      else
        bs[#bs + 1] = current
        cs[#cs + 1] = cost
      end
      -- Drop only what had expired by the newest bucket's start.
      local from = current * pb[i]
      local nbs, ncs = {}, {}
      for j = 1, #bs do
        if expiry(i, bs[j]) > from then
          nbs[#nbs + 1] = bs[j]
          ncs[#ncs + 1] = cs[j]
        end
      end
      bs, cs = nbs, ncs
      -- Offsets from the oldest bucket kept: a minute of one-second buckets is a few hundred bytes.
      local keep = {}
      for j = 1, #bs do
        keep[j] = int(bs[j] - bs[1]) .. ':' .. int(cs[j])
      end
      values[#values + 1] = fields[at[i]]
      values[#values + 1] = int(bs[1]) .. '|' .. table.concat(keep, ',')
    end
    local t = slidingAt(i, bs)
    local alive = slidingAlive(i, bs, cs)
    reset = now
    retry = -1
    if alive > 0 then
      reset = expiry(i, bs[#bs])
      local target = alive - 1
      if not room[i] then
        target = limit - cost
      end
      local left = alive
      for j = 1, #bs do
        if left <= target then
          break
        end
        local e = expiry(i, bs[j])
        if e > t then
          left = left - cs[j]
          retry = e
        end
      end
    end
    second = limit - alive
  else
    local duration, burst = pa[i], pb[i]
    if counting then
      local ms, fraction = tms[i], tfr[i]
      if bucketDebt(i, ms, fraction) == 0 then
        ms, fraction = now, 0
      end
      local add = cost * duration
      ms = ms + math.floor(add / limit)
      fraction = fraction + add % limit
      if fraction >= limit then
        fraction = fraction - limit
        ms = ms + 1
      end
      tms[i], tfr[i] = ms, fraction
      values[#values + 1] = fields[at[i]]
      values[#values + 1] = int(ms) .. ':' .. int(fraction)
    end
    local debt = bucketDebt(i, tms[i], tfr[i])
    local missing = ceilDiv(debt, duration)
    second = burst - missing
    reset = now + ceilDiv(debt, limit)
    if not room[i] then
      retry = now + ceilDiv(debt - (burst - cost) * duration, limit)
    elseif debt == 0 then
      retry = -1
    else
      retry = now + ceilDiv(debt - (missing - 1) * duration, limit)
    end
  end
  if reset > latestReset then
    latestReset = reset
  end
  reply[#reply + 1] = reset
  reply[#reply + 1] = second
  reply[#reply + 1] = room[i] and 1 or 0
  reply[#reply + 1] = retry
end
if #values > 0 then
  redis.call('HSET', windowsKey, unpack(values))
  -- The hash lives until its longest window ends (a sliding window's newest bucket ages out, a bucket is
  -- full again); a shorter window's fields are simply rolled over.
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
for i = 1, #reply do
  result[#result + 1] = reply[i]
end
return result
