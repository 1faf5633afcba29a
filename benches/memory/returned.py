def scaled(x, n):
    v = [0.0] * n
    for i in range(n):
        v[i] = x * float(i)
    return v

s = 0.0
for k in range(200000):
    v = scaled(float(k % 7), 200)
    s = s + v[199] + v[1]
print(s)
