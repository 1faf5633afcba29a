-- 1-D signal processing on float tables: repeated convolution with a small
-- symmetric kernel (clamped at the edges), then box blurs computed from
-- prefix sums, on a noisy generated signal.
-- The LCG wraps at 64 bits: uint64_t cdata.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local floor, min, max = math.floor, math.min, math.max
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 60221)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function zeros(n)
  local t = {}
  for i = 0, n - 1 do t[i] = 0.0 end
  return t
end
-- Binomial weights 1 4 6 4 1 ... of width 2r+1, normalized.
local function make_kernel(r)
  local k = zeros(2 * r + 1)
  k[0] = 1.0
  for i = 1, 2 * r do
    local j = i
    while j > 0 do
      k[j] = k[j] + k[j - 1]
      j = j - 1
    end
  end
  local total = 0.0
  for i = 0, 2 * r do total = total + k[i] end
  for i = 0, 2 * r do k[i] = k[i] / total end
  return k
end
local function convolve(src, dst, n, k, r)
  for i = 0, n - 1 do
    local s = 0.0
    if i >= r and i + r < n then
      for t = 0, 2 * r do s = s + k[t] * src[i - r + t] end
    else
      for t = 0, 2 * r do
        local j = min(max(i - r + t, 0), n - 1)
        s = s + k[t] * src[j]
      end
    end
    dst[i] = s
  end
end
-- dst[i] = mean of src over the window [i - r, i + r] clipped to the array.
local function box_blur(src, dst, prefix, n, r)
  prefix[0] = 0.0
  for i = 0, n - 1 do prefix[i + 1] = prefix[i] + src[i] end
  for i = 0, n - 1 do
    local lo = max(i - r, 0)
    local hi = min(i + r + 1, n)
    dst[i] = (prefix[hi] - prefix[lo]) / (hi - lo)
  end
end
local function summary(a, n)
  local sum, energy, peak = 0.0, 0.0, a[0]
  for i = 0, n - 1 do
    sum = sum + a[i]
    energy = energy + a[i] * a[i]
    peak = max(peak, a[i])
  end
  print(string.format("%d %d %d %d", trunc(sum * 1000.0), trunc(energy * 1000.0),
    trunc(peak * 1000000.0), trunc(a[floor(n / 3)] * 1000000.0)))
end
local n = 1000000
local a = zeros(n)
for i = 0, n - 1 do
  -- A slow ramp and a square wave under uniform noise.
  local base = (i % 5000) / 5000.0
  if floor(i / 20000) % 2 == 0 then base = base + 1.0 end
  a[i] = base + (next_random() % 2001 - 1000) / 1000.0
end
local b = zeros(n)
summary(a, n)
local r = 7
local k = make_kernel(r)
print(string.format("%d %d", trunc(k[r] * 1000000000.0), trunc(k[0] * 1000000000000.0)))
for pass = 0, 23 do
  convolve(a, b, n, k, r)
  local t = a
  a = b
  b = t
end
summary(a, n)
local prefix = zeros(n + 1)
for pass = 0, 11 do
  box_blur(a, b, prefix, n, 25 + pass)
  local t = a
  a = b
  b = t
end
summary(a, n)
