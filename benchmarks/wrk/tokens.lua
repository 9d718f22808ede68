-- wrk script of benchmarks/http.py: GET <the URL's path> with "Authorization: Bearer <token>", cycling through the
-- tokens of a file, one a line (wrk ... -s tokens.lua URL -- FILE). One token is the hot key, a thousand are spread
-- keys. Every request is built once, in init, so that wrk spends the same per request for one token as for many;
-- each thread starts at its own place in the list, so that two threads do not send the same tokens in step.
local threads = 0

function setup(thread)
  thread:set("first", threads)
  threads = threads + 1
end

local requests = {}
local count = 0
local next = 0

function init(args)
  local file = assert(io.open(args[1], "r"), "tokens file: " .. tostring(args[1]))
  for line in file:lines() do
    if line ~= "" then
      count = count + 1
      requests[count] = wrk.format("GET", nil, { ["Host"] = wrk.headers["Host"] or wrk.host, ["Authorization"] = "Bearer " .. line })
    end
  end
  file:close()
  assert(count > 0, "no token in " .. args[1])
  next = ((first or 0) * 499) % count
end

function request()
  next = next % count + 1
  return requests[next]
end
