-- One-dimensional cellular automata (rules 30 and 110) on a ring of cells:
-- first one cell per int table element, then bit-packed 64 cells to a word,
-- stepping whole words with shifts and masks. Both must agree.
-- The LCG wraps at 64 bits: uint64_t cdata. Packed words are int64_t
-- arrays, whose cdata values LuaJIT's bit library works on with all 64 bits
-- (bit.arshift is Toy's arithmetic >>). Cells and rules are small numbers.
local ffi = require("ffi")
local band, bor, bxor = bit.band, bit.bor, bit.bxor
local lshift, rshift, arshift = bit.lshift, bit.rshift, bit.arshift
local floor = math.floor
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 777)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function zeros(n)
  local t = {}
  for i = 0, n - 1 do t[i] = 0 end
  return t
end
local function step_cells(cur, next, n, rule)
  for i = 0, n - 1 do
    local left = cur[(i + n - 1) % n]
    local right = cur[(i + 1) % n]
    local pattern = left * 4 + cur[i] * 2 + right
    next[i] = band(rshift(rule, pattern), 1)
  end
end
local function count_cells(cells, n)
  local c = 0
  for i = 0, n - 1 do c = c + cells[i] end
  return c
end
-- Cell i lives in word i / 64, bit i % 64.
local function pack(cells, n)
  local words = ffi.new("int64_t[?]", floor(n / 64))
  for i = 0, n - 1 do
    if cells[i] == 1 then
      local w = floor(i / 64)
      words[w] = bor(words[w], lshift(1LL, i % 64))
    end
  end
  return words
end
local function step_words(cur, next, n, rule)
  for w = 0, n - 1 do
    local c = cur[w]
    local prev = cur[(w + n - 1) % n]
    local after = cur[(w + 1) % n]
    -- Bit j of l is the left neighbour (cell j - 1) of bit j of c.
    local l = bor(lshift(c, 1), band(arshift(prev, 63), 1))
    local r = bor(band(arshift(c, 1), 0x7fffffffffffffffLL), lshift(after, 63))
    if rule == 30 then
      next[w] = bxor(l, bor(c, r))
    else
      next[w] = bor(bxor(c, r), band(c, bxor(l, -1LL)))
    end
  end
end
local function popcount(x)
  x = x - band(arshift(x, 1), 0x5555555555555555LL)
  x = band(x, 0x3333333333333333LL) + band(arshift(x, 2), 0x3333333333333333LL)
  x = band(x + arshift(x, 4), 0x0f0f0f0f0f0f0f0fLL)
  return tonumber(band(arshift(x * 0x0101010101010101LL, 56), 0xff))
end
local function count_words(words, n)
  local c = 0
  for i = 0, n - 1 do c = c + popcount(words[i]) end
  return c
end
local n = 102400
local start = zeros(n)
for i = 0, n - 1 do
  if next_random() % 3 == 0 then start[i] = 1 end
end
local rules = { [0] = 30, 110 }
for k = 0, 1 do
  local rule = rules[k]
  local gens = 600
  local a = zeros(n)
  local b = zeros(n)
  for i = 0, n - 1 do a[i] = start[i] end
  local total = 0
  for g = 0, gens - 1 do
    step_cells(a, b, n, rule)
    local t = a
    a = b
    b = t
    total = total + count_cells(a, n)
  end
  local nw = floor(n / 64)
  local pa = pack(start, n)
  local pb = ffi.new("int64_t[?]", nw)
  local wide_gens = gens * 20
  local wide_total = 0
  local agree = true
  for g = 0, wide_gens - 1 do
    step_words(pa, pb, nw, rule)
    local t = pa
    pa = pb
    pb = t
    local c = count_words(pa, nw)
    wide_total = wide_total + c
    if g == gens - 1 then
      local packed = pack(a, n)
      for w = 0, nw - 1 do
        if packed[w] ~= pa[w] then agree = false end
      end
      if wide_total ~= total then agree = false end
    end
  end
  print(string.format("%d %d %d %s %d %d %d %d", rule, total, count_cells(a, n), tostring(agree),
    wide_total, count_words(pa, nw), pa[0], pa[nw - 1]))
end
