-- LU decomposition with partial pivoting on a dense matrix of float row
-- tables (Doolittle, in place, with a row permutation), then forward and
-- back substitution; checks the solution of A x = A * ones and the
-- reconstruction of a few entries of P A = L U. Repeated on new matrices.
-- The LCG wraps at 64 bits: uint64_t cdata.
local ffi = require("ffi")
local band, rshift = bit.band, bit.rshift
local abs, min, max = math.abs, math.min, math.max
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 4711)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
local function zeros(n)
  local t = {}
  for i = 0, n - 1 do t[i] = 0.0 end
  return t
end
-- Uniform in [-1, 1).
local function random_float()
  return next_random() / 1073741824.0 - 1.0
end
local function random_matrix(n)
  local a = {}
  for i = 0, n - 1 do
    local row = zeros(n)
    for j = 0, n - 1 do row[j] = random_float() end
    a[i] = row
  end
  return a
end
local function copy_matrix(a, n)
  local b = {}
  for i = 0, n - 1 do
    local row = zeros(n)
    for j = 0, n - 1 do row[j] = a[i][j] end
    b[i] = row
  end
  return b
end
-- Factors a in place; perm[i] is the original row now at row i.
-- Returns the number of row swaps.
local function lu_decompose(a, n, perm)
  for i = 0, n - 1 do perm[i] = i end
  local swaps = 0
  for k = 0, n - 1 do
    local p = k
    local best = abs(a[k][k])
    for i = k + 1, n - 1 do
      if abs(a[i][k]) > best then
        best = abs(a[i][k])
        p = i
      end
    end
    if p ~= k then
      local t = a[p]
      a[p] = a[k]
      a[k] = t
      local tp = perm[p]
      perm[p] = perm[k]
      perm[k] = tp
      swaps = swaps + 1
    end
    local pivot_row = a[k]
    local pivot = pivot_row[k]
    for i = k + 1, n - 1 do
      local row = a[i]
      local factor = row[k] / pivot
      row[k] = factor
      for j = k + 1, n - 1 do row[j] = row[j] - factor * pivot_row[j] end
    end
  end
  return swaps
end
local function lu_solve(lu, n, perm, b)
  local y = zeros(n)
  for i = 0, n - 1 do
    local s = b[perm[i]]
    local row = lu[i]
    for j = 0, i - 1 do s = s - row[j] * y[j] end
    y[i] = s
  end
  local x = zeros(n)
  local i = n - 1
  while i >= 0 do
    local s = y[i]
    local row = lu[i]
    for j = i + 1, n - 1 do s = s - row[j] * x[j] end
    x[i] = s / row[i]
    i = i - 1
  end
  return x
end
local n = 450
local total_swaps = 0
local worst = 0.0
for rep = 0, 11 do
  local a = random_matrix(n)
  local b = zeros(n)
  for i = 0, n - 1 do
    local s = 0.0
    for j = 0, n - 1 do s = s + a[i][j] end
    b[i] = s
  end
  local lu = copy_matrix(a, n)
  local perm = {}
  for i = 0, n - 1 do perm[i] = 0 end
  local swaps = lu_decompose(lu, n, perm)
  total_swaps = total_swaps + swaps
  local x = lu_solve(lu, n, perm, b)
  local err, sum = 0.0, 0.0
  for i = 0, n - 1 do
    err = max(err, abs(x[i] - 1.0))
    sum = sum + x[i]
  end
  worst = max(worst, err)
  -- (L U)[i][j] against (P A)[i][j] for a few entries.
  local recon = 0.0
  for t = 0, 49 do
    local i = (t * 37) % n
    local j = (t * 91) % n
    local s = 0.0
    for k = 0, min(i, j) do
      local l = 1.0
      if k < i then l = lu[i][k] end
      s = s + l * lu[k][j]
    end
    recon = max(recon, abs(s - a[perm[i]][j]))
  end
  print(string.format("%d %d %d %s %s %d", rep, swaps, trunc(sum * 1000000.0),
    tostring(err < 0.000001), tostring(recon < 0.000000001), trunc(lu[n - 1][n - 1] * 1000000.0)))
end
print(string.format("%d %s", total_swaps, tostring(worst < 0.000001)))
