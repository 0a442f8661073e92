"""puzzle (Gabriel; r7rs-benchmarks src/puzzle.scm), the same algorithm in CPython."""
import sys

SIZE = 511
CLASSMAX = 3
TYPEMAX = 12
D = 8
piececount = [0] * (CLASSMAX + 1)
klass = [0] * (TYPEMAX + 1)
piecemax = [0] * (TYPEMAX + 1)
puzzle = [False] * (SIZE + 1)
p = [[False] * (SIZE + 1) for _ in range(TYPEMAX + 1)]
state = {'iii': 0, 'kount': 0}


def fit(i, j):
    end = piecemax[i]
    pi = p[i]
    for k in range(end + 1):
        if pi[k] and puzzle[j + k]:
            return False
    return True


def place(i, j):
    end = piecemax[i]
    pi = p[i]
    for k in range(end + 1):
        if pi[k]:
            puzzle[j + k] = True
    piececount[klass[i]] -= 1
    k = j
    while k <= SIZE and puzzle[k]:
        k += 1
    return 0 if k > SIZE else k


def puzzle_remove(i, j):
    end = piecemax[i]
    pi = p[i]
    for k in range(end + 1):
        if pi[k]:
            puzzle[j + k] = False
    piececount[klass[i]] += 1


def trial(j):
    for i in range(TYPEMAX + 1):
        if piececount[klass[i]] != 0 and fit(i, j):
            k = place(i, j)
            if trial(k) or k == 0:
                state['kount'] += 1
                return True
            puzzle_remove(i, j)
    state['kount'] += 1
    return False


def define_piece(iclass, ii, jj, kk):
    index = 0
    for i in range(ii + 1):
        for j in range(jj + 1):
            for k in range(kk + 1):
                index = i + D * (j + D * k)
                p[state['iii']][index] = True
    klass[state['iii']] = iclass
    piecemax[state['iii']] = index
    if state['iii'] != TYPEMAX:
        state['iii'] += 1


def start(size):
    state['kount'] = 0
    for m in range(size + 1):
        puzzle[m] = True
    for i in range(1, 6):
        for j in range(1, 6):
            for k in range(1, 6):
                puzzle[i + D * (j + D * k)] = False
    for i in range(TYPEMAX + 1):
        for m in range(size + 1):
            p[i][m] = False
    state['iii'] = 0
    for args in ((0, 3, 1, 0), (0, 1, 0, 3), (0, 0, 3, 1), (0, 1, 3, 0), (0, 3, 0, 1),
                 (0, 0, 1, 3), (1, 2, 0, 0), (1, 0, 2, 0), (1, 0, 0, 2), (2, 1, 1, 0),
                 (2, 1, 0, 1), (2, 0, 1, 1), (3, 1, 1, 1)):
        define_piece(*args)
    piececount[0], piececount[1], piececount[2], piececount[3] = 13, 3, 1, 1
    m = D * (D + 1) + 1
    n = 0
    if fit(0, m):
        n = place(0, m)
    else:
        print('Error.')
    return state['kount'] if trial(n) else False


def main():
    size, k = map(int, sys.argv[1:3])
    for _ in range(k):
        result = start(size)
    print(result)


main()
