-- Gaussian elimination with partial pivoting on tables of rows; solves random systems.
local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift
local abs, max, floor = math.abs, math.max, math.floor

local S = ffi.new("uint64_t[1]", 4242)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end
local function rndf() return rnd() / 2147483648.0 * 2.0 - 1.0 end

local function trunc(x) if x >= 0 then return floor(x) else return -floor(-x) end end

local function random_matrix(n)
  local a = {}
  for i = 0, n - 1 do
    local row = {}
    for j = 0, n - 1 do row[j] = rndf() end
    a[i] = row
  end
  return a
end

local function mat_vec(a, x, n)
  local y = {}
  for i = 0, n - 1 do
    local s = 0.0
    for j = 0, n - 1 do s = s + a[i][j] * x[j] end
    y[i] = s
  end
  return y
end

local function solve(a, b, n)
  for k = 0, n - 1 do
    local p = k
    local best = abs(a[k][k])
    for i = k + 1, n - 1 do
      if abs(a[i][k]) > best then best = abs(a[i][k]); p = i end
    end
    if p ~= k then
      local tr = a[k]; a[k] = a[p]; a[p] = tr
      local tb = b[k]; b[k] = b[p]; b[p] = tb
    end
    for i = k + 1, n - 1 do
      local f = a[i][k] / a[k][k]
      for j = k, n - 1 do a[i][j] = a[i][j] - f * a[k][j] end
      b[i] = b[i] - f * b[k]
    end
  end
  local x = {}
  for i = 0, n - 1 do x[i] = 0.0 end
  local i = n - 1
  while i >= 0 do
    local s = b[i]
    for j = i + 1, n - 1 do s = s - a[i][j] * x[j] end
    x[i] = s / a[i][i]
    i = i - 1
  end
  return x
end

local n, systems = 400, 60
local total, worst = 0.0, 0.0
for sys = 0, systems - 1 do
  local a = random_matrix(n)
  local xt = {}
  for i = 0, n - 1 do xt[i] = rndf() end
  local b = mat_vec(a, xt, n)
  local x = solve(a, b, n)
  local s, err = 0.0, 0.0
  for i = 0, n - 1 do
    s = s + x[i] * (i + 1)
    err = max(err, abs(x[i] - xt[i]))
  end
  total = total + s
  worst = max(worst, err)
  if sys % 12 == 0 then print(string.format("%d %d %d", sys, trunc(s * 1000000.0), trunc(err * 1000000000000000.0))) end
end
print(string.format("total %d worst %d", trunc(total * 1000000.0), trunc(worst * 1000000000000000.0)))
