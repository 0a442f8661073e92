"""Build a string in a loop by appending to it."""
import sys


def numbers_line(n):
    s = ''
    for i in range(n):
        s = s + str(i) + ','
    return s


s = numbers_line(int(sys.argv[1]))
print(len(s), s[-12:])
