-- Deep recursion mixes: Ackermann's function, mutually recursive parity
-- functions that carry extra arguments, and a recursive count of the subsets
-- of an array whose sum stays under a bound.
-- The items LCG's product reaches 2^61: it is taken in int64_t cdata (whose
-- % is C's). Everything else stays non-negative and below 2^53, where Lua
-- numbers, % and floored division give Toy's results.
-- ack(3, 11) nests 16383 calls deep, and LuaJIT caps a Lua stack at 65500
-- slots (each ack frame takes at least 4): every DEPTH_LIMIT nested calls
-- the inner call runs on a fresh coroutine, which has a stack of its own.
local ffi = require("ffi")
local floor = math.floor
local int64 = ffi.typeof("int64_t")
local wrap = coroutine.wrap
local calls = 0
local depth, DEPTH_LIMIT = 0, 10000
local ack
ack = function(m, n)
  calls = calls + 1
  if m == 0 then return n + 1 end
  if n == 0 then return ack(m - 1, 1) end
  local inner
  if depth < DEPTH_LIMIT then
    depth = depth + 1
    inner = ack(m, n - 1)
    depth = depth - 1
  else
    depth = 0
    inner = wrap(ack)(m, n - 1)
    depth = DEPTH_LIMIT
  end
  return ack(m - 1, inner)
end
local is_odd
-- is_even/is_odd step down by one, folding a checksum of the path along.
local function is_even(n, acc, k)
  if n == 0 then return acc * 2 end
  return is_odd(n - 1, (acc * k + n) % 1000003, k)
end
is_odd = function(n, acc, k)
  if n == 0 then return acc * 2 + 1 end
  return is_even(n - 1, (acc + n * 7) % 1000003, k + 1)
end
-- Hofstadter's female and male sequences: a tangle of mutual recursion.
local male
local function female(n)
  if n == 0 then return 1 end
  return n - male(female(n - 1))
end
male = function(n)
  if n == 0 then return 0 end
  return n - female(male(n - 1))
end
-- Number of subsets of items[i..] whose sum is at most room.
local function count_subsets(items, len, i, room)
  if i == len then return 1 end
  local without = count_subsets(items, len, i + 1, room)
  if items[i] <= room then return without + count_subsets(items, len, i + 1, room - items[i]) end
  return without
end
for m = 2, 3 do
  local total = 0
  for n = 1, 9 do total = total + ack(m, n) end
  print(string.format("ack %d %d %d", m, total, calls))
end
calls = 0
local a = ack(3, 11)
print(string.format("ack 3 11 %d %d", a, calls))
local parity = 0
for round = 0, 1999 do
  local n = 5000 + round * 3
  local r = is_even(n, round, 3)
  parity = (parity * 31 + r) % 1000000007
end
print(string.format("parity %d", parity))
local fm = 0
for n = 0, 89 do fm = (fm * 3 + female(n) - male(n)) % 1000000007 end
print(string.format("hofstadter %d %d %d", fm, female(89), male(89)))
local len = 27
local items = {}
for i = 0, len - 1 do items[i] = 0 end
local x = 12345
for i = 0, len - 1 do
  x = tonumber((int64(x) * 1103515245 + 12345) % 2147483648)
  items[i] = 1 + x % 100
end
local sum = 0
for i = 0, len - 1 do sum = sum + items[i] end
local s3 = count_subsets(items, len, 0, floor(sum / 3))
local s2 = count_subsets(items, len, 0, floor(sum / 2))
print(string.format("subsets %d %d %d", sum, s3, s2))
