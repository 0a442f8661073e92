"""triangl (Gabriel; r7rs-benchmarks src/triangl.scm), the same algorithm in CPython;
like the rusty port, it first plays the first K moves of the known solution."""
import sys

from sexp import show

BOARD = [1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
SEQUENCE = [0] * 14
A = [1, 2, 4, 3, 5, 6, 1, 3, 6, 2, 5, 4, 11, 12, 13, 7, 8, 4, 4, 7, 11, 8, 12, 13, 6, 10,
     15, 9, 14, 13, 13, 14, 15, 9, 10, 6, 6]
B = [2, 4, 7, 5, 8, 9, 3, 6, 10, 5, 9, 8, 12, 13, 14, 8, 9, 5, 2, 4, 7, 5, 8, 9, 3, 6, 10,
     5, 9, 8, 12, 13, 14, 8, 9, 5, 5]
C = [4, 7, 11, 8, 12, 13, 6, 10, 15, 9, 14, 13, 13, 14, 15, 9, 10, 6, 1, 2, 4, 3, 5, 6, 1,
     3, 6, 2, 5, 4, 11, 12, 13, 7, 8, 4, 4]
answer = []


def attempt(i, depth):
    if depth == 14:
        answer.insert(0, SEQUENCE[1:])
        return True
    if BOARD[A[i]] == 1 and BOARD[B[i]] == 1 and BOARD[C[i]] == 0:
        BOARD[A[i]] = 0
        BOARD[B[i]] = 0
        BOARD[C[i]] = 1
        SEQUENCE[depth] = i
        j = 0
        while not (j == 36 or attempt(j, depth + 1)):
            j += 1
        BOARD[A[i]] = 1
        BOARD[B[i]] = 1
        BOARD[C[i]] = 0
    return False


def test(i, depth):
    del answer[:]
    attempt(i, depth)
    return answer[0]


SOLUTION = [22, 34, 31, 15, 7, 1, 20, 17, 25, 6, 5, 13, 32]


def play(moves, depth):
    for i in moves:
        BOARD[A[i]] = 0
        BOARD[B[i]] = 0
        BOARD[C[i]] = 1
        SEQUENCE[depth] = i
        depth += 1


def main():
    k, n = map(int, sys.argv[1:3])
    play(SOLUTION[:k], 1)
    result = None
    for _ in range(n):
        result = test(SOLUTION[k], k + 1)
    print(show(result))


main()
