"""graphs (Andrew Wright; r7rs-benchmarks src/graphs.scm), the same algorithm in
CPython: vectors are Python lists, Scheme lists (head, rest) tuples with None the
empty list; the same folds, closures and continuation-passing `accross`
functions, function for function."""
import sys


def cons(a, d):
    return (a, d)


def length(lst):
    n = 0
    while lst is not None:
        n, lst = n + 1, lst[1]
    return n


def fold(lst, folder, state):
    while lst is not None:
        lst, state = lst[1], folder(lst[0], state)
    return state


def proc_to_vector(size, f):
    if size == 0:
        return []
    x = [f(0)] * size
    for i in range(1, size):
        x[i] = f(i)
    return x


def giota(limit):
    res = None
    while limit != 0:
        limit -= 1
        res = (limit, res)
    return res


def gnatural_for_each(limit, proc):
    i = 0
    while i != limit:
        proc(i)
        i += 1


def natural_for_all(limit, ok):
    i = 0
    while True:
        if i == limit:
            return True
        if not ok(i):
            return False
        i += 1


def there_exists(lst, ok):
    while lst is not None:
        if ok(lst[0]):
            return True
        lst = lst[1]
    return False


def fold_over_perm_tree(universe, b_folder, b_state, t_folder, t_state):
    def outer(universe, b_state, t_state, accross):
        if universe is None:
            return t_folder(b_state, t_state, accross)

        def inner(inp, out, t_state):
            first, rest = inp

            if rest is None:
                acc = accross
            else:
                def acc(new_t_state):
                    return inner(rest, (first, out), new_t_state)

            def deeper(new_b_state, new_t_state):
                return outer(fold(out, cons, rest), new_b_state, new_t_state, acc)
            return b_folder(first, b_state, t_state, deeper, acc)
        return inner(universe, None, t_state)
    return outer(universe, b_state, t_state, lambda final_t_state: final_t_state)


def make_minimal(max_size):
    iotas = proc_to_vector(max_size + 1, giota)
    perm = [0] * max_size

    def minimal(size, graph, folder, state):
        def b_folder(perm_x, x, state, deeper, accross):
            c = cmp_next_vertex(graph, perm, x, perm_x)
            if c == 'less':
                return False
            if c == 'equal':
                perm[x] = perm_x
                return deeper(x + 1, state)
            if c == 'more':
                return accross(state)
            raise RuntimeError('???')

        def t_folder(leaf_depth, state, accross):
            return folder(perm, state, accross)
        return fold_over_perm_tree(iotas[size], b_folder, 0, t_folder, state)
    return minimal


def cmp_next_vertex(graph, perm, x, perm_x):
    from_x = graph[x]
    from_perm_x = graph[perm_x]
    y = 0
    while True:
        if x == y:
            return 'equal'
        x_to_y = from_x[y]
        perm_y = perm[y]
        if x_to_y == from_perm_x[perm_y]:
            y_to_x = graph[y][x]
            if y_to_x == graph[perm_y][perm_x]:
                y += 1
                continue
            return 'less' if y_to_x else 'more'
        return 'less' if x_to_y else 'more'


def fold_over_rdg(size, max_out, folder, state):
    root = size - 1
    edge = proc_to_vector(size, lambda frm: [False] * size)
    edges = [None] * size
    out_degrees = [0] * size
    minimal_folder = make_minimal(root)

    def non_root_cont(perm, state, accross):
        return accross(True)

    def non_root_minimal(size):
        return minimal_folder(size, edge, non_root_cont, True)

    def root_cont(perm, state, accross):
        c = cmp_next_vertex(edge, perm, root, root)
        if c == 'less':
            return False
        if c in ('equal', 'more'):
            return accross(True)
        raise RuntimeError('???')

    def root_minimal():
        return minimal_folder(root, edge, root_cont, True)

    def outer(vertex, state):
        if not non_root_minimal(vertex):
            return state
        if vertex == root:
            reach = make_reach(root, edges)
            from_root = edge[root]

            def at_root(v, outs, efr, efrr, state):
                if not (v == root or outs == max_out):
                    from_root[v] = True
                    state = at_root(v + 1, outs + 1, (v, efr), (reach[v], efrr), state)
                    from_root[v] = False
                    return at_root(v + 1, outs, efr, efrr, state)
                if (natural_for_all(root, lambda v: there_exists(efrr, lambda r: r[v]))
                        and root_minimal()):
                    edges[root] = efr
                    return folder(proc_to_vector(size, lambda i: edges[i]), state)
                return state
            return at_root(0, 0, None, None, state)
        from_vertex = edge[vertex]

        def inner(sv, outs, state):
            if sv == vertex:
                out_degrees[vertex] = outs
                return outer(vertex + 1, state)
            # no sv->vertex, no vertex->sv
            state = inner(sv + 1, outs, state)
            from_sv = edge[sv]
            sv_out = out_degrees[sv]
            if sv_out != max_out:
                edges[sv] = (vertex, edges[sv])
                from_sv[vertex] = True
                out_degrees[sv] = sv_out + 1
                # sv->vertex, no vertex->sv
                state = inner(sv + 1, outs, state)
                if outs != max_out:
                    from_vertex[sv] = True
                    edges[vertex] = (sv, edges[vertex])
                    # sv->vertex, vertex->sv
                    state = inner(sv + 1, outs + 1, state)
                    edges[vertex] = edges[vertex][1]
                    from_vertex[sv] = False
                out_degrees[sv] = sv_out
                from_sv[vertex] = False
                edges[sv] = edges[sv][1]
            if outs == max_out:
                return state
            edges[vertex] = (sv, edges[vertex])
            from_vertex[sv] = True
            # no sv->vertex, vertex->sv
            state = inner(sv + 1, outs + 1, state)
            from_vertex[sv] = False
            edges[vertex] = edges[vertex][1]
            return state
        return inner(0, 0, state)
    return outer(0, state)


def make_reach(size, vertex_to_out):
    def row(v):
        from_v = [False] * size
        from_v[v] = True
        lst = vertex_to_out[v]
        while lst is not None:
            from_v[lst[0]] = True
            lst = lst[1]
        return from_v
    res = proc_to_vector(size, row)

    def per_m(m):
        from_m = res[m]

        def per_f(f):
            from_f = res[f]
            if from_f[m]:
                def per_t(t):
                    if from_m[t]:
                        from_f[t] = True
                gnatural_for_each(size, per_t)
        gnatural_for_each(size, per_f)
    gnatural_for_each(size, per_m)
    return res


def run(n):
    return fold_over_rdg(n, 2, cons, None)


def main():
    sys.setrecursionlimit(100000)
    n, k = map(int, sys.argv[1:3])
    for _ in range(k):
        result = length(run(n))
    print(result)


main()
