local ffi = require("ffi")
local bit = require("bit")
local band, rshift = bit.band, bit.rshift

local function i64str(x) return (tostring(ffi.cast("int64_t", x)):gsub("LL$", "")) end

local S = ffi.new("uint64_t[1]", 777)
local function rnd()
  local s = S[0] * 6364136223846793005ULL + 1442695040888963407ULL
  S[0] = s
  return tonumber(band(rshift(s, 33), 0x7fffffff))
end

local function lmin(a, b) if a < b then return a else return b end end
local function lmax(a, b) if a > b then return a else return b end end

local function make_matrix(n)
  local m = {}
  for i = 0, n - 1 do
    local row = {}
    for j = 0, n - 1 do row[j] = 0 end
    m[i] = row
  end
  return m
end

local function solve(dims, nd, cost, split)
  local n = nd - 1
  for length = 2, n do
    for i = 0, n - length do
      local j = i + length - 1
      local best = -1
      local bestk = i
      for k = i, j - 1 do
        local c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
        if best < 0 or c < best then
          best = c
          bestk = k
        end
      end
      cost[i][j] = best
      split[i][j] = bestk
    end
  end
  return cost[0][n - 1]
end

local order_hash = 0ULL
local function depth(split, i, j)
  if i == j then
    order_hash = order_hash * 31 + i
    return 0
  end
  local k = split[i][j]
  local a = depth(split, i, k)
  local b = depth(split, k + 1, j)
  order_hash = order_hash * 37 + k
  return 1 + lmax(a, b)
end

local N = 1400
local dims = {}
for i = 0, N do dims[i] = 5 + rnd() % 96 end
local cost = make_matrix(N)
local split = make_matrix(N)
local best = solve(dims, N + 1, cost, split)
local d = depth(split, 0, N - 1)
local diag = 0
for i = 0, N - 2 do
  diag = diag + cost[i][i + 1] % 1000 + split[i][lmin(i + 50, N - 1)]
end
print(string.format("best %d depth %d", best, d))
print(string.format("order %s diag %d", i64str(order_hash), diag))
