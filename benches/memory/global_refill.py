g = [0] * 10000

def refill(k):
    global g
    g = [k] * 10000

s = 0
for k in range(10000):
    refill(k)
    s = s + g[9999]
print(s)
