"""A counter made by a closure, called N times."""
import sys


def make_counter():
    count = 0

    def counter():
        nonlocal count
        count += 1
        return count
    return counter


counter = make_counter()
n = int(sys.argv[1])
for i in range(n - 1):
    counter()
print(counter())
