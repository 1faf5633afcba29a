-- Recursion without memoization: Hofstadter's Q sequence, three mutually
-- recursive automaton-state counters, and Chebyshev T/U polynomials over floats
-- through their mutual recurrence.
-- Ints stay non-negative and below 2^53 (sums of three values below 1e9+7):
-- plain Lua numbers and % give Toy's results. Floats are Lua numbers (IEEE
-- doubles) with the same operations in the same order; Toy's int() truncates
-- toward zero, done here by trunc.
local floor, ceil = math.floor, math.ceil
local function trunc(x) if x >= 0 then return floor(x) else return ceil(x) end end
local q
q = function(n)
  if n <= 2 then return 1 end
  return q(n - q(n - 1)) + q(n - q(n - 2))
end
-- Strings over {a, b, c} of length n with no "aa" and no "bc", by last letter.
local ends_a, ends_b, ends_c
ends_a = function(n)
  if n == 1 then return 1 end
  return (ends_b(n - 1) + ends_c(n - 1)) % 1000000007
end
ends_b = function(n)
  if n == 1 then return 1 end
  return (ends_a(n - 1) + ends_b(n - 1) + ends_c(n - 1)) % 1000000007
end
ends_c = function(n)
  if n == 1 then return 1 end
  return (ends_a(n - 1) + ends_c(n - 1)) % 1000000007
end
-- T_n = x T_{n-1} - (1 - x^2) U_{n-2},  U_n = x U_{n-1} + T_n.
local cheb_t, cheb_u
cheb_t = function(n, x)
  if n == 0 then return 1.0 end
  if n == 1 then return x end
  return x * cheb_t(n - 1, x) - (1.0 - x * x) * cheb_u(n - 2, x)
end
cheb_u = function(n, x)
  if n < 0 then return 0.0 end
  if n == 0 then return 1.0 end
  return x * cheb_u(n - 1, x) + cheb_t(n, x)
end
local qs = 0
for n = 1, 35 do qs = (qs * 31 + q(n)) % 1000000007 end
print(string.format("q %d %d", q(36), qs))
local n = 4
while n < 25 do
  local a = ends_a(n)
  local b = ends_b(n)
  local c = ends_c(n)
  print(string.format("strings %d %d %d %d %d", n, a, b, c, (a + b + c) % 1000000007))
  n = n + 3
end
local total = 0.0
for k = 0, 40 do
  local x = -0.97 + k * 0.047
  local t = cheb_t(23, x)
  local u = cheb_u(21, x)
  total = total + (t * 0.5 + u * 0.25)
  if k % 8 == 0 then
    print(string.format("cheb %d %d %d", k, trunc(t * 1000000.0), trunc(u * 1000000.0)))
  end
end
print(string.format("cheb total %d", trunc(total * 1000000.0)))
