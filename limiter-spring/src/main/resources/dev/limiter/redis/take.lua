-- One decision for one (budget, key), atomically: checks every window, each by its own algorithm, and the
-- concurrency bound, then counts and takes the lease. The same rule as dev.limiter.core.internal.BudgetArithmetic
-- (each window by its algorithm's WindowArithmetic); the contract suites and the differential tests hold the two
-- equal. In dry-run mode (a peek) it only reads: nothing is counted, leased, expired or written. Time is ARGV[1]:
-- this script never calls TIME. The argument layout and the reply are encoded and decoded by
-- dev.limiter.redis.TakeScriptCodec, each window's part by its algorithm's WindowCodec, and nowhere else.
--
-- KEYS[1]  the windows: one hash, each window's fields as its algorithm's block below keeps them
-- KEYS[2]  the leases: sorted set, member = lease id, score = expiry (epoch ms)
-- ARGV[1] now   ARGV[2] count refused (1|0)   ARGV[3] expiry margin (ms)   ARGV[4] lease max (0 when no lease is
-- wanted)   ARGV[5] lease length (ms)   ARGV[6] lease id   ARGV[7] dry run (1|0), or a slice (ADR 0014)
--   "s:<max>:<instance>:<seen ms>" with KEYS[3] (the instances that took a slice of this key, a sorted set)
-- then per window i = 1..n, at j = 7 + 6 (i - 1): ARGV[j + 1] algorithm (a key of the algorithms table),
--   ARGV[j + 2] limit, ARGV[j + 3] and ARGV[j + 4] its algorithm's two parameters, ARGV[j + 5] field name,
--   ARGV[j + 6] what the request takes from this window (its cost for a window of requests, the estimate of its
--   unit for any other; ADR 0012)
--
-- Returns {admitted, lease refused, leases held, earliest live lease expiry (now if none),
--          then per window: reset, count (fixed) or remaining (the others), room (1|0),
--          retry at (-1 for never; a fixed window: its reset, or later while it carries an excess),
--          the lowest notify-at threshold reached now (a fixed or calendar window's; 0 for none)},
--          then for a slice: the units it counted in every window (0 when refused)
local now = tonumber(ARGV[1])
local countRefused = ARGV[2] == '1'
local margin = tonumber(ARGV[3])
local leaseMax = tonumber(ARGV[4])
local leaseMillis = tonumber(ARGV[5])
local leaseId = ARGV[6]
local dryRun = ARGV[7] == '1'
local n = (#ARGV - 7) / 6
local windowsKey = KEYS[1]
local leasesKey = KEYS[2]

local function int(x)
  return string.format('%.0f', x)
end

local function ceilDiv(a, b)
  return -math.floor(-a / b)
end

-- SettlementBounds.MAX_KEEP_MILLIS: the longest a key is kept for what it carries
local MAX_KEEP = 4503599627370496

-- What a decision shares across its windows: whether a fixed window moved on (then every fixed window is
-- written, so that a clock going back later keeps counting in the newest window, as the in-process store does).
local decision = { rolled = false }

-- One block per window algorithm, keyed by the code its WindowCodec sends. Each window w has w.limit, w.a and
-- w.b (its two parameters; w.text the second as sent), w.field, w.cost and w.stored (the values of its fields, as
-- fields(w) names them).
--   fields(w)               the hash fields it reads and writes
--   read(w)                 reads its state at now; returns whether w.cost fits
--   count(w, counting, put) counts w.cost when counting; put(field, value) for every field it writes
--   left(w)                 after read(w): the most units that would fit now (a slice's size needs it; an
--                           algorithm without it is never sliced beyond the request's cost)
--   reply(w)                its reset, count (fixed) or remaining (the others), retry at (-1 for never), until
--                           when the hash must be kept for it, and the lowest notify-at threshold it reached (or nil)
local algorithms = {}

-- Fixed window (FixedWindowArithmetic, FixedWindowDebt, ThresholdCrossings): <field>:r = end of the window counted
-- in (epoch ms), <field>:c = units counted in it and, for a window with notify-at thresholds, <field>:n = the highest
-- threshold (in units) reached in the window <field>:r names. a = end of the window that contains now; the second
-- parameter, as text, "<carry>" or "<carry>/<thresholds>": carry = its duration when it carries what it counted
-- beyond its limit into the windows after it (a window in a unit other than requests), else 0; thresholds = its
-- notify-at thresholds in units, ascending, comma-separated. A threshold is reached once per window: when the count
-- after this decision is at least it and no earlier call in that window reached it or a higher one; the reply adds
-- the lowest threshold reached now (0 for none), never in a dry run.
local fixed = {}
algorithms.f = fixed

function fixed.fields(w)
  -- the second parameter's two parts, read before anything else reads w.b
  local carry, list = string.match(w.text, '^(%d+)/?([%d,]*)$')
  w.b = tonumber(carry)
  w.thresholds = {}
  for t in string.gmatch(list, '%d+') do
    w.thresholds[#w.thresholds + 1] = tonumber(t)
  end
  if #w.thresholds == 0 then
    return { w.field .. ':r', w.field .. ':c' }
  end
  return { w.field .. ':r', w.field .. ':c', w.field .. ':n' }
end

-- FixedWindowDebt.carried: what the window ending at w.reset starts with after one that ended at storedReset
function fixed.carried(w, storedReset, storedCount)
  if w.b == 0 or storedCount <= w.limit or storedReset <= 0 or w.reset <= storedReset then
    return 0
  end
  return math.max(0, storedCount - math.floor((w.reset - storedReset) / w.b) * w.limit)
end

function fixed.read(w)
  w.reset = w.a
  w.count = 0
  w.notified = 0
  local storedReset = tonumber(w.stored[1])
  -- A clock that went backwards keeps counting in the newest window this key has seen.
  w.fresh = storedReset == nil or storedReset < w.reset
  if not w.fresh then
    w.reset = storedReset
    w.count = tonumber(w.stored[2]) or 0
    w.notified = tonumber(w.stored[3]) or 0
  else
    decision.rolled = true
    if storedReset ~= nil then
      w.count = fixed.carried(w, storedReset, tonumber(w.stored[2]) or 0)
    end
  end
  return w.count + w.cost <= w.limit
end

function fixed.left(w)
  return math.max(0, w.limit - w.count)
end

function fixed.count(w, counting, put)
  if counting then
    w.count = w.count + w.cost
  end
  if counting or (decision.rolled and not dryRun) then
    put(w.field .. ':r', int(w.reset))
    put(w.field .. ':c', int(w.count))
  end
  w.reached = 0
  if not dryRun then
    w.reached = fixed.reach(w, put)
  end
end

-- ThresholdCrossings: the lowest threshold w.count reaches that no earlier call in its window reached (0 for none);
-- writes the highest reached to <field>:n when it changed or the window is new.
function fixed.reach(w, put)
  if #w.thresholds == 0 then
    return 0
  end
  local lowest, highest = 0, w.notified
  for k = 1, #w.thresholds do
    local t = w.thresholds[k]
    if t > w.notified and t <= w.count then
      if lowest == 0 then
        lowest = t
      end
      highest = t
    end
  end
  if highest ~= w.notified or w.fresh then
    put(w.field .. ':n', int(highest))
  end
  return lowest
end

function fixed.reply(w)
  -- FixedWindowDebt.retryAt: a refused window's retry, its reset or a later window's start while it carries
  local retry = w.reset
  if not w.room and w.b ~= 0 then
    local windows = math.floor((w.count + w.cost - 1) / w.limit)
    if windows > 1 then
      retry = w.reset + math.min(MAX_KEEP, (windows - 1) * w.b)
    end
  end
  -- FixedWindowDebt.keepUntil: until when the window still matters, its excess carried
  local keep = w.reset
  if w.b ~= 0 and w.count > w.limit then
    keep = w.reset + math.min(MAX_KEEP, math.floor((w.count - 1) / w.limit) * w.b)
  end
  return w.reset, w.count, retry, keep, w.reached
end

-- Calendar window (CalendarWindows): a fixed window with explicit bounds. a = end of the calendar period that
-- contains now (the caller computes it in the window's time zone: this script has no time-zone database); its
-- carry is 0: a new period starts at zero, nothing carried.
algorithms.c = fixed

-- Sliding window (SlidingWindowArithmetic): one field, its buckets "b|o:c,o:c,..." (the oldest bucket's index b,
-- then per bucket its offset from b and its units, oldest first). a = duration, b = resolution. Bucket k counts
-- until (k + 1) * resolution + duration; read at now, or at the newest bucket's start when a clock went back
-- behind it.
local sliding = {}
algorithms.s = sliding

function sliding.fields(w)
  return { w.field }
end

function sliding.at(w)
  if #w.bs == 0 then
    return now
  end
  return math.max(now, w.bs[#w.bs] * w.b)
end

function sliding.expiry(w, k)
  return (k + 1) * w.b + w.a
end

function sliding.alive(w)
  local t = sliding.at(w)
  local alive = 0
  for j = 1, #w.bs do
    if sliding.expiry(w, w.bs[j]) > t then
      alive = alive + w.cs[j]
    end
  end
  return alive
end

function sliding.read(w)
  w.bs, w.cs = {}, {}
  local v = w.stored[1]
  if v then
    local base, rest = string.match(v, '^(%d+)|(.*)$')
    base = tonumber(base)
    for o, c in string.gmatch(rest, '(%d+):(%d+)') do
      w.bs[#w.bs + 1] = base + tonumber(o)
      w.cs[#w.cs + 1] = tonumber(c)
    end
  end
  return sliding.alive(w) + w.cost <= w.limit
end

function sliding.left(w)
  return math.max(0, w.limit - sliding.alive(w))
end

function sliding.count(w, counting, put)
  if not counting then
    return
  end
  local bs, cs = w.bs, w.cs
  local current = math.floor(sliding.at(w) / w.b)
  if #bs > 0 and bs[#bs] == current then
    cs[#cs] = cs[#cs] + w.cost
  else
    bs[#bs + 1] = current
    cs[#cs + 1] = w.cost
  end
  -- Drop only what had expired by the newest bucket's start.
  local from = current * w.b
  local nbs, ncs = {}, {}
  for j = 1, #bs do
    if sliding.expiry(w, bs[j]) > from then
      nbs[#nbs + 1] = bs[j]
      ncs[#ncs + 1] = cs[j]
    end
  end
  w.bs, w.cs = nbs, ncs
  -- Offsets from the oldest bucket kept: a minute of one-second buckets is a few hundred bytes.
  local keep = {}
  for j = 1, #nbs do
    keep[j] = int(nbs[j] - nbs[1]) .. ':' .. int(ncs[j])
  end
  put(w.field, int(nbs[1]) .. '|' .. table.concat(keep, ','))
end

function sliding.reply(w)
  local bs, cs = w.bs, w.cs
  local t = sliding.at(w)
  local alive = sliding.alive(w)
  local reset = now
  local retry = -1
  if alive > 0 then
    reset = sliding.expiry(w, bs[#bs])
    local target = alive - 1
    if not w.room then
      target = w.limit - w.cost
    end
    local left = alive
    for j = 1, #bs do
      if left <= target then
        break
      end
      local e = sliding.expiry(w, bs[j])
      if e > t then
        left = left - cs[j]
        retry = e
      end
    end
  end
  return reset, w.limit - alive, retry, reset
end

-- Token bucket (TokenBucketArithmetic, GCRA): one field "ms:fraction", its theoretical arrival time in ms plus
-- fraction / limit of a ms. a = duration, b = burst.
local bucket = {}
algorithms.t = bucket

function bucket.fields(w)
  return { w.field }
end

-- debt = (TAT - now) * limit, in millisecond-tokens
function bucket.debt(w)
  return math.max(0, (w.ms - now) * w.limit + w.fraction)
end

function bucket.read(w)
  w.ms, w.fraction = 0, 0
  local v = w.stored[1]
  if v then
    local ms, fraction = string.match(v, '^(%d+):(%d+)$')
    w.ms, w.fraction = tonumber(ms), tonumber(fraction)
  end
  return bucket.debt(w) + w.cost * w.a <= w.b * w.a
end

function bucket.left(w)
  return math.max(0, w.b - ceilDiv(bucket.debt(w), w.a))
end

function bucket.count(w, counting, put)
  if not counting then
    return
  end
  local ms, fraction = w.ms, w.fraction
  if bucket.debt(w) == 0 then
    ms, fraction = now, 0
  end
  local add = w.cost * w.a
  ms = ms + math.floor(add / w.limit)
  fraction = fraction + add % w.limit
  if fraction >= w.limit then
    fraction = fraction - w.limit
    ms = ms + 1
  end
  w.ms, w.fraction = ms, fraction
  put(w.field, int(ms) .. ':' .. int(fraction))
end

function bucket.reply(w)
  local duration, burst = w.a, w.b
  local debt = bucket.debt(w)
  local missing = ceilDiv(debt, duration)
  local reset = now + ceilDiv(debt, w.limit)
  local retry
  if not w.room then
    retry = now + ceilDiv(debt - (burst - w.cost) * duration, w.limit)
  elseif debt == 0 then
    retry = -1
  else
    retry = now + ceilDiv(debt - (missing - 1) * duration, w.limit)
  end
  return reset, burst - missing, retry, reset
end

-- Reads every window in one HMGET.
local windows, fields = {}, {}
for i = 1, n do
  local j = 7 + 6 * (i - 1)
  local algorithm = algorithms[ARGV[j + 1]]
  if algorithm == nil then
    return redis.error_reply('take.lua: no algorithm ' .. tostring(ARGV[j + 1]))
  end
  local w = {
    algorithm = algorithm,
    limit = tonumber(ARGV[j + 2]),
    a = tonumber(ARGV[j + 3]),
    b = tonumber(ARGV[j + 4]),
    text = ARGV[j + 4],
    field = ARGV[j + 5],
    cost = tonumber(ARGV[j + 6]),
    at = #fields + 1,
  }
  w.fields = algorithm.fields(w)
  for k = 1, #w.fields do
    fields[#fields + 1] = w.fields[k]
  end
  windows[i] = w
end
local stored = redis.call('HMGET', windowsKey, unpack(fields))

local roomInWindows = true
for i = 1, n do
  local w = windows[i]
  w.stored = {}
  for k = 1, #w.fields do
    w.stored[k] = stored[w.at + k - 1]
  end
  w.room = w.algorithm.read(w)
  roomInWindows = roomInWindows and w.room
end

-- A slice (SliceTerms.size): more than the request's cost when every window has room for more, at most max and
-- at most what is left / (2 x the instances that took a slice of this key within the last <seen> ms).
local sliceMax, sliceInstance, sliceSeen = string.match(ARGV[7], '^s:(%d+):([^:]+):(%d+)$')
local slice = 0
if sliceMax and roomInWindows then
  local instancesKey = KEYS[3]
  redis.call('ZADD', instancesKey, int(now), sliceInstance)
  redis.call('ZREMRANGEBYSCORE', instancesKey, '-inf', '(' .. int(now - tonumber(sliceSeen)))
  redis.call('PEXPIRE', instancesKey, int(tonumber(sliceSeen) + margin))
  local instances = redis.call('ZCARD', instancesKey)
  local cost = windows[1].cost
  local left = nil
  for i = 1, n do
    local w = windows[i]
    local fits = w.algorithm.left and w.algorithm.left(w) or cost
    left = (left == nil) and fits or math.min(left, fits)
  end
  slice = math.max(cost, math.min(tonumber(sliceMax), math.floor(left / (2 * instances))))
  for i = 1, n do
    windows[i].cost = slice
    windows[i].room = windows[i].algorithm.read(windows[i])
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

-- Counts, then says how every window stands; collects what to write.
local values = {}
local function put(field, value)
  values[#values + 1] = field
  values[#values + 1] = value
end
local reply = {}
local latestReset = now
for i = 1, n do
  local w = windows[i]
  w.algorithm.count(w, counting, put)
  local reset, second, retry, keep, reached = w.algorithm.reply(w)
  if keep > latestReset then
    latestReset = keep
  end
  reply[#reply + 1] = reset
  reply[#reply + 1] = second
  reply[#reply + 1] = w.room and 1 or 0
  reply[#reply + 1] = retry
  reply[#reply + 1] = reached or 0
end
if #values > 0 then
  redis.call('HSET', windowsKey, unpack(values))
  -- The hash lives until its longest window ends (a sliding window's newest bucket ages out, a bucket is
  -- full again, a fixed window's excess is paid); a shorter window's fields are simply rolled over.
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
if sliceMax then
  result[#result + 1] = admitted and slice or 0
end
return result
