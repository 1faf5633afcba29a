-- Knuth-Morris-Pratt substring search over int arrays: a text over a
-- four-letter alphabet from an LCG, and patterns cut from the text or made
-- periodic, each searched for all (overlapping) occurrences.
-- The minstd LCG products stay below 2^47, exact as Lua numbers; values are
-- non-negative, so Lua's floored % and Toy's truncating % agree.
local rshift = bit.rshift
local seed = 2024
local function next_random()
  seed = seed * 48271 % 2147483647
  return seed
end
local function build_failure(pat, m, fail)
  fail[0] = 0
  local k = 0
  for i = 1, m - 1 do
    while k > 0 and pat[i] ~= pat[k] do k = fail[k - 1] end
    if pat[i] == pat[k] then k = k + 1 end
    fail[i] = k
  end
end
local function search(text, n, pat, m, fail)
  local count, k = 0, 0
  for i = 0, n - 1 do
    local c = text[i]
    while k > 0 and c ~= pat[k] do k = fail[k - 1] end
    if c == pat[k] then k = k + 1 end
    if k == m then
      count = count + 1
      k = fail[k - 1]
    end
  end
  return count
end
local n = 4000000
local text = {}
for i = 0, n - 1 do text[i] = rshift(next_random(), 8) % 4 end
-- Stretches of a repeated short motif give the failure links work to do.
for block = 0, 199 do
  local start = next_random() % (n - 1000)
  local period = 1 + next_random() % 5
  for i = 0, 999 do text[start + i] = text[start + i % period] end
end
local total, check = 0, 0
for p = 0, 23 do
  local m = 4 + p % 12
  local pat = {}
  if p % 3 == 2 then
    local period = 1 + next_random() % 4
    for i = 0, m - 1 do
      pat[i] = next_random() % 4
      if i >= period then pat[i] = pat[i - period] end
    end
  else
    local start = next_random() % (n - m)
    for i = 0, m - 1 do pat[i] = text[start + i] end
  end
  local fail = {}
  build_failure(pat, m, fail)
  local count = search(text, n, pat, m, fail)
  for i = 0, m - 1 do check = (check * 7 + fail[i]) % 1000000007 end
  total = total + count
  if p % 6 == 0 then print(string.format("%d %d %d", p, m, count)) end
end
print(string.format("%d %d", total, check))
