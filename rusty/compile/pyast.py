"""Python's syntax tree for the lowering: the node classes of `_ast` and the
few helpers of the `ast` module it uses, without importing `ast` (whose
module body, its unparser and enums, cost about a millisecond of a
process's first compile). `unparse` (tools only) imports it."""
import _ast
from _ast import AST

globals().update((name, value) for name, value in vars(_ast).items() if name[0] != '_')   # (the node classes)

_POSITIONS = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')


def copy_location(new_node, old_node):
    """ast.copy_location: old_node's position given to new_node."""
    for attr in _POSITIONS:
        if attr in old_node._attributes and attr in new_node._attributes:
            value = getattr(old_node, attr, None)
            if value is not None or (hasattr(old_node, attr) and attr.startswith('end_')):
                setattr(new_node, attr, value)
    return new_node


def iter_fields(node):
    """ast.iter_fields: (name, value) of each field node has."""
    for field in node._fields:
        try:
            yield field, getattr(node, field)
        except AttributeError:
            pass


def iter_child_nodes(node):
    """ast.iter_child_nodes: the nodes directly in node's fields."""
    for _, field in iter_fields(node):
        if isinstance(field, AST):
            yield field
        elif isinstance(field, list):
            for item in field:
                if isinstance(item, AST):
                    yield item


def walk(node):
    """ast.walk: node and every node under it (breadth first)."""
    todo = [node]
    i = 0
    while i < len(todo):
        node = todo[i]
        i += 1
        todo.extend(iter_child_nodes(node))
        yield node


def dump(node) -> str:
    """A text of node's structure, fields and values (not positions): equal
    for equal trees (what the lowering compares by; not ast.dump's spelling)."""
    if isinstance(node, AST):
        return '%s(%s)' % (node.__class__.__name__,
                           ', '.join(dump(getattr(node, f, None)) for f in node._fields))
    if node.__class__ is list:
        return '[%s]' % ', '.join(dump(x) for x in node)
    return repr(node)


def unparse(node) -> str:
    """ast.unparse (imports ast)."""
    import ast
    return ast.unparse(node)
