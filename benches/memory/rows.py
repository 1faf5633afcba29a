n = 1000
grid = [[0] for _ in range(n)]
for p in range(20):
    for r in range(n):
        grid[r] = [p + r] * n
check = 0
for r in range(n):
    check = check + grid[r][r]
print(check)
