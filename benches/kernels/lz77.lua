-- LZ77 compression of a generated symbol stream (an int table with lots of
-- repetition), deflate-style: a hash of the next three symbols indexes
-- chains of earlier positions, the longest match within the window wins.
-- The token stream is then decompressed and compared with the input, for
-- several chain limits (like gzip's levels).
-- The LCG, the hash and the check wrap at 64 bits: uint64_t/int64_t cdata.
-- Symbols are below 8, so hash3's value is a small non-negative number and
-- the 32-bit band is exact; the other values stay far below 2^53.
local ffi = require("ffi")
local band, bxor, rshift = bit.band, bit.bxor, bit.rshift
local floor, min, max = math.floor, math.min, math.max
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 1977)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function filled(n, value)
  local t = {}
  for i = 0, n - 1 do t[i] = value end
  return t
end
local WINDOW, MIN_MATCH, MAX_MATCH = 32768, 3, 258
-- Text-like input: random symbols with a skewed distribution, interleaved
-- with copies of earlier stretches.
local function generate(n)
  local data = filled(n, 0)
  local i = 0
  while i < n do
    local r = next_random() % 100
    if r < 30 and i > 100 then
      local dist = 1 + next_random() % min(i, 5000)
      local length = 3 + next_random() % 10
      local k = 0
      while k < length and i < n do
        data[i] = data[i - dist]
        i = i + 1
        k = k + 1
      end
    else
      local s = next_random() % 256
      data[i] = floor((s * s) / 8192)
      i = i + 1
    end
  end
  return data
end
local function hash3(data, i)
  return band((data[i] * 131 + data[i + 1]) * 131 + data[i + 2], 65535)
end
-- Tokens: a literal is its symbol (>= 0); a match is -length followed by
-- the distance. Returns the number of ints written to out.
local function compress(data, n, out, max_chain)
  local head = filled(65536, -1)
  local prev = filled(WINDOW, -1)
  local count = 0
  local i = 0
  while i < n do
    local best_len, best_dist = 0, 0
    if i + MIN_MATCH <= n then
      local h = hash3(data, i)
      local cand = head[h]
      local chain = 0
      local limit = min(MAX_MATCH, n - i)
      while cand >= 0 and i - cand <= WINDOW and chain < max_chain do
        local len = 0
        while len < limit and data[cand + len] == data[i + len] do len = len + 1 end
        if len > best_len then
          best_len = len
          best_dist = i - cand
          if len == limit then break end
        end
        cand = prev[cand % WINDOW]
        chain = chain + 1
      end
    end
    local step = 1
    if best_len >= MIN_MATCH then
      out[count] = -best_len
      out[count + 1] = best_dist
      count = count + 2
      step = best_len
    else
      out[count] = data[i]
      count = count + 1
    end
    -- Insert every position we pass into the hash chains.
    for k = i, i + step - 1 do
      if k + MIN_MATCH <= n then
        local h = hash3(data, k)
        prev[k % WINDOW] = head[h]
        head[h] = k
      end
    end
    i = i + step
  end
  return count
end
local function decompress(tokens, count, out)
  local n, t = 0, 0
  while t < count do
    local x = tokens[t]
    if x >= 0 then
      out[n] = x
      n = n + 1
      t = t + 1
    else
      local dist = tokens[t + 1]
      for k = 0, -x - 1 do
        out[n] = out[n - dist]
        n = n + 1
      end
      t = t + 2
    end
  end
  return n
end
local n = 1000000
local data = generate(n)
local tokens = filled(2 * n, 0)
local back = filled(n, 0)
local check = 0LL
local max_chain = 4
while max_chain <= 1024 do
  local count = compress(data, n, tokens, max_chain)
  local literals, matches, matched, longest = 0, 0, 0, 0
  local t = 0
  while t < count do
    if tokens[t] >= 0 then
      literals = literals + 1
      t = t + 1
    else
      matches = matches + 1
      matched = matched - tokens[t]
      longest = max(longest, -tokens[t])
      t = t + 2
    end
  end
  local m = decompress(tokens, count, back)
  local same = m == n
  local hash = 0LL
  for i = 0, n - 1 do
    if back[i] ~= data[i] then same = false end
    hash = hash * 131 + back[i]
  end
  print(string.format("%d %d %d %d %d %d %s %d", max_chain, count, literals, matches, matched,
    longest, tostring(same), hash))
  check = bxor(check, hash + count)
  max_chain = max_chain * 4
end
print(string.format("%d", check))
