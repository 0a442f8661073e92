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
