-- wrk script for bench/avatar.sh and bench/avatar/compare.sh: every request
-- asks for a seed not asked for before, as a page full of different people's
-- avatars does. An optional script argument sets the size:
--   wrk ... -s bench/avatar.lua URL -- 200     (…&size=200)
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

local suffix = ""
function init(args)
  if args[1] then suffix = "&size=" .. args[1] end
end

local n = 0
function request()
  n = n + 1
  return wrk.format("GET", "/api/avatar-image?seed=bench-" .. id .. "-" .. n .. suffix)
end
