"""mazefun (r7rs-benchmarks src/mazefun.scm), the same algorithm in CPython, in the
same functional style: lists are (head, rest) tuples, None the empty list; a
position is an (i, j) tuple."""
import sys


def foldr(f, base, lst):
    def aux(lst):
        return base if lst is None else f(lst[0], aux(lst[1]))
    return aux(lst)


def foldl(f, base, lst):
    while lst is not None:
        base, lst = f(base, lst[0]), lst[1]
    return base


def for_(lo, hi, f):
    def aux(lo):
        return (f(lo), aux(lo + 1)) if lo < hi else None
    return aux(lo)


def append(a, b):
    return b if a is None else (a[0], append(a[1], b))


def concat(lists):
    return foldr(append, None, lists)


def list_read(lst, i):
    while i != 0:
        lst, i = lst[1], i - 1
    return lst[0]


def list_write(lst, i, val):
    if i == 0:
        return (val, lst[1])
    return (lst[0], list_write(lst[1], i - 1, val))


def list_remove_pos(lst, i):
    if i == 0:
        return lst[1]
    return (lst[0], list_remove_pos(lst[1], i - 1))


def member(x, lst):
    while lst is not None:
        if lst[0] == x:
            return lst
        lst = lst[1]
    return False


def duplicates(lst):
    if lst is None:
        return False
    return member(lst[0], lst[1]) or duplicates(lst[1])


def length(lst):
    n = 0
    while lst is not None:
        n, lst = n + 1, lst[1]
    return n


def lmap(f, lst):
    return None if lst is None else (f(lst[0]), lmap(f, lst[1]))


def make_matrix(n, m, init):
    return for_(0, n, lambda i: for_(0, m, lambda j: init(i, j)))


def matrix_read(mat, i, j):
    return list_read(list_read(mat, i), j)


def matrix_write(mat, i, j, val):
    return list_write(mat, i, list_write(list_read(mat, i), j, val))


def matrix_size(mat):
    return (length(mat), length(mat[0]))


def matrix_map(f, mat):
    return lmap(lambda lst: lmap(f, lst), mat)


def next_random_number(current):
    return (current * 3581 + 12751) % 131072


def shuffle(lst):
    return shuffle_aux(lst, 0)


def shuffle_aux(lst, current):
    if lst is None:
        return None
    new = next_random_number(current)
    i = new % length(lst)
    return (list_read(lst, i), shuffle_aux(list_remove_pos(lst, i), new))


def make_maze(n, m):
    cave = make_matrix(n, m, lambda i, j: (i, j) if i % 2 == 0 and j % 2 == 0 else False)
    possible_holes = concat(for_(0, n, lambda i: concat(for_(
        0, m, lambda j: None if (i % 2 == 0) == (j % 2 == 0) else ((i, j), None)))))
    return cave_to_maze(pierce_randomly(shuffle(possible_holes), cave))


def cave_to_maze(cave):
    return matrix_map(lambda x: '_' if x is not False else '*', cave)


def pierce(pos, cave):
    return matrix_write(cave, pos[0], pos[1], pos)


def pierce_randomly(holes, cave):
    while holes is not None:
        cave = try_to_pierce(holes[0], cave)
        holes = holes[1]
    return cave


def try_to_pierce(pos, cave):
    ncs = neighboring_cavities(pos, cave)
    if duplicates(lmap(lambda nc: matrix_read(cave, nc[0], nc[1]), ncs)):
        return cave
    return pierce(pos, foldl(lambda c, nc: change_cavity(c, nc, pos), cave, ncs))


def change_cavity(cave, pos, new_id):
    return change_cavity_aux(cave, pos, new_id, matrix_read(cave, pos[0], pos[1]))


def change_cavity_aux(cave, pos, new_id, old_id):
    i, j = pos
    if matrix_read(cave, i, j) == old_id:
        return foldl(lambda c, nc: change_cavity_aux(c, nc, new_id, old_id),
                     matrix_write(cave, i, j, new_id), neighboring_cavities(pos, cave))
    return cave


def neighboring_cavities(pos, cave):
    n, m = matrix_size(cave)
    i, j = pos
    out = None
    if j < m - 1 and matrix_read(cave, i, j + 1) is not False:
        out = ((i, j + 1), out)
    if j > 0 and matrix_read(cave, i, j - 1) is not False:
        out = ((i, j - 1), out)
    if i < n - 1 and matrix_read(cave, i + 1, j) is not False:
        out = ((i + 1, j), out)
    if i > 0 and matrix_read(cave, i - 1, j) is not False:
        out = ((i - 1, j), out)
    return out


def main():
    sys.setrecursionlimit(100000)
    n, m, k = map(int, sys.argv[1:4])
    for _ in range(k):
        maze = make_maze(n, m)
    while maze is not None:
        row, cells = maze[0], []
        while row is not None:
            cells.append(row[0])
            row = row[1]
        print('(' + ' '.join(cells) + ')')
        maze = maze[1]


main()
