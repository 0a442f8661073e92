"""Constructors of the Python `ast` nodes the compiler writes (lower.py,
counting.py): a name read or stored, an assignment, a call, identity tests,
attributes, constants; and the walks its passes make over what it wrote."""
from . import pyast as ast

L, S = ast.Load(), ast.Store()
_Name, _Assign, _Call, _Compare, _Attribute, _Constant = ast.Name, ast.Assign, ast.Call, ast.Compare, ast.Attribute, \
    ast.Constant


def name(n: str):
    return _Name(n, L)


def store(n: str):
    return _Name(n, S)


def assign(target: str, value):
    return _Assign([_Name(target, S)], value)


def call(fn, *args):
    return _Call(fn, list(args), [])


def is_(a, b):
    return _Compare(a, [_IS], [b])


def is_not(a, b):
    return _Compare(a, [_IS_NOT], [b])


_IS, _IS_NOT = ast.Is(), ast.IsNot()       # (an operator holds nothing: one shared, as L is)


def attr(x, a: str):
    return _Attribute(x, a, L)


def attr_store(x, a: str):
    return _Attribute(x, a, S)


def const(v):
    return _Constant(v)


def pure(e) -> bool:
    """An expression that may be repeated and moved: a constant or a name."""
    return e.__class__ is ast.Constant or e.__class__ is ast.Name


def _ident(text: str) -> str:
    return ''.join(c if c.isascii() and (c.isalnum() or c == '_') else '_' for c in text)


def statements(stmts) -> list:
    """Every statement in stmts and the blocks inside them (an `if`'s
    branches, a loop's, a `try`'s and its handlers'), in the code's order,
    not looking into expressions nor into a nested function's body (the def
    itself is one)."""
    out = []
    todo = stmts[::-1]
    blocks = _BLOCKS.get
    while todo:
        st = todo.pop()
        out.append(st)
        fields = blocks(st.__class__)
        if fields is None:
            fields = _blocks(st.__class__)
        if fields:
            d = st.__dict__
            for field in fields:
                inner = d.get(field)
                if inner and inner.__class__ is list:
                    if field == 'handlers':
                        for h in reversed(inner):
                            todo += h.body[::-1]
                    else:
                        todo += inner[::-1]
    return out


_BLOCKS: dict = {}      # statement class -> its fields statements looks into, in its order ('handlers' last)


def _blocks(cls) -> tuple:
    """The fields of statement class cls that hold blocks (a def's none)."""
    got = _BLOCKS[cls] = () if cls is ast.FunctionDef else \
        tuple(f for f in ('finalbody', 'orelse', 'body', 'handlers') if f in cls._fields)
    return got


def children(node) -> list:
    """node's child nodes, in `ast.iter_child_nodes`'s order."""
    f = _CHILDREN.get(node.__class__)
    if f is None:
        f = _children_of(node.__class__)
    try:
        return f(node)
    except AttributeError:          # (a field left out when the node was made)
        return _any_children(node)


def _any_children(node) -> list:
    """children, for any node: every field looked at."""
    out = []
    for field in node._fields:
        v = getattr(node, field, None)
        if v.__class__ is list:
            if v and v[0].__class__ is not str:     # a list field holds nodes (a dict's keys None too) or names
                out += [x for x in v if x is not None]
        elif isinstance(v, ast.AST):
            out.append(v)
    return out


_CHILDREN: dict = {}            # ast class -> its children function (made at its first node)
_SCALARS = frozenset(('identifier', 'string', 'constant', 'int'))


def _children_of(cls):
    """The children function of ast class cls: its node fields read
    directly, as its signature (the class's docstring) types them."""
    sig = (cls.__doc__ or '').split('\n')[0]
    head = cls.__name__ + '('
    if not cls._fields:             # (a context, an operator, `pass`…: no field at all)
        f = _CHILDREN[cls] = PARTS[cls] = _none
        BARE[cls] = 0
        return f
    if not sig.startswith(head) or not sig.endswith(')'):
        _CHILDREN[cls] = _any_children
        PARTS[cls] = lambda n: [x for x in _any_children(n) if x.__class__._fields or x.__class__._attributes]
        BARE[cls] = lambda n: len(_any_children(n)) - len(PARTS[cls](n))
        return _any_children
    parts, kinds, maybe_none = [], [], cls is ast.Dict         # (a dict's keys hold None for `**`)
    bare, bare_lists = 0, []
    for typed in filter(None, sig[len(head):-1].split(', ')):
        kind, field = typed.split(' ')
        if kind.rstrip('*?') in _SCALARS:
            continue
        kinds.append(kind.rstrip('*?'))
        if kind.endswith('*'):
            parts.append('*n.' + field)
        else:
            parts.append('n.' + field)
            maybe_none = maybe_none or kind.endswith('?')
        if kinds[-1] in _BARE:
            if kind.endswith('*'):
                bare_lists.append('len(n.%s)' % field)
            else:
                bare += 1
    _CHILDREN[cls] = f = _reader(parts, maybe_none)
    PARTS[cls] = _reader([p for p, kind in zip(parts, kinds) if kind not in _BARE], maybe_none)
    BARE[cls] = _counter(bare, bare_lists) if bare_lists else bare
    return f


def _counter(bare: int, lists: list):
    """A function giving how many contexts and operators a node holds (`lists`: `len(n.field)`)."""
    fields = [x[len('len(n.'):-1] for x in lists]
    return _made('return %d + %s' % (bare, ' + '.join('len(n.f%d_)' % i for i in range(len(fields)))), 'bare',
                 fields)


def _none(node) -> list:
    """The children of a node of no fields."""
    return []


def _reader(parts: list, maybe_none: bool):
    """A function giving the list of a node's `parts` (`n.field`, `*n.field`)."""
    fields = [p.split('.', 1)[1] for p in parts]
    items = '[%s]' % ', '.join('%sn.f%d_' % ('*' if p[0] == '*' else '', i) for i, p in enumerate(parts))
    body = '[x for x in %s if x is not None]' % items if maybe_none else items
    return _made('return ' + body, 'children', fields)     # (a function per class: no loop over fields)


_SHAPES: dict = {}      # (a reader's body, its fields numbered f0_, f1_, …; its name) -> its function's code


def _made(body: str, fname: str, fields: list):
    """The function `def fname(n): body`, body's fields f0_, f1_, … named
    `fields`. Readers whose bodies differ in their fields' names alone share
    one compiled code, its names replaced (compiling one per class was most
    of the one-time cost of a process's first compile)."""
    code = _SHAPES.get((body, fname))
    if code is None:
        scope: dict = {}
        exec('def %s(n):\n    %s\n' % (fname, body), scope)
        code = _SHAPES[(body, fname)] = scope[fname].__code__
    names = {'f%d_' % i: f for i, f in enumerate(fields)}
    return _Function(code.replace(co_names=tuple(names.get(x, x) for x in code.co_names)), _READING, fname)


_Function = _none.__class__
_READING = {'len': len}      # (the globals of the readers: a counter calls len)


# The types of the nodes that hold neither a position nor a node (the
# contexts and operators): `parts` leaves them out.
_BARE = frozenset(('expr_context', 'operator', 'boolop', 'cmpop', 'unaryop'))
PARTS: dict = {}               # ast class -> its parts function
BARE: dict = {}                # ast class -> how many of its children parts leaves out: a number, or a function of the node


def parts(node) -> list:
    """children, but for contexts and operators (which hold neither a position nor a node)."""
    f = PARTS.get(node.__class__)
    if f is None:
        _children_of(node.__class__)
        f = PARTS[node.__class__]
    try:
        return f(node)
    except AttributeError:          # (a field left out when the node was made)
        return [x for x in _any_children(node) if x.__class__._fields or x.__class__._attributes]


def walk_parts(top):
    """walk, but for contexts and operators."""
    return _walked(top, PARTS.get, parts)


def walk(top):
    """Every node under `top` (itself first) in `ast.walk`'s order and with its
    laziness (a node's children are gathered when the node is reached), about
    twice as fast: lowering walks its trees many times."""
    return _walked(top, _CHILDREN.get, children)


def _walked(top, get, fallback):
    """The nodes under top, each node's parts read by its class's reader (`get`), else `fallback`."""
    todo = [top]
    for node in todo:           # (grows as it goes: a list iterated while extended)
        f = get(node.__class__)
        if f is None:
            todo += fallback(node)
        else:
            try:
                todo += f(node)
            except AttributeError:      # (a field left out when the node was made)
                todo += fallback(node)
        yield node


def stamp(nodes, ln: int, also=None):
    """Give every node (and descendant) without a position line ln (and
    to node `also`, if given: a form's value beside its statements)."""
    todo = []
    push = todo.append
    get = PARTS.get
    Name, Constant = ast.Name, ast.Constant
    for x in nodes:
        c = x.__class__
        if c is Name or c is Constant:
            d = x.__dict__
            if 'lineno' not in d:
                d['lineno'] = ln
                d['col_offset'] = 0     # (the end positions: None, the classes' own)
        elif 'lineno' not in x.__dict__:
            push(x)
    if also is not None:
        d = also.__dict__
        if 'lineno' not in d:
            c = also.__class__
            if c is Name or c is Constant:
                d['lineno'] = ln
                d['col_offset'] = 0
            else:
                push(also)
    pop = todo.pop
    Attribute, Assign, Compare, Call, If, BoolOp, IfExp, Return = ast.Attribute, ast.Assign, ast.Compare, \
        ast.Call, ast.If, ast.BoolOp, ast.IfExp, ast.Return
    none = ()
    while todo:         # a node with a position has all its descendants stamped
        node = pop()
        d = node.__dict__
        if 'lineno' in d:
            continue
        d['lineno'] = ln            # (also on the few nodes of no position, `arguments`: compile() reads none there)
        d['col_offset'] = 0
        cls = node.__class__        # (the commonest classes' parts read in place: one part, and a list as it is)
        if cls is Assign:
            x, kids = node.value, node.targets
        elif cls is Attribute:
            x, kids = node.value, none
        elif cls is Compare:
            x, kids = node.left, node.comparators
        elif cls is Call and not node.keywords:
            x, kids = node.func, node.args
        elif cls is If:
            todo += node.orelse     # (statements: stacked, looked at when popped)
            x, kids = node.test, node.body
        elif cls is BoolOp:
            x, kids = None, node.values
        elif cls is IfExp:
            push(node.orelse)
            x, kids = node.test, (node.body,)
        elif cls is Return:
            x, kids = node.value, none
        else:
            x = None
            f = get(cls)
            try:
                kids = parts(node) if f is None else f(node)
            except AttributeError:      # (a field left out when the node was made)
                kids = parts(node)
        if x is not None:
            d = x.__dict__
            if 'lineno' not in d:
                c = x.__class__
                if c is Name or c is Constant:
                    d['lineno'] = ln
                    d['col_offset'] = 0
                else:
                    push(x)
        for x in kids:      # (the names and constants, most nodes, stamped here: never on the stack)
            c = x.__class__
            if c is Name or c is Constant:
                d = x.__dict__
                if 'lineno' not in d:
                    d['lineno'] = ln
                    d['col_offset'] = 0
            elif 'lineno' not in x.__dict__:
                push(x)
    return nodes


def is_temp(n: str) -> bool:
    """True for the name of a temporary of lowered code (Lowering.fresh's
    stems and a number), which passes may rename and share."""
    return n[:1] in 'tprqg' and n[1:].isdigit()


class Unsupported(Exception):
    """A form this compiler leaves to the reference evaluator (`cell`: the
    global whose macro it calls, when that is the reason)."""
    cell = None
