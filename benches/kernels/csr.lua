-- Sparse matrix-vector products in CSR form (row_ptr, col_idx, vals) inside
-- a power iteration: y = A x, Rayleigh quotient, normalise, repeat.
-- The minstd LCG products stay below 2^47, exact as Lua numbers.
local sqrt = math.sqrt
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
local seed = 31337
local function next_random()
  seed = seed * 48271 % 2147483647
  return seed
end
local function spmv(n, row_ptr, col_idx, vals, x, y)
  for i = 0, n - 1 do
    local sum = 0.0
    for k = row_ptr[i], row_ptr[i + 1] - 1 do sum = sum + vals[k] * x[col_idx[k]] end
    y[i] = sum
  end
end
local function dot(n, a, b)
  local s = 0.0
  for i = 0, n - 1 do s = s + a[i] * b[i] end
  return s
end
-- Build a random matrix: each row has a diagonal entry and 3..14 others.
local n = 100000
local row_ptr = {[0] = 0}
for i = 0, n - 1 do row_ptr[i + 1] = row_ptr[i] + 4 + next_random() % 12 end
local nnz = row_ptr[n]
local col_idx, vals = {}, {}
for i = 0, n - 1 do
  local start = row_ptr[i]
  col_idx[start] = i
  vals[start] = 2.0
  for k = start + 1, row_ptr[i + 1] - 1 do
    col_idx[k] = next_random() % n
    vals[k] = (next_random() % 1000 + 1) / 1000.0
  end
end
local x, y = {}, {}
for i = 0, n - 1 do
  x[i] = 1.0 / sqrt(n)
  y[i] = 0.0
end
local lambda = 0.0
for iter = 0, 199 do
  spmv(n, row_ptr, col_idx, vals, x, y)
  lambda = dot(n, x, y)
  local norm = sqrt(dot(n, y, y))
  for i = 0, n - 1 do x[i] = y[i] / norm end
  if iter % 50 == 0 then
    print(string.format("%d %d %d", iter, trunc(lambda * 1000000000.0), trunc(norm * 1000000000.0)))
  end
end
local weighted = 0.0
for i = 0, n - 1 do weighted = weighted + x[i] * (i % 100) end
print(string.format("%d %d %d", nnz, trunc(lambda * 1000000000.0), trunc(weighted * 1000000000.0)))
