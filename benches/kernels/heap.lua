-- A binary min-heap priority queue on an int table: the "hold" model of
-- event simulation (pop the earliest event, schedule a later one), then
-- draining the queue in order. Keys stay below 2^53, so Lua numbers are
-- exact; the LCG and the drain checksum wrap at 64 bits: uint64_t/int64_t
-- cdata.
local ffi = require("ffi")
local band, bxor, rshift = bit.band, bit.bxor, bit.rshift
local floor = math.floor
-- The LCG state is a uint64_t cell: a 64-bit cdata kept in an upvalue would
-- be boxed anew on every call.
local seed = ffi.new("uint64_t[1]", 5150)
local function next_random()
  seed[0] = seed[0] * 6364136223846793005ULL + 1442695040888963407ULL
  return tonumber(band(rshift(seed[0], 33), 0x7fffffff))
end
-- Adds key to heap[0..n]; the caller's count becomes n + 1.
local function push(heap, n, key)
  local i = n
  while i > 0 do
    local parent = floor((i - 1) / 2)
    if heap[parent] <= key then break end
    heap[i] = heap[parent]
    i = parent
  end
  heap[i] = key
end
-- Removes and returns the smallest key of heap[0..n].
local function pop(heap, n)
  local top = heap[0]
  local last = heap[n - 1]
  local size = n - 1
  local i = 0
  while true do
    local child = 2 * i + 1
    if child >= size then break end
    if child + 1 < size and heap[child + 1] < heap[child] then child = child + 1 end
    if last <= heap[child] then break end
    heap[i] = heap[child]
    i = child
  end
  heap[i] = last
  return top
end
local capacity = 400000
local heap = {}
for i = 0, capacity - 1 do heap[i] = 0 end
local check = 0LL
for round = 0, 2 do
  local n = 0
  local events = 100000 * (round + 1)
  for e = 0, events - 1 do
    -- Key: time in the high bits, event id in the low 20.
    push(heap, n, (next_random() % 100000) * 1048576 + e)
    n = n + 1
  end
  local now, handled = 0, 0
  for step = 0, 1000000 - 1 do
    local key = pop(heap, n)
    n = n - 1
    local time = floor(key / 1048576)
    if time < now then print(string.format("out of order %d", step)) end
    now = time
    handled = handled + key % 1048576
    local a = next_random() % 1000
    local b = next_random() % 1000
    local delay = 1 + a + b
    push(heap, n, (now + delay) * 1048576 + key % 1048576)
    n = n + 1
  end
  local last, sorted, sum = -1, true, 0LL
  while n > 0 do
    local key = pop(heap, n)
    n = n - 1
    if key < last then sorted = false end
    last = key
    sum = sum * 31 + key
  end
  print(string.format("%d %d %d %s %d", events, now, handled, tostring(sorted), sum))
  check = bxor(check, sum)
end
print(string.format("%d", check))
