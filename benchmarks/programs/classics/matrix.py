"""matrix (Andrew Wright; r7rs-benchmarks src/matrix.scm), the same algorithm in
CPython: Scheme lists are (head, rest) tuples with None the empty list, vectors
Python lists, #f False; the same permutation generators (closures answering
'now/'brother/'child), continuation-passing partition refinement, modular row
reduction and folds, function for function. find-prime extends its list of
primes by rebinding it to an appended copy, as the Lisp port does."""
import sys


def cons(a, d):
    return (a, d)


def cons_list(*xs):
    lst = None
    for x in reversed(xs):
        lst = (x, lst)
    return lst


def length(lst):
    n = 0
    while lst is not None:
        n, lst = n + 1, lst[1]
    return n


def reverse(lst):
    out = None
    while lst is not None:
        out, lst = (lst[0], out), lst[1]
    return out


def append(a, b):
    return fold(reverse(a), cons, b)


def cons_map(f, lst):
    out = None
    while lst is not None:
        out, lst = (f(lst[0]), out), lst[1]
    return reverse(out)


def cons_map2(f, a, b):
    out = None
    while a is not None:
        out, a, b = (f(a[0], b[0]), out), a[1], b[1]
    return reverse(out)


def cdr(p):
    return p[1]


def quotient(x, y):
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def div(x, y):
    if isinstance(x, int) and isinstance(y, int) and x >= 0:
        return quotient(x, y)
    q = quotient(x, y)
    r = x - q * y
    if y < 0:
        return q if r == 0 else q + 1
    return q if r == 0 else q - 1


def mod(x, y):
    if isinstance(x, int) and isinstance(y, int) and x >= 0:
        return x - quotient(x, y) * y
    q = quotient(x, y)
    r = x - q * y
    if y < 0:
        return 0 if r == 0 else r - y
    return 0 if r == 0 else r + y


def maximal(mat):
    first_row_perm = gen_perms(mat)
    while first_row_perm is not False:
        if not zunda(first_row_perm, mat):
            return False
        first_row_perm = first_row_perm('brother')
    return True


def zunda(first_row_perm, mat):
    first_row = first_row_perm('now')
    number_of_cols = length(first_row)

    def make_row_to_func(if_equal, if_different):
        def row_to_func(row):
            vec = [0] * number_of_cols
            first = first_row
            for i in range(number_of_cols):
                vec[i] = if_equal if first[0] == row[0] else if_different
                first, row = first[1], row[1]
            return lambda i: vec[i]
        return row_to_func
    return zebra(first_row_perm('child'), make_row_to_func(1, -1), make_row_to_func(-1, 1),
                 mat[1], number_of_cols)


def zebra(row_perm, row_to_func_plus, row_to_func_minus, mat, number_of_cols):
    def loop(row_perm, mat, partitions):
        if row_perm is False:
            return True

        def cont(new_partitions):
            return loop(row_perm('child'), mat[1], new_partitions)
        if not zulu(mat[0], row_to_func_plus(row_perm('now')), partitions, cont):
            return False
        if not zulu(mat[0], row_to_func_minus(row_perm('now')), partitions, cont):
            return False
        new_row_perm = row_perm('brother')
        return new_row_perm is False or loop(new_row_perm, mat, partitions)
    return loop(row_perm, mat, cons_list(miota(number_of_cols)))


def cons_if_not_null(lhs, rhs):
    return rhs if lhs is None else (lhs, rhs)


def zulu(old_row, new_row_func, partitions, equal_cont):
    def outer(p_in, old_row, rev_p_out):
        def split(partition, old_row, plus, minus):
            if partition is None:
                def minus_loop(old_row, m):
                    if m is None:
                        new_rev_p_out = cons_if_not_null(minus, cons_if_not_null(plus, rev_p_out))
                        rest_in = p_in[1]
                        if rest_in is None:
                            return equal_cont(reverse(new_rev_p_out))
                        return outer(rest_in, old_row, new_rev_p_out)
                    return 1 == old_row[0] or minus_loop(old_row[1], m[1])
                return minus_loop(old_row, minus)
            nxt = partition[0]
            sign = new_row_func(nxt)
            if sign == 1:
                return 1 == old_row[0] and split(partition[1], old_row[1], (nxt, plus), minus)
            if sign == -1:
                return split(partition[1], old_row, plus, (nxt, minus))
            return None
        return split(p_in[0], old_row, None, None)
    return outer(partitions, old_row, None)


def gen_perms(objects):
    def loop(zulu_future, past):
        if zulu_future is None:
            return False

        def perm(msg):
            if msg == 'now':
                return zulu_future[0]
            if msg == 'brother':
                return loop(zulu_future[1], (zulu_future[0], past))
            if msg == 'child':
                return gen_perms(fold(past, cons, zulu_future[1]))
            if msg == 'puke':
                return (zulu_future[0], fold(past, cons, zulu_future[1]))
            raise RuntimeError('gen-perms: Bad msg: %s' % msg)
        return perm
    return loop(objects, None)


def fold(lst, folder, state):
    while lst is not None:
        lst, state = lst[1], folder(lst[0], state)
    return state


def miota(n):
    return cons_list(*range(n))


def proc_to_vector(size, proc):
    res = [0] * size
    for i in range(size):
        res[i] = proc(i)
    return res


def make_modular(modulus):
    def reduce(x):
        return mod(x, modulus)

    def coef_zero(x):
        return reduce(x) == 0

    def coef_plus(x, y):
        return reduce(x + y)

    def coef_negate(x):
        return reduce(-x)

    def coef_times(x, y):
        return reduce(x * y)

    inverses = proc_to_vector(modulus - 1,
                              lambda i: extended_gcd(i + 1, modulus,
                                                     lambda gcd, inverse, ignore: inverse))

    def coef_recip(x):
        return inverses[reduce(x) - 1]
    return lambda maker: maker(0, 1, coef_zero, coef_plus, coef_negate, coef_times, coef_recip)


def n_to_sgn_abs(x, cont):
    if x >= 0:
        return cont(1, x)
    return (-1, -x)


def extended_gcd(a, b, cont):
    def with_a(p_a, p):
        def with_b(q_b, q):
            pp, pa, pb, qq, qa, qb = p, p_a, 0, q, 0, q_b
            while qq != 0:
                mult = div(pp, qq)
                pp, pa, pb, qq, qa, qb = qq, qa, qb, pp - mult * qq, pa - mult * qa, pb - mult * qb
            return cont(pp, pa, pb)
        return n_to_sgn_abs(b, with_b)
    return n_to_sgn_abs(a, with_a)


def make_row_reduce(coef_zero, coef_one, coef_zero_p, coef_plus, coef_negate, coef_times,
                    coef_recip):
    def reduce_mat(mat):
        if mat is None or mat[0] is None:
            return None

        def inner(inp, out):
            if inp is None:
                return cons_map(lambda x: (coef_zero, x), reduce_mat(out))
            prow = inp[0]
            pivot, prest = prow
            inp = inp[1]
            if coef_zero_p(pivot):
                return inner(inp, (prest, out))
            mult = coef_recip(pivot)
            zap_row = cons_map(lambda x: coef_times(mult, x), prest)

            def reduce_row(row, mat):
                first_col, rest_row = row
                if coef_zero_p(first_col):
                    new_row = rest_row
                else:
                    m = coef_negate(first_col)
                    new_row = cons_map2(lambda f, z: coef_plus(f, coef_times(m, z)),
                                        rest_row, zap_row)
                return (new_row, mat)
            return ((coef_one, zap_row),
                    cons_map(lambda x: (coef_zero, x), reduce_mat(fold(inp, reduce_row, out))))
        return inner(mat, None)
    return reduce_mat


def make_in_row_space(coef_zero, coef_one, coef_zero_p, coef_plus, coef_negate, coef_times,
                      coef_recip):
    row_reduce = make_row_reduce(coef_zero, coef_one, coef_zero_p, coef_plus, coef_negate,
                                 coef_times, coef_recip)

    def in_row_space(mat):
        mat = row_reduce(mat)

        def test(row):
            mat_ = mat
            while row is not None:
                r_first, r_rest = row
                if coef_zero_p(r_first):
                    row = r_rest
                    mat_ = cons_map(cdr, mat_ if mat_ is None or coef_zero_p(mat_[0][0])
                                    else mat_[1])
                elif mat_ is None:
                    return False
                else:
                    zap_row, mat_ = mat_
                    z_first, z_rest = zap_row
                    if coef_zero_p(z_first):
                        return False
                    m = coef_negate(r_first)
                    row = cons_map2(lambda r, z: coef_plus(r, coef_times(m, z)), r_rest, z_rest)
                    mat_ = cons_map(cdr, mat_)
            return True
        return test
    return in_row_space


def make_modular_in_row_space(modulus):
    return make_modular(modulus)(make_in_row_space)


def find_prime(bound):
    primes = cons_list(2)

    def is_next_prime(trial):
        ps = primes
        while ps is not None:
            p = ps[0]
            if trial < p * p:
                return True
            if mod(trial, p) == 0:
                return False
            ps = ps[1]
        return True
    if 2 > bound:
        return 2
    trial = 3
    while True:
        if is_next_prime(trial):
            primes = append(primes, cons_list(trial))
            if trial > bound:
                return trial
        trial += 2


def det_upper_bound(size):
    main_part = size ** div(size, 2)
    if size % 2 == 0:
        return main_part
    i = 0
    while i * i < size:
        i += 1
    return main_part * i


def go(number_of_cols, inv_size, folder, state):
    in_row_space = make_modular_in_row_space(find_prime(det_upper_bound(inv_size)))

    def make_tester(mat):
        old_mat, new_row = mat[1], mat[0]
        tests = fold_over_subs_of_size(old_mat, inv_size - 2,
                                       lambda sub, tests: (in_row_space((new_row, sub)), tests),
                                       None)

        def tester(row):
            t = tests
            while t is not None:
                if t[0](row):
                    return True
                t = t[1]
            return False
        return tester
    all_rows = fold(fold_over_rows(number_of_cols - 1, cons, None),
                    lambda row, rows: ((1, row), rows), None)

    def outer(number_of_rows, rev_mat, possible_future, state):
        zulu_future = remove_in_order(in_row_space(rev_mat) if number_of_rows < inv_size
                                      else make_tester(rev_mat),
                                      possible_future)
        if zulu_future is None:
            return folder(reverse(rev_mat), state)
        while zulu_future is not None:
            first, rest_of_future = zulu_future
            new_rev_mat = (first, rev_mat)
            if maximal(reverse(new_rev_mat)):
                state = outer(number_of_rows + 1, new_rev_mat, rest_of_future, state)
            zulu_future = rest_of_future
        return state
    return outer(1, cons_list(all_rows[0]), all_rows[1], state)


def go_folder(mat, bsize_blen_blist):
    bsize = bsize_blen_blist[0]
    size = length(mat)
    if size < bsize:
        return bsize_blen_blist
    blen = bsize_blen_blist[1][0]
    blist = bsize_blen_blist[1][1]
    if size == bsize:
        blen += 1
        if blen < 3000:
            blist = (mat, blist)
        elif blen == 3000:
            blist = ('...', blist)
        return (bsize, (blen, blist))
    return cons_list(size, 1, mat)


def really_go(number_of_cols, inv_size):
    return go(number_of_cols, inv_size, go_folder, cons_list(-1, -1))[1][1]


def remove_in_order(remove, lst):
    return reverse(fold(lst, lambda e, lst: lst if remove(e) else (e, lst), None))


def fold_over_rows(number_of_cols, folder, state):
    if number_of_cols == 0:
        return folder(None, state)
    return fold_over_rows(number_of_cols - 1,
                          lambda tail, state: folder((-1, tail), state),
                          fold_over_rows(number_of_cols - 1,
                                         lambda tail, state: folder((1, tail), state),
                                         state))


def fold_over_subs_of_size(universe, size, folder, state):
    usize = length(universe)
    if usize < size:
        return state

    def loop(size, universe, folder, csize, state):
        if csize == 0:
            return folder(universe, state)
        if size == 0:
            return folder(None, state)
        first_u, rest_u = universe
        return loop(size, rest_u, folder, csize - 1,
                    loop(size - 1, rest_u,
                         lambda tail, state: folder((first_u, tail), state),
                         csize, state))
    return loop(size, universe, folder, usize - size, state)


def show(x):
    if isinstance(x, tuple) or x is None:
        parts = []
        while x is not None:
            parts.append(show(x[0]))
            x = x[1]
        return '(' + ' '.join(parts) + ')'
    return str(x)


def main():
    sys.setrecursionlimit(100000)
    cols, size, k = map(int, sys.argv[1:4])
    for _ in range(k):
        result = really_go(cols, size)
    while result is not None:
        print(show(result[0]))
        result = result[1]


main()
