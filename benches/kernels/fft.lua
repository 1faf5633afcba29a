-- Iterative radix-2 complex FFT on separate re/im float arrays: bit-reversal
-- permutation, butterflies with a twiddle table built from Taylor series,
-- repeated forward transform, spectral filter, inverse transform.
-- The minstd LCG products stay below 2^47, exact as Lua numbers.
local band, bxor, rshift = bit.band, bit.bxor, bit.rshift
local abs, min = math.abs, math.min
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
local PI = 3.141592653589793
local function sin_taylor(x)
  local x2, term, sum = x * x, x, x
  for k = 1, 29 do
    term = -term * x2 / ((2 * k) * (2 * k + 1))
    sum = sum + term
  end
  return sum
end
local function cos_taylor(x)
  local x2, term, sum = x * x, 1.0, 1.0
  for k = 1, 29 do
    term = -term * x2 / ((2 * k - 1) * (2 * k))
    sum = sum + term
  end
  return sum
end
local seed = 12345
local function next_random()
  seed = seed * 48271 % 2147483647
  return seed
end
local n = 65536
local cos_table, sin_table = {}, {}
for k = 0, n / 2 - 1 do
  local angle = 2.0 * PI * k / n
  cos_table[k] = cos_taylor(angle)
  sin_table[k] = sin_taylor(angle)
end
local function fft(re, im, n, inverse)
  local j = 0
  for i = 1, n - 1 do
    local b = rshift(n, 1)
    while band(j, b) ~= 0 do
      j = bxor(j, b)
      b = rshift(b, 1)
    end
    j = bxor(j, b)
    if i < j then
      re[i], re[j] = re[j], re[i]
      im[i], im[j] = im[j], im[i]
    end
  end
  local size = 2
  while size <= n do
    local half, step = size / 2, n / size
    for start = 0, n - 1, size do
      for k = 0, half - 1 do
        local wr = cos_table[k * step]
        local wi = sin_table[k * step]
        if not inverse then wi = -wi end
        local a = start + k
        local b = a + half
        local xr = re[b] * wr - im[b] * wi
        local xi = re[b] * wi + im[b] * wr
        re[b] = re[a] - xr
        im[b] = im[a] - xi
        re[a] = re[a] + xr
        im[a] = im[a] + xi
      end
    end
    size = size * 2
  end
  if inverse then
    local scale = 1.0 / n
    for i = 0, n - 1 do
      re[i] = re[i] * scale
      im[i] = im[i] * scale
    end
  end
end
local re, im = {}, {}
for i = 0, n - 1 do
  re[i] = next_random() / 2147483647.0 * 2.0 - 1.0
  im[i] = 0.0
end
-- A gentle low-pass filter applied in the frequency domain.
local filter = {}
for k = 0, n - 1 do
  local f = min(k, n - k)
  filter[k] = 1.0 / (1.0 + f / n)
end
local energy, peak = 0.0, 0
for round = 0, 59 do
  fft(re, im, n, false)
  local e, best = 0.0, 0.0
  for k = 0, n - 1 do
    local p = re[k] * re[k] + im[k] * im[k]
    e = e + p
    if p > best then
      best = p
      peak = k
    end
    re[k] = re[k] * filter[k]
    im[k] = im[k] * filter[k]
  end
  energy = energy + e / n
  fft(re, im, n, true)
end
local sum_re, sum_abs = 0.0, 0.0
for i = 0, n - 1 do
  sum_re = sum_re + re[i]
  sum_abs = sum_abs + abs(re[i]) + abs(im[i])
end
print(string.format("%d %d", trunc(energy * 1000000.0), peak))
print(string.format("%d %d", trunc(sum_re * 1000000000.0), trunc(sum_abs * 1000000.0)))
