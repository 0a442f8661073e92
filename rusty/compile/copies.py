"""Copies of generated code (kinds.py's integer copy, lower.py's copy
entered first, the passes' repeated tests): a deep copy of ast nodes that
keeps shared nodes shared and every attribute, and the copy of a body
whose temporaries are renamed."""
from . import pyast as ast


def twin(stmts: list, temp, fresh, uncounted=False) -> list:
    """A copy of stmts whose temporaries (names for which temp(name) is
    true) are renamed by fresh(), so each copy's may share names with the
    other's; `uncounted`: its calls of the function itself (`self_call`)
    marked `uncounted` (lower.Lowering.uncounted). Its other names, unmarked,
    and its constants are the very nodes of stmts, shared: no pass changes
    one in place but a temporary's name (finish.coalesce renames them), and
    compile() reads a node in several places as it reads a copy in each."""
    renamed = {}

    def rename(old):
        new = renamed.get(old)
        if new is None:
            new = renamed[old] = fresh()
        return new
    return _clone(stmts, {}, (temp, rename, uncounted))


_PLAIN = frozenset((str, int, float, bool, type(None)))     # attribute values copied as they are
_Name = ast.Name
_NAME_KEYS = frozenset(ast.Name._fields) | frozenset(ast.Name._attributes)     # (an unmarked name's)
_Constant = ast.Constant
_CONSTANT_KEYS = frozenset(ast.Constant._fields) | frozenset(ast.Constant._attributes)
_SCALARS = frozenset(('identifier', 'string', 'constant', 'int'))
_BARE = frozenset(('expr_context', 'operator', 'boolop', 'cmpop', 'unaryop'))
_SHAPES: dict = {}          # ast class -> (its fields and positions, the fields that may hold nodes), or None: shared
_LIST = (frozenset(), ())   # (a list's shape: its items are looked at one by one)


def _shape(cls):
    """The shape of ast class cls (see _SHAPES): from its signature, the
    class's docstring, as nodes._children_of reads it."""
    if cls is list:
        return _LIST
    if not issubclass(cls, ast.AST):
        return None
    if not (cls._fields or cls._attributes):
        return None                 # (a context, an operator: shared)
    sig = (cls.__doc__ or '').split('\n')[0]
    head = cls.__name__ + '('
    if sig.startswith(head) and sig.endswith(')'):
        typed = [t.split(' ') for t in sig[len(head):-1].split(', ') if t]
        held = tuple(f for kind, f in typed if kind.rstrip('*?') not in _SCALARS
                     and (kind.endswith('*') or kind.rstrip('?') not in _BARE))
    else:
        held = tuple(cls._fields)
    return frozenset(cls._fields) | frozenset(cls._attributes), held


def _clone(node, memo: dict, rename=None):
    """A deep copy of an ast node (or list of them) that keeps shared nodes
    shared and every attribute (positions, lower.py's marks); `copy` itself
    would import weakref at start-up's cost. A node of no fields and no
    position (a context, an operator) is shared. `rename`: (temp, new,
    uncounted), the temporaries' names renamed as they are copied, the
    other names and the constants (unmarked) shared (twin)."""
    cls = node.__class__
    if cls is _Name:            # (most nodes: a name, unmarked, copied here; in a twin, shared unless renamed)
        got = memo.get(id(node))
        if got is not None:
            return got
        d = node.__dict__
        if d.keys() <= _NAME_KEYS:
            if rename is not None and not rename[0](d['id']):
                return node
            d = d.copy()
            if rename is not None:
                d['id'] = rename[1](d['id'])
            got = memo[id(node)] = _Name.__new__(_Name)
            got.__dict__ = d
            return got
        d = d.copy()
    if cls is _Constant and rename is not None and node.__dict__.keys() <= _CONSTANT_KEYS:
        return node                 # (in a twin, shared as its names are)
    if cls is list:
        out = []            # (a loop, no comprehension's frame: most lists hold a node or two)
        add = out.append
        for x in node:
            add(x if x.__class__ in _PLAIN else _clone(x, memo, rename))
        return out
    shape = _SHAPES.get(cls, _LIST)
    if shape is _LIST:
        if cls in _PLAIN:
            return node
        shape = _SHAPES[cls] = _shape(cls)
    if shape is None:
        return node
    got = memo.get(id(node))
    if got is not None:
        return got
    d = node.__dict__.copy()
    if d.keys() <= shape[0]:        # (no mark: only the fields that may hold nodes looked at)
        for k in shape[1]:
            v = d.get(k)
            if v is None:
                continue
            c = v.__class__
            if c is list:           # (the list branch, inline: a call less per list)
                out = []
                add = out.append
                for x in v:
                    add(x if x.__class__ in _PLAIN else _clone(x, memo, rename))
                d[k] = out
            elif c is _Name:        # (the name branch, inline: a call less per name)
                got = memo.get(id(v))
                if got is None:
                    n = v.__dict__
                    if n.keys() <= _NAME_KEYS:
                        if rename is not None and not rename[0](n['id']):
                            continue        # (shared: see below)
                        n = n.copy()
                        if rename is not None:
                            n['id'] = rename[1](n['id'])
                        got = memo[id(v)] = _Name.__new__(_Name)
                        got.__dict__ = n
                    else:
                        got = _clone(v, memo, rename)
                d[k] = got
            elif c not in _PLAIN:
                d[k] = _clone(v, memo, rename)
    else:
        for k, v in d.items():          # (only values change: the dict keeps its size)
            if v.__class__ not in _PLAIN:
                d[k] = _clone(v, memo, rename)
        if rename is not None and rename[2] and d.get('self_call', False):
            d['uncounted'] = True
    if rename is not None and cls is _Name and rename[0](d['id']):
        d['id'] = rename[1](d['id'])
    got = memo[id(node)] = cls.__new__(cls)
    got.__dict__ = d
    return got


def clone(node):
    """A deep copy of one ast node (see _clone)."""
    return _clone(node, {})

