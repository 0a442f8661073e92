"""Constructors of the Python `ast` nodes the compiler writes (lower.py,
counting.py): a name read or stored, an assignment, a call, identity tests,
attributes, constants."""
import ast

L, S = ast.Load(), ast.Store()


def name(n: str):
    return ast.Name(n, L)


def store(n: str):
    return ast.Name(n, S)


def assign(target: str, value):
    return ast.Assign([store(target)], value)


def call(fn, *args):
    return ast.Call(fn, list(args), [])


def is_(a, b):
    return ast.Compare(a, [ast.Is()], [b])


def is_not(a, b):
    return ast.Compare(a, [ast.IsNot()], [b])


def attr(x, a: str):
    return ast.Attribute(x, a, L)


def attr_store(x, a: str):
    return ast.Attribute(x, a, S)


def const(v):
    return ast.Constant(v)


def statements(stmts):
    """Every statement in stmts and the blocks inside them (an `if`'s
    branches, a loop's, a `try`'s and its handlers'), not looking into
    expressions nor into a nested function's body (the def itself is one)."""
    todo = list(reversed(stmts))
    while todo:
        st = todo.pop()
        yield st
        if st.__class__ is ast.FunctionDef:
            continue
        for field in ('finalbody', 'orelse', 'body'):
            inner = getattr(st, field, None)
            if inner and inner.__class__ is list:
                todo.extend(reversed(inner))
        for h in reversed(getattr(st, 'handlers', ())):
            todo.extend(reversed(h.body))
