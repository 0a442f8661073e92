"""rusty: a Lisp you can live in."""
__version__ = "0.1.0"
