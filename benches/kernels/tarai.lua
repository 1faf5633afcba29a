-- Takeuchi's original "tarai" function (returns y, not z, in the base case)
-- over a grid of small arguments, counting the calls made.
-- All values stay non-negative and below 2^53 (calls reaches about 6e8;
-- check * 131 stays below 2^38): plain Lua numbers give Toy's results.
local calls = 0
local tarai
tarai = function(x, y, z)
  calls = calls + 1
  if x <= y then return y end
  return tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y))
end
local check = 0
for x = 6, 12 do
  local row = 0
  local before = calls
  for y = 0, 5 do
    for z = 0, 2 do
      local r = tarai(x, y, z)
      row = row * 3 + r
      check = (check * 131 + r) % 1000000007
    end
  end
  print(string.format("%d %d %d", x, row, calls - before))
end
local t = tarai(14, 6, 0)
print(string.format("%d %d %d", t, check, calls))
