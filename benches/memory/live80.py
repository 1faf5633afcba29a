keep = [[0] for _ in range(10)]
for i in range(10):
    keep[i] = [i] * 1000000
s = 0
for k in range(1600):
    junk = [k] * 125000
    s = s + junk[124999] + keep[k % 10][k]
print(s)
