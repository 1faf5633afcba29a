-- Text processing on int tables of character codes: generating text, counting
-- lines, words and letters as `wc` does, finding palindromic words,
-- capitalizing sentences, and run-length encoding and decoding.
-- The LCG and the hash wrap at 64 bits: uint64_t/int64_t cdata.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor, max = math.floor, math.max
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 4242)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
-- Arrays are 0-based tables; len() of one without holes.
local function len(t) return #t + 1 end
local function filled(n, value)
  local t = {}
  for i = 0, n - 1 do t[i] = value end
  return t
end
local SPACE, NEWLINE, PERIOD, COMMA = 32, 10, 46, 44
local function generate(n)
  local text = filled(n, SPACE)
  local i = 0
  while i < n do
    local length = 1 + next_random() % 8
    local r = next_random() % 100
    if r < 10 then
      -- A word that reads the same backwards.
      for k = 0, length - 1 do
        if i + k < n and i + 2 * length - 1 - k < n then
          local c = 97 + next_random() % 3
          text[i + k] = c
          text[i + 2 * length - 1 - k] = c
        end
      end
      length = 2 * length
    elseif r < 20 then
      -- A run of one letter.
      local c = 97 + next_random() % 26
      for k = 0, length - 1 do
        if i + k < n then text[i + k] = c end
      end
    else
      for k = 0, length - 1 do
        if i + k < n then
          local a = next_random() % 26
          local b = next_random() % 26
          text[i + k] = 97 + floor((a + b) / 2)
        end
      end
    end
    i = i + length
    if i < n then
      local s = next_random() % 20
      if s == 0 then
        text[i] = NEWLINE
      elseif s == 1 then
        text[i] = PERIOD
      elseif s == 2 then
        text[i] = COMMA
      end
      -- Otherwise the space already there.
      i = i + 1
    end
    if i < n and next_random() % 4 == 0 then i = i + 1 end
  end
  return text
end
local function is_letter(c)
  return (c >= 97 and c <= 122) or (c >= 65 and c <= 90)
end
local function lower(c)
  if c >= 65 and c <= 90 then return c + 32 end
  return c
end
-- Returns {lines, words, letters, longest word, palindromes} and fills the
-- letter histogram.
local function count(text, histogram)
  local n = len(text)
  local lines, words, letters, longest, palindromes = 0, 0, 0, 0, 0
  local start, in_word = 0, false
  for i = 0, n do
    local c = SPACE
    if i < n then c = text[i] end
    if c == NEWLINE then lines = lines + 1 end
    if is_letter(c) then
      letters = letters + 1
      local l = lower(c) - 97
      histogram[l] = histogram[l] + 1
      if not in_word then
        in_word = true
        start = i
        words = words + 1
      end
    elseif in_word then
      in_word = false
      local length = i - start
      longest = max(longest, length)
      if length >= 2 then
        local lo, hi = start, i - 1
        while lo < hi and lower(text[lo]) == lower(text[hi]) do
          lo = lo + 1
          hi = hi - 1
        end
        if lo >= hi then palindromes = palindromes + 1 end
      end
    end
  end
  return { [0] = lines, words, letters, longest, palindromes }
end
-- Upper-cases the first letter of the text and of every sentence.
local function capitalize(text)
  local changed, sentence_start = 0, true
  for i = 0, len(text) - 1 do
    local c = text[i]
    if c == PERIOD then
      sentence_start = true
    elseif sentence_start and is_letter(c) then
      if c >= 97 then
        text[i] = c - 32
        changed = changed + 1
      end
      sentence_start = false
    end
  end
  return changed
end
-- Run-length encoding into two tables; returns the number of runs.
local function encode(text, chars, runs)
  local length = len(text)
  local n, i = 0, 0
  while i < length do
    local c = text[i]
    local j = i + 1
    while j < length and text[j] == c do j = j + 1 end
    chars[n] = c
    runs[n] = j - i
    n = n + 1
    i = j
  end
  return n
end
local function decode(chars, runs, n, out)
  local k = 0
  for r = 0, n - 1 do
    for j = 0, runs[r] - 1 do
      out[k] = chars[r]
      k = k + 1
    end
  end
  return k
end
local size = 5000000
local histogram = filled(26, 0)
local chars, runs, copy = filled(size, 0), filled(size, 0), filled(size, 0)
for round = 0, 2 do
  local text = generate(size)
  local c = count(text, histogram)
  local capitals = capitalize(text)
  local n = encode(text, chars, runs)
  local longest_run = 0
  for r = 0, n - 1 do longest_run = max(longest_run, runs[r]) end
  local decoded = decode(chars, runs, n, copy)
  local differ, hash = 0, 0LL
  for i = 0, size - 1 do
    if copy[i] ~= text[i] then differ = differ + 1 end
    hash = hash * 131 + text[i]
  end
  print(string.format("%d %d %d %d %d", c[0], c[1], c[2], c[3], c[4]))
  print(string.format("%d %d %d %d %d %d", capitals, n, longest_run, decoded, differ, hash))
end
local common = 0
for l = 0, 25 do
  if histogram[l] > histogram[common] then common = l end
end
print(string.format("%d %d %d %d", common, histogram[common], histogram[0], histogram[25]))
