"""rusty: a Lisp you can live in.

Embedding: `rusty.Session()` evaluates rusty code from Python, and
`rusty.RustyError` is what its errors raise (see rusty/embed.py and the
manual's chapter "Python from Lisp, Lisp from Python"). Both are loaded on
first use, so `import rusty` stays cheap.
"""
__version__ = "0.1.0"
__all__ = ['Session', 'RustyError']


def __getattr__(name: str):
    if name == 'Session':
        from .embed import Session
        return Session
    if name == 'RustyError':
        from .errors import RustyError
        return RustyError
    raise AttributeError("module 'rusty' has no attribute %r" % name)
