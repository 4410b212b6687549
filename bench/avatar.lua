-- wrk script for bench/avatar.sh: every request asks for a seed not asked
-- for before, as a page full of different people's avatars does.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

local n = 0
function request()
  n = n + 1
  return wrk.format("GET", "/api/avatar-image?seed=bench-" .. id .. "-" .. n)
end
