"""Print Python data as rusty prints it (lists as (a b c), True/False as #t/#f):
shared by the CPython ports whose result is a list."""


def show(x):
    """The print form of x."""
    if isinstance(x, (list, tuple)):
        return '(' + ' '.join(show(e) for e in x) + ')'
    if x is True:
        return '#t'
    if x is False:
        return '#f'
    if isinstance(x, float) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return str(x)
