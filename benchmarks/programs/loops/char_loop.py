"""Walk a string character by character counting vowels."""
import sys

text = 'the quick brown fox jumps over the lazy dog. ' * int(sys.argv[1])


def count_vowels(s):
    n = 0
    i = 0
    while i != len(s):
        if s[i] in ('a', 'e', 'i', 'o', 'u'):
            n += 1
        i += 1
    return n


print(count_vowels(text))
