"""earley (Marc Feeley's Earley parser; r7rs-benchmarks src/earley.scm), the same
algorithm in CPython: vectors are Python lists, Scheme lists are (head, rest)
tuples with None the empty list, #f is False; the same tables, configuration
sets and tree enumeration, function for function."""
import sys


def cons_list(*xs):
    lst = None
    for x in reversed(xs):
        lst = (x, lst)
    return lst


def to_py(lst):
    out = []
    while lst is not None:
        out.append(lst[0])
        lst = lst[1]
    return out


def reverse(lst):
    out = None
    while lst is not None:
        out, lst = (lst[0], out), lst[1]
    return out


def append(a, b):
    out = b
    for x in reversed(to_py(a)):
        out = (x, out)
    return out


def length(lst):
    n = 0
    while lst is not None:
        n, lst = n + 1, lst[1]
    return n


def member(x, lst):
    while lst is not None:
        if lst[0] == x:
            return lst
        lst = lst[1]
    return False


def make_parser(grammar, lexer):
    def non_terminals(grammar):
        def add_nt(nt, nts):
            return nts if member(nt, nts) else (nt, nts)
        nts = None
        defs = grammar
        while defs is not None:
            d = defs[0]
            head = d[0]
            nts = add_nt(head, nts)
            rules = d[1]
            while rules is not None:
                rule = rules[0]
                while rule is not None:
                    nts = add_nt(rule[0], nts)
                    rule = rule[1]
                rules = rules[1]
            defs = defs[1]
        return to_py(reverse(nts))

    def ind(nt, nts):
        i = len(nts) - 1
        while i >= 0:
            if nts[i] == nt:
                return i
            i -= 1
        return False

    def nb_configurations(grammar):
        nb_confs = 0
        defs = grammar
        while defs is not None:
            rules = defs[0][1]
            while rules is not None:
                rule = rules[0]
                while rule is not None:
                    nb_confs += 1
                    rule = rule[1]
                nb_confs += 1
                rules = rules[1]
            defs = defs[1]
        return nb_confs

    nts = non_terminals(grammar)
    nb_nts = len(nts)
    nb_confs = nb_configurations(grammar) + nb_nts
    starters = [None] * nb_nts
    enders = [None] * nb_nts
    predictors = [None] * nb_nts
    steps = [False] * nb_confs
    names = [False] * nb_confs

    def setup_tables(grammar, nts, starters, enders, predictors, steps, names):
        def add_conf(conf, nt, nts, klass):
            i = ind(nt, nts)
            klass[i] = (conf, klass[i])

        nb_nts = len(nts)
        for i in range(nb_nts - 1, -1, -1):
            steps[i] = i - nb_nts
            names[i] = cons_list(nts[i], 0)
            enders[i] = cons_list(i)
        defs = grammar
        conf = len(nts)
        while defs is not None:
            d = defs[0]
            head = d[0]
            rules = d[1]
            rule_num = 1
            while rules is not None:
                rule = rules[0]
                names[conf] = cons_list(head, rule_num)
                add_conf(conf, head, nts, starters)
                l = rule
                while l is not None:
                    nt = l[0]
                    steps[conf] = ind(nt, nts)
                    add_conf(conf, nt, nts, predictors)
                    l = l[1]
                    conf += 1
                steps[conf] = ind(head, nts) - nb_nts
                add_conf(conf, head, nts, enders)
                rules = rules[1]
                conf += 1
                rule_num += 1
            defs = defs[1]

    setup_tables(grammar, nts, starters, enders, predictors, steps, names)
    parser_descr = [lexer, nts, starters, enders, predictors, steps, names]

    def parse(input):
        def ind(nt, nts):
            i = len(nts) - 1
            while i >= 0:
                if nts[i] == nt:
                    return i
                i -= 1
            return False

        def comp_tok(tok, nts):
            l1, l2 = tok[1], None
            while l1 is not None:
                i = ind(l1[0], nts)
                if i is not False:
                    l2 = (i, l2)
                l1 = l1[1]
            return (tok[0], reverse(l2))

        def input_to_tokens(input, lexer, nts):
            return [comp_tok(tok, nts) for tok in to_py(lexer(input))]

        def make_states(nb_toks, nb_confs):
            states = [False] * (nb_toks + 1)
            for i in range(nb_toks, -1, -1):
                v = [False] * (nb_confs + 1)
                v[0] = -1
                states[i] = v
            return states

        def conf_set_get(state, conf):
            return state[conf + 1]

        def conf_set_get_star(state, state_num, conf):
            conf_set = conf_set_get(state, conf)
            if conf_set is not False:
                return conf_set
            conf_set = [False] * (state_num + 6)
            conf_set[1] = -3
            conf_set[2] = -1
            conf_set[3] = -1
            conf_set[4] = -1
            state[conf + 1] = conf_set
            return conf_set

        def conf_set_merge_new(conf_set):
            conf_set[conf_set[1] + 5] = conf_set[4]
            conf_set[1] = conf_set[3]
            conf_set[3] = -1
            conf_set[4] = -1

        def conf_set_head(conf_set):
            return conf_set[2]

        def conf_set_next(conf_set, i):
            return conf_set[i + 5]

        def conf_set_member(state, conf, i):
            conf_set = state[conf + 1]
            if conf_set is not False:
                return conf_set_next(conf_set, i)
            return False

        def conf_set_adjoin(state, conf_set, conf, i):
            tail = conf_set[3]
            conf_set[i + 5] = -1
            conf_set[tail + 5] = i
            conf_set[3] = i
            if tail < 0:
                conf_set[0] = state[0]
                state[0] = conf

        def conf_set_adjoin_star(states, state_num, l, i):
            state = states[state_num]
            while l is not None:
                conf = l[0]
                conf_set = conf_set_get_star(state, state_num, conf)
                if conf_set_next(conf_set, i) is False:
                    conf_set_adjoin(state, conf_set, conf, i)
                l = l[1]

        def conf_set_adjoin_star2(states, states_star, state_num, conf, i):
            state = states[state_num]
            if conf_set_member(state, conf, i) is not False:
                state_star = states_star[state_num]
                conf_set_star = conf_set_get_star(state_star, state_num, conf)
                if conf_set_next(conf_set_star, i) is False:
                    conf_set_adjoin(state_star, conf_set_star, conf, i)
                return True
            return False

        def conf_set_union(state, conf_set, conf, other_set):
            i = conf_set_head(other_set)
            while i >= 0:
                if conf_set_next(conf_set, i) is False:
                    conf_set_adjoin(state, conf_set, conf, i)
                i = conf_set_next(other_set, i)

        def forw(states, state_num, starters, enders, predictors, steps, nts):
            def predict(state, state_num, conf_set, conf, nt, starters, enders):
                l = starters[nt]
                while l is not None:
                    starter = l[0]
                    starter_set = conf_set_get_star(state, state_num, starter)
                    if conf_set_next(starter_set, state_num) is False:
                        conf_set_adjoin(state, starter_set, starter, state_num)
                    l = l[1]
                l = enders[nt]
                while l is not None:
                    ender = l[0]
                    if conf_set_member(state, ender, state_num) is not False:
                        nxt = conf + 1
                        next_set = conf_set_get_star(state, state_num, nxt)
                        conf_set_union(state, next_set, nxt, conf_set)
                    l = l[1]

            def reduce(states, state, state_num, conf_set, head, preds):
                l = preds
                while l is not None:
                    pred = l[0]
                    i = head
                    while i >= 0:
                        pred_set = conf_set_get(states[i], pred)
                        if pred_set is not False:
                            nxt = pred + 1
                            next_set = conf_set_get_star(state, state_num, nxt)
                            conf_set_union(state, next_set, nxt, pred_set)
                        i = conf_set_next(conf_set, i)
                    l = l[1]

            state = states[state_num]
            nb_nts = len(nts)
            while True:
                conf = state[0]
                if conf < 0:
                    return
                step = steps[conf]
                conf_set = state[conf + 1]
                head = conf_set[4]
                state[0] = conf_set[0]
                conf_set_merge_new(conf_set)
                if step >= 0:
                    predict(state, state_num, conf_set, conf, step, starters, enders)
                else:
                    preds = predictors[step + nb_nts]
                    reduce(states, state, state_num, conf_set, head, preds)

        def forward(starters, enders, predictors, steps, nts, toks):
            nb_toks = len(toks)
            nb_confs = len(steps)
            states = make_states(nb_toks, nb_confs)
            goal_starters = starters[0]
            conf_set_adjoin_star(states, 0, goal_starters, 0)
            forw(states, 0, starters, enders, predictors, steps, nts)
            for i in range(nb_toks):
                tok_nts = toks[i][1]
                conf_set_adjoin_star(states, i + 1, tok_nts, i)
                forw(states, i + 1, starters, enders, predictors, steps, nts)
            return states

        def produce(conf, i, j, enders, steps, toks, states, states_star, nb_nts):
            prev = conf - 1
            if conf >= nb_nts and steps[prev] >= 0:
                l = enders[steps[prev]]
                while l is not None:
                    ender = l[0]
                    ender_set = conf_set_get(states[j], ender)
                    if ender_set is not False:
                        k = conf_set_head(ender_set)
                        while k >= 0:
                            (k >= i
                             and conf_set_adjoin_star2(states, states_star, k, prev, i)
                             and conf_set_adjoin_star2(states, states_star, j, ender, k))
                            k = conf_set_next(ender_set, k)
                    l = l[1]

        def back(states, states_star, state_num, enders, steps, nb_nts, toks):
            state_star = states_star[state_num]
            while True:
                conf = state_star[0]
                if conf < 0:
                    return
                conf_set = state_star[conf + 1]
                head = conf_set[4]
                state_star[0] = conf_set[0]
                conf_set_merge_new(conf_set)
                i = head
                while i >= 0:
                    produce(conf, i, state_num, enders, steps, toks, states, states_star, nb_nts)
                    i = conf_set_next(conf_set, i)

        def backward(states, enders, steps, nts, toks):
            nb_toks = len(toks)
            nb_confs = len(steps)
            nb_nts = len(nts)
            states_star = make_states(nb_toks, nb_confs)
            l = enders[0]
            while l is not None:
                conf_set_adjoin_star2(states, states_star, nb_toks, l[0], 0)
                l = l[1]
            for i in range(nb_toks, -1, -1):
                back(states, states_star, i, enders, steps, nb_nts, toks)
            return states_star

        def parsed(nt, i, j, nts, enders, states):
            nt_star = ind(nt, nts)
            if nt_star is False:
                return False
            l = enders[nt_star]
            while l is not None:
                if conf_set_member(states[j], l[0], i) is not False:
                    return True
                l = l[1]
            return False

        def deriv_trees(conf, i, j, enders, steps, names, toks, states, nb_nts):
            name = names[conf]
            if name is not False:
                if conf < nb_nts:
                    return cons_list(cons_list(name, toks[i][0]))
                return cons_list(cons_list(name))
            prev = conf - 1
            l1, l2 = enders[steps[prev]], None
            while l1 is not None:
                ender = l1[0]
                ender_set = conf_set_get(states[j], ender)
                if ender_set is not False:
                    k = conf_set_head(ender_set)
                    while k >= 0:
                        if k >= i and conf_set_member(states[k], prev, i) is not False:
                            prev_trees = deriv_trees(prev, i, k, enders, steps, names,
                                                     toks, states, nb_nts)
                            ender_trees = deriv_trees(ender, k, j, enders, steps, names,
                                                      toks, states, nb_nts)
                            l3 = ender_trees
                            while l3 is not None:
                                ender_tree = (l3[0], None)
                                l4 = prev_trees
                                while l4 is not None:
                                    l2 = (append(l4[0], ender_tree), l2)
                                    l4 = l4[1]
                                l3 = l3[1]
                        k = conf_set_next(ender_set, k)
                l1 = l1[1]
            return l2

        def deriv_trees_star(nt, i, j, nts, enders, steps, names, toks, states):
            nt_star = ind(nt, nts)
            if nt_star is False:
                return False
            nb_nts = len(nts)
            l, trees = enders[nt_star], None
            while l is not None:
                conf = l[0]
                if conf_set_member(states[j], conf, i) is not False:
                    trees = append(deriv_trees(conf, i, j, enders, steps, names,
                                               toks, states, nb_nts), trees)
                l = l[1]
            return trees

        def nb_deriv_trees(conf, i, j, enders, steps, toks, states, nb_nts):
            prev = conf - 1
            if conf < nb_nts or steps[prev] < 0:
                return 1
            l, n = enders[steps[prev]], 0
            while l is not None:
                ender = l[0]
                ender_set = conf_set_get(states[j], ender)
                if ender_set is not False:
                    k = conf_set_head(ender_set)
                    while k >= 0:
                        if k >= i and conf_set_member(states[k], prev, i) is not False:
                            nb_prev = nb_deriv_trees(prev, i, k, enders, steps, toks,
                                                     states, nb_nts)
                            nb_ender = nb_deriv_trees(ender, k, j, enders, steps, toks,
                                                      states, nb_nts)
                            n += nb_prev * nb_ender
                        k = conf_set_next(ender_set, k)
                l = l[1]
            return n

        def nb_deriv_trees_star(nt, i, j, nts, enders, steps, toks, states):
            nt_star = ind(nt, nts)
            if nt_star is False:
                return False
            nb_nts = len(nts)
            l, nb_trees = enders[nt_star], 0
            while l is not None:
                conf = l[0]
                if conf_set_member(states[j], conf, i) is not False:
                    nb_trees += nb_deriv_trees(conf, i, j, enders, steps, toks, states, nb_nts)
                l = l[1]
            return nb_trees

        lexer, nts, starters, enders, predictors, steps, names = parser_descr
        toks = input_to_tokens(input, lexer, nts)
        return [nts, starters, enders, predictors, steps, names, toks,
                backward(forward(starters, enders, predictors, steps, nts, toks),
                         enders, steps, nts, toks),
                parsed, deriv_trees_star, nb_deriv_trees_star]

    return parse


def parse_trees(parse, nt, i, j):
    nts, enders, steps, names, toks, states = (parse[0], parse[2], parse[4], parse[5],
                                               parse[6], parse[7])
    return parse[9](nt, i, j, nts, enders, steps, names, toks, states)


def cons_map(f, lst):
    return None if lst is None else (f(lst[0]), cons_map(f, lst[1]))


def test(input):
    grammar = cons_list(cons_list('s', cons_list('a'), cons_list('s', 's')))
    p = make_parser(grammar, lambda l: cons_map(lambda x: cons_list(x, x), l))
    x = p(input)
    n = length(input)
    return length(parse_trees(x, 's', 0, n))


def main():
    sys.setrecursionlimit(100000)
    n, k = map(int, sys.argv[1:3])
    for _ in range(k):
        result = test(cons_list(*(['a'] * n)))
    print(result)


main()
