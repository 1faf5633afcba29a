def step(a):
    n = len(a)
    b = [0] * n
    for i in range(n):
        b[i] = a[(i + 1) % n] + 1
    return b

a = [0] * 16
for i in range(500000):
    a = step(a)
print(a[0], a[15])
