"""The passes over a lowered function before it is compiled (lower.Lowering.root
runs them after guards.py's and kinds.py's, then hoist.py's): tests fused
with the temporaries they read and temporaries sharing names (one walk:
tidy_temporaries), and every handler giving back the memory reserve first."""
from . import pyast as ast

from .nodes import PARTS, attr, const, is_, is_temp, name, parts, walk_parts


_UnaryOp, _Not, _Compare, _Constant, _Name = ast.UnaryOp, ast.Not, ast.Compare, ast.Constant, ast.Name


def _first_in(test):
    """The Name evaluated first in test, if it is t, `not t` or `t <op> …`
    (or `constant <op> t`)."""
    if test.__class__ is _UnaryOp and test.op.__class__ is _Not:
        test = test.operand
    if test.__class__ is _Compare:
        test = test.comparators[0] if test.left.__class__ is _Constant else test.left
    return test if test.__class__ is _Name else None


def _put_first(test, e):
    if test.__class__ is _Name:
        return e
    inner = test.operand if test.__class__ is _UnaryOp else test
    if inner.__class__ is _Compare:
        if inner.left.__class__ is _Constant:
            inner.comparators[0] = e
        else:
            inner.left = e
    else:
        test.operand = e
    return test


_STEMS = 'tprqg'        # (nodes.is_temp's)
_FUSED = {ast.If: 'test', ast.Assign: 'value', ast.Return: 'value'}     # the expression a statement evaluates first


def tidy_temporaries(fdef) -> tuple:
    """Fuse tests with their temporaries (fuse_tests), then let each
    function's temporaries share names (coalesce), from one walk of fdef;
    gives back its exception handlers (for give_back_first) and whether it
    holds a loop (hoist.py has nothing to do in code that holds none)."""
    uses, handlers, orders = {}, [], []
    get = PARTS.get                 # (parts' readers, called here: one call less per node)
    Name, Constant, FunctionDef, Lambda, ExceptHandler, Attribute, While, Compare, Assign = ast.Name, ast.Constant, \
        ast.FunctionDef, ast.Lambda, ast.ExceptHandler, ast.Attribute, ast.While, ast.Compare, ast.Assign
    functions = [fdef]
    loops = False
    for fun in functions:           # (grows: each function met is walked after)
        order = []
        todo = parts(fun)
        todo.reverse()
        pop, push = todo.pop, todo.append
        while todo:                 # (every node in the code's order, parents first; no context, no operator)
            node = pop()
            cls = node.__class__
            if cls is Attribute:    # (most nodes stacked: `x.car`, `x.__class__`; one part)
                x = node.value
                c = x.__class__
                if c is Name:
                    n = x.id
                    if n[0] in _STEMS and n[1:].isdigit():      # (is_temp)
                        order.append(x)
                        uses[n] = uses.get(n, 0) + 1
                elif c is not Constant:
                    push(x)
                continue
            if cls is Compare:      # (one operator, most: its two parts looked at in place)
                right = node.comparators
                if len(right) == 1:
                    a, b = node.left, right[0]
                    ca, cb = a.__class__, b.__class__
                    if ca is Name or ca is Constant:
                        if ca is Name:
                            n = a.id
                            if n[0] in _STEMS and n[1:].isdigit():
                                order.append(a)
                                uses[n] = uses.get(n, 0) + 1
                        if cb is Name:
                            n = b.id
                            if n[0] in _STEMS and n[1:].isdigit():
                                order.append(b)
                                uses[n] = uses.get(n, 0) + 1
                        elif cb is not Constant:
                            push(b)
                    else:
                        if cb is not Constant:
                            push(b)         # (a name: met when popped, after a's parts)
                        push(a)
                    continue
            elif cls is Assign:     # (to one local, most: its target and value looked at in place)
                targets = node.targets
                if len(targets) == 1 and targets[0].__class__ is Name:
                    x = targets[0]
                    n = x.id
                    if n[0] in _STEMS and n[1:].isdigit():
                        order.append(x)
                        uses[n] = uses.get(n, 0) + 1
                    x = node.value
                    c = x.__class__
                    if c is Name:
                        n = x.id
                        if n[0] in _STEMS and n[1:].isdigit():
                            order.append(x)
                            uses[n] = uses.get(n, 0) + 1
                    elif c is not Constant:
                        push(x)
                    continue
            if cls is Name:         # (stacked only behind another part, or a function's own)
                n = node.id
                if n[0] in _STEMS and n[1:].isdigit():
                    order.append(node)
                    uses[n] = uses.get(n, 0) + 1
                continue
            if cls is Constant:
                continue
            if cls is FunctionDef:
                functions.append(node)
                continue
            if cls is Lambda:       # (its temporaries are counted, not shared)
                for n in walk_parts(node):
                    if n.__class__ is Name and is_temp(n.id):
                        uses[n.id] = uses.get(n.id, 0) + 1
                continue
            if cls is ExceptHandler:
                handlers.append(node)
            elif cls is While:
                loops = True
            f = get(cls)
            if f is None:
                more = parts(node)
            else:
                try:
                    more = f(node)
                except AttributeError:      # (a field left out when the node was made)
                    more = parts(node)
            i = 0
            for x in more:          # (the names and constants before its first other part: met here, never stacked)
                c = x.__class__
                if c is Name:
                    n = x.id
                    if n[0] in _STEMS and n[1:].isdigit():
                        order.append(x)
                        uses[n] = uses.get(n, 0) + 1
                elif c is not Constant:
                    if i:
                        more = more[i:]
                    more.reverse()
                    todo += more
                    break
                i += 1
        orders.append(order)
    fused = fuse_tests(fdef, uses)
    for order in orders:
        coalesce([n for n in order if n.id not in fused] if fused else order)
    return handlers, loops


def fuse_tests(fdef, uses: dict) -> set:
    """`t = E` then `if t:` (or `not t`, `t <op> …`; or `x = t`, `return t`
    and the like), where that is the temporary's one use (`uses`: temporary
    -> its occurrences in fdef), becomes `if E:` (in every function of
    fdef). Gives back the temporaries fused away."""
    fused = set()
    todo = [fdef]
    fusing = _FUSED.get
    Assign, Name, Constant, If = ast.Assign, ast.Name, ast.Constant, ast.If
    while todo:
        node = todo.pop()
        d = node.__dict__
        for field in ('body', 'orelse', 'finalbody'):
            stmts = d.get(field)
            if not stmts or stmts.__class__ is not list:
                continue
            out = []
            for st in stmts:
                part = fusing(st.__class__)
                if part is None:
                    out.append(st)
                    if st.__class__ in _NESTING:
                        todo.append(st)
                    continue
                while out and out[-1].__class__ is Assign and getattr(st, part) is not None:
                    prev, t = out[-1], _first_in(getattr(st, part))
                    if t is None or uses.get(t.id) != 2 \
                            or len(prev.targets) != 1 or prev.targets[0].__class__ is not Name \
                            or prev.targets[0].id != t.id or prev.value.__class__ is Constant:
                        break               # (a constant put in `t is not False` would be a literal `is`)
                    if 'write_back' in prev.__dict__:       # (an exit's: its marks go with its call, into no test)
                        if st.__class__ is If or st.__class__ is Assign and not (
                                len(st.targets) == 1 and st.targets[0].__class__ is Name and is_temp(st.targets[0].id)):
                            break       # (hoist._stores passes over a write-back: it may assign a temporary alone)
                        if st.__class__ is Assign:
                            st.write_back, st.written = prev.write_back, prev.written
                    setattr(st, part, _put_first(getattr(st, part), prev.value))
                    fused.add(t.id)
                    out.pop()
                out.append(st)
                if st.__class__ is If:
                    todo.append(st)
            d[field] = out
        todo.extend(d.get('handlers', ()))
    return fused


# The statements holding blocks (fuse_tests looks into them: an `if` besides, fused or not).
_NESTING = frozenset((ast.While, ast.For, ast.Try, ast.With, ast.FunctionDef, ast.ExceptHandler))


def give_back_first(handlers, stamp) -> None:
    """Every handler (of lowered code: `except … as e`) first gives back the memory reserve when it
    caught running out of memory (errors.give_back_if_out_of_memory's test,
    written out): before anything that allocates, a call's frame or its
    arguments' tuple. A failure inside a handler leaves through a cleanup
    that needs a new int in a function this large, and CPython 3.11 retries
    that allocation forever while memory stays full. (One statement, put in
    every handler: compile() reads a node shared by several places as it
    reads a copy in each, and it costs no copy.)"""
    shared = None
    for node in handlers:
        if node.name == 'e':
            if shared is None:
                shared = stamp([_give_back()], node.lineno)[0]
            node.body.insert(0, shared)


def _give_back():
    """`if e.__class__ is MemoryError or e.__class__ is SystemError: RESERVE[1] = None`."""
    oom = ast.BoolOp(ast.Or(), [is_(attr(name('e'), '__class__'), name('MemoryError')),
                                is_(attr(name('e'), '__class__'), name('SystemError'))])
    return ast.If(oom, [ast.Assign([ast.Subscript(name('RESERVE'), const(1), ast.Store())], const(None))], [])


def coalesce(order: list) -> None:
    """Let the temporaries of one function (`order`: their Name nodes in the
    code's order, parents first) share names where their spans in that order
    do not overlap (a temporary lives from its first to its last
    occurrence: the code has no loop but a self tail call's, which assigns
    every temporary before using it): fewer locals, smaller frames. (A
    temporary fused away, gone from the code, is left out of the order: `x
    = t` fused with `t = E` keeps x after E, where it is assigned.)"""
    firsts, lasts = {}, {}          # (firsts: in the order of the temporaries' first occurrences)
    for i, node in enumerate(order, 1):
        t = node.id
        if t not in firsts:
            firsts[t] = i
        lasts[t] = i
    free, live, names = [], [], {}
    soonest = 0         # (the least end among live: none ends before a first at or below it)
    for temp, first in firsts.items():
        if live and soonest < first:
            kept = []
            for x in live:          # (in live's order: the names freed in it)
                if x[0] < first:
                    free.append(x[1])
                else:
                    kept.append(x)
            live = kept
            soonest = min([x[0] for x in live]) if live else 0
        n = free.pop() if free else 'x%d' % (len(live) + len(free))
        end = lasts[temp]
        if not live or end < soonest:
            soonest = end
        live.append((end, n))
        names[temp] = n
    for node in order:              # (a node may sit in several places: renamed once, its new name no temporary's)
        n = names.get(node.id)
        if n is not None:
            node.id = n
