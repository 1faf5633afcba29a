-- Travelling salesman by Held–Karp dynamic programming over subsets:
-- dp[mask * n + i] = shortest path from city 0 visiting exactly `mask`,
-- ending at city i. Distances are random (asymmetric) from an LCG.
-- The LCG wraps at 64 bits: uint64_t cdata. Masks stay below 2^17, so
-- LuaJIT's 32-bit bit ops give Toy's results; INF = 2^60 is exact as a Lua
-- number and is never added to; the other values stay far below 2^53.
local ffi = require("ffi")
local band, bor, lshift, rshift = bit.band, bit.bor, bit.lshift, bit.rshift
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 2024)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function filled(n, value)
  local t = {}
  for i = 0, n - 1 do t[i] = value end
  return t
end
local INF = 2 ^ 60
local function solve(n)
  local dist = filled(n * n, 0)
  for i = 0, n - 1 do
    for j = 0, n - 1 do
      if i ~= j then dist[i * n + j] = 1 + next_random() % 1000 end
    end
  end
  local full = lshift(1, n)
  local dp = filled(full * n, INF)
  dp[1 * n + 0] = 0
  for mask = 1, full - 1 do
    if band(mask, 1) ~= 0 then
      for last = 0, n - 1 do
        local cur = dp[mask * n + last]
        if cur ~= INF then
          for nxt = 0, n - 1 do
            local bit = lshift(1, nxt)
            if band(mask, bit) == 0 then
              local cand = cur + dist[last * n + nxt]
              local idx = bor(mask, bit) * n + nxt
              if cand < dp[idx] then dp[idx] = cand end
            end
          end
        end
      end
    end
  end
  local best = INF
  local all = full - 1
  for last = 1, n - 1 do
    local total = dp[all * n + last] + dist[last * n + 0]
    if total < best then best = total end
  end
  -- checksum over a slice of the table
  local check = 0
  for mask = 0, full - 1 do
    local v = dp[mask * n + (mask % n)]
    if v ~= INF then check = (check * 31 + v) % 1000000007 end
  end
  print(string.format("%d %d %d", n, best, check))
  return best
end
local sum = 0
sum = sum + solve(12)
sum = sum + solve(15)
for k = 0, 7 do sum = sum + solve(17) end
print(string.format("%d", sum))
