total = 0
for i in range(2000000):
    a = [i] * 100
    total = total + a[99] - a[0] + a[50]
print(total)
