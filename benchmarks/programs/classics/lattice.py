"""lattice (Andrew Wright; r7rs-benchmarks src/lattice.scm), the same algorithm in
CPython: Scheme lists are (head, rest) tuples with None the empty list, a lattice
a (elements, cmp) tuple and a pair of a partial map a (next, x) tuple, as in the
Lisp port; the same closures, select loops and recursive counting."""
import sys


def cons_list(*xs):
    lst = None
    for x in reversed(xs):
        lst = (x, lst)
    return lst


def reverse(lst):
    out = None
    while lst is not None:
        out, lst = (lst[0], out), lst[1]
    return out


def cons_map(f, lst):
    return None if lst is None else (f(lst[0]), cons_map(f, lst[1]))


def append(a, b):
    return b if a is None else (a[0], append(a[1], b))


def member(x, lst):
    while lst is not None:
        if lst[0] == x:
            return lst
        lst = lst[1]
    return False


def lexico(base):
    def lex_fixed(fixed, lhs, rhs):
        def check(lhs, rhs):
            while lhs is not None:
                probe = base(lhs[0], rhs[0])
                if not (probe == 'equal' or probe == fixed):
                    return 'uncomparable'
                lhs, rhs = lhs[1], rhs[1]
            return fixed
        return check(lhs, rhs)

    def lex_first(lhs, rhs):
        while lhs is not None:
            probe = base(lhs[0], rhs[0])
            if probe in ('less', 'more'):
                return lex_fixed(probe, lhs[1], rhs[1])
            if probe == 'equal':
                lhs, rhs = lhs[1], rhs[1]
                continue
            if probe == 'uncomparable':
                return 'uncomparable'
            return None
        return 'equal'
    return lex_first


def make_lattice(elem_list, cmp_func):
    return (elem_list, cmp_func)


def lattice_elements(lattice):
    return lattice[0]


def lattice_cmp(lattice):
    return lattice[1]


def zulu_select(test, lst):
    ac = None
    while lst is not None:
        head = lst[0]
        if test(head):
            ac = (head, ac)
        lst = lst[1]
    return reverse(ac)


def select_map(test, func, lst):
    ac = None
    while lst is not None:
        head = lst[0]
        if test(head):
            ac = (func(head), ac)
        lst = lst[1]
    return reverse(ac)


def map_and(proc, lst):
    if lst is None:
        return True
    while True:
        rest = lst[1]
        if rest is None:
            return proc(lst[0])
        if not proc(lst[0]):
            return False
        lst = rest


LESS_EQUAL = cons_list('less', 'equal')
MORE_EQUAL = cons_list('more', 'equal')


def second(p):
    return p[1]


def maps_1(source, target, pas, new):
    scmp = lattice_cmp(source)
    tcmp = lattice_cmp(target)
    less = select_map(lambda p: scmp(p[0], new) == 'less', second, pas)
    more = select_map(lambda p: scmp(p[0], new) == 'more', second, pas)
    return zulu_select(
        lambda t: (map_and(lambda t2: member(tcmp(t2, t), LESS_EQUAL) is not False, less)
                   and map_and(lambda t2: member(tcmp(t2, t), MORE_EQUAL) is not False, more)),
        lattice_elements(target))


def maps_rest(source, target, pas, rest, to_1, to_collect):
    if rest is None:
        return to_1(pas)
    nxt, rest = rest
    return to_collect(cons_map(
        lambda x: maps_rest(source, target, ((nxt, x), pas), rest, to_1, to_collect),
        maps_1(source, target, pas, nxt)))


def apply_append(lists):
    if lists is None:
        return None
    return append(lists[0], apply_append(lists[1]))


def maps(source, target):
    return make_lattice(
        maps_rest(source, target, None, lattice_elements(source),
                  lambda x: cons_list(cons_map(second, x)), apply_append),
        lexico(lattice_cmp(target)))


def count_maps(source, target):
    return maps_rest(source, target, None, lattice_elements(source), lambda x: 1, sum_)


def sum_(lst):
    return 0 if lst is None else lst[0] + sum_(lst[1])


def base_cmp(lhs, rhs):
    if lhs == 'low':
        if rhs == 'low':
            return 'equal'
        if rhs == 'high':
            return 'less'
        raise RuntimeError('make-lattice: base ' + str(rhs))
    if lhs == 'high':
        if rhs == 'low':
            return 'more'
        if rhs == 'high':
            return 'equal'
        raise RuntimeError('make-lattice: base ' + str(rhs))
    raise RuntimeError('make-lattice: base ' + str(lhs))


def run(k):
    l2 = make_lattice(cons_list('low', 'high'), base_cmp)
    l3 = maps(l2, l2)
    l4 = maps(l3, l3)
    count_maps(l2, l2)
    count_maps(l3, l3)
    count_maps(l2, l3)
    count_maps(l3, l2)
    if k == 33:
        return count_maps(l3, l3)
    if k == 44:
        return count_maps(l4, l4)
    if k == 45:
        return count_maps(l4, maps(l4, l4))
    if k == 54:
        return count_maps(maps(l4, l4), l4)
    if k == 55:
        l5 = maps(l4, l4)
        return count_maps(l5, l5)
    raise RuntimeError('run: unanticipated problem size ' + str(k))


def main():
    sys.setrecursionlimit(100000)
    k, n = map(int, sys.argv[1:3])
    for _ in range(n):
        result = run(k)
    print(result)


main()
