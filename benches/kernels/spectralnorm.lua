-- Benchmarks Game spectral-norm: float loops, division, calls.
local function trunc(x) if x >= 0 then return math.floor(x) else return math.ceil(x) end end
local function a(i, j)
  local ij = i + j
  return 1.0 / (ij * (ij + 1) / 2 + i + 1)
end
local function times(v, out, n)
  for i = 0, n - 1 do
    local sum = 0.0
    for j = 0, n - 1 do sum = sum + a(i, j) * v[j] end
    out[i] = sum
  end
end
local function times_transposed(v, out, n)
  for i = 0, n - 1 do
    local sum = 0.0
    for j = 0, n - 1 do sum = sum + a(j, i) * v[j] end
    out[i] = sum
  end
end
local function times_ata(v, out, tmp, n)
  times(v, tmp, n)
  times_transposed(tmp, out, n)
end
local n = 2500
local u, v, tmp = {}, {}, {}
for i = 0, n - 1 do u[i], v[i], tmp[i] = 1.0, 0.0, 0.0 end
for step = 1, 10 do
  times_ata(u, v, tmp, n)
  times_ata(v, u, tmp, n)
end
local vbv, vv = 0.0, 0.0
for i = 0, n - 1 do
  vbv = vbv + u[i] * v[i]
  vv = vv + v[i] * v[i]
end
print(string.format("%d", trunc(math.sqrt(vbv / vv) * 1000000000.0)))
