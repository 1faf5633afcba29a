-- 0/1 knapsack by dynamic programming over a full table of row tables
-- (items x capacity), then walking the table back to recover the chosen
-- items. Several random instances.
-- The LCG and the item mask wrap at 64 bits: uint64_t/int64_t cdata. Table
-- values and the final check stay below 2^48: Lua numbers are exact.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 2718)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function zeros(n)
  local t = {}
  for i = 0, n - 1 do t[i] = 0 end
  return t
end
-- best[i][c] = best value using the first i items within capacity c.
local function solve(weight, value, n, cap)
  local best = {}
  for i = 0, n do best[i] = zeros(cap + 1) end
  for i = 1, n do
    local w = weight[i - 1]
    local v = value[i - 1]
    local prev = best[i - 1]
    local row = best[i]
    for c = 0, cap do
      local skip = prev[c]
      if c >= w and prev[c - w] + v > skip then
        row[c] = prev[c - w] + v
      else
        row[c] = skip
      end
    end
  end
  return best
end
local check = 0
for round = 0, 11 do
  local n = 300 + 30 * round
  local cap = 6000 + 600 * round
  local weight, value = zeros(n), zeros(n)
  for i = 0, n - 1 do
    weight[i] = 1 + next_random() % 200
    value[i] = 1 + next_random() % 1000
  end
  local best = solve(weight, value, n, cap)
  -- Walk back to find which items were taken.
  local c, taken, total_weight, total_value, mask = cap, 0, 0, 0, 0LL
  local i = n
  while i > 0 do
    if best[i][c] ~= best[i - 1][c] then
      taken = taken + 1
      total_weight = total_weight + weight[i - 1]
      total_value = total_value + value[i - 1]
      mask = mask * 31 + i
      c = c - weight[i - 1]
    end
    i = i - 1
  end
  print(string.format("%d %d %d %d %d %s %d", n, cap, best[n][cap], taken, total_weight,
    tostring(total_value == best[n][cap]), mask))
  check = check * 7 + best[n][cap]
end
print(string.format("%d", check))
