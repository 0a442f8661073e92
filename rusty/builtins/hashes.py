"""Hash tables: mutable, insertion-ordered tables whose
keys compare with `equal?` (values.hash_key gives each key its hashable image;
NaN, procedures, tensors and hashes are unhashable)."""
from ..errors import EvalError
from ..printer import display_form
from ..values import NIL, BuiltinTable, Hash, List, NilType, Symbol, Unhashable, hash_key, make_list
from .args import expected, proc_arg

TABLE = BuiltinTable()


# ── Keys and arguments ───────────────────────────────────────────────────

def key_of(k):
    """The table image of key k, or the error `hash: unhashable key X`."""
    cls = k.__class__
    if cls is str or cls is Symbol or cls is int:     # the common keys are their own images
        return k
    try:
        return hash_key(k)
    except Unhashable:
        raise EvalError('hash: unhashable key %s' % display_form(k)) from None
    except RecursionError:
        raise EvalError('hash: unhashable key (nested too deeply)') from None


def hash_arg(name: str, h) -> Hash:
    if h.__class__ is not Hash:
        raise expected(name, 'hash', h)
    return h


def put(h: Hash, k, v) -> None:
    """Set k to v; an existing key keeps its position (and its first spelling)."""
    hk = key_of(k)
    old = h.table.get(hk)
    h.table[hk] = (k if old is None else old[0], v)


# ── Making tables ────────────────────────────────────────────────────────

@TABLE.fn('make-hash', 0, 0, doc='A new empty hash table.', sig='(make-hash)',
          examples=(('(make-hash)', '#hash()'),))
def make_hash():
    return Hash()


@TABLE.fn('hash', 0, None, doc='A new hash table from alternating keys and values.', sig='(hash k1 v1 ...)',
          examples=(('(hash "a" 1 \'b 2)', '#hash(("a" 1) (b 2))'),))
def hash_(*args):
    if len(args) % 2:
        raise EvalError('hash: expected an even number of args, got %d' % len(args))
    h = Hash()
    for i in range(0, len(args), 2):
        put(h, args[i], args[i + 1])
    return h


@TABLE.fn('alist->hash', 1, 1, doc='A new hash table from a list of (key value) lists; later duplicates win.',
          sig='(alist->hash alist)',
          examples=(("(alist->hash '((a 1) (b 2) (a 3)))", '#hash((a 3) (b 2))'),))
def alist_to_hash(alist):
    if alist.__class__ is NilType:
        return Hash()
    if alist.__class__ is not List:
        raise expected('alist->hash', 'list', alist)
    h = Hash()
    for pair in alist:
        if pair.__class__ is not List or len(pair) != 2:
            raise EvalError('alist->hash: expected (key value), got %s' % display_form(pair))
        put(h, pair.car, pair.cdr.car)
    return h


@TABLE.fn('hash-copy', 1, 1, doc='A new hash table with the same entries.', sig='(hash-copy h)',
          examples=(('(let ((h (hash 1 2))) (hash-set! (hash-copy h) 1 5) h)', '#hash((1 2))'),))
def hash_copy(h):
    new = Hash()
    new.table = dict(hash_arg('hash-copy', h).table)
    return new


# ── Reading and writing entries ──────────────────────────────────────────

_NO_DEFAULT = object()


@TABLE.fn('hash-ref', 2, 3, doc='The value under key k, else default (an error without one).',
          sig='(hash-ref h k [default])',
          examples=(("(hash-ref (hash 'a 1) 'a)", '1'), ("(hash-ref (hash 'a 1) 'z 0)", '0')))
def hash_ref(h, k, default=_NO_DEFAULT):
    if h.__class__ is Hash and ((c := k.__class__) is str or c is Symbol or c is int):
        entry = h.table.get(k)          # the common keys are their own images
    else:
        entry = hash_arg('hash-ref', h).table.get(key_of(k))
    if entry is not None:
        return entry[1]
    if default is _NO_DEFAULT:
        raise EvalError('hash-ref: no key %s' % display_form(k))
    return default


@TABLE.fn('hash-set!', 3, 3, doc='Set key k to v (an existing key keeps its position).', sig='(hash-set! h k v)',
          examples=(("(let ((h (make-hash))) (hash-set! h 'a 1) h)", '#hash((a 1))'),))
def hash_set(h, k, v):
    if h.__class__ is Hash and ((c := k.__class__) is str or c is Symbol or c is int):
        table = h.table                 # the common keys are their own images
        old = table.get(k)
        table[k] = (k, v) if old is None else (old[0], v)
        return NIL
    put(hash_arg('hash-set!', h), k, v)
    return NIL


@TABLE.fn('hash-remove!', 2, 2, doc='Remove key k (a missing key is not an error).', sig='(hash-remove! h k)',
          examples=(("(let ((h (hash 'a 1 'b 2))) (hash-remove! h 'a) h)", '#hash((b 2))'),))
def hash_remove(h, k):
    hash_arg('hash-remove!', h).table.pop(key_of(k), None)
    return NIL


@TABLE.fn('hash-update!', 4, 4, host=True, doc='Set k to (f old), old being its value or default.',
          sig='(hash-update! h k f default)',
          examples=(("(let ((h (make-hash))) (hash-update! h 'n inc 0) (hash-update! h 'n inc 0) h)",
                     '#hash((n 2))'),))
def hash_update(host, h, k, f, default):
    table = hash_arg('hash-update!', h).table
    proc_arg('hash-update!', f)
    hk = key_of(k)
    entry = table.get(hk)
    new = host.call(f, [default if entry is None else entry[1]])
    if entry is None or table.get(hk) is not entry:     # f may have changed the table
        entry = table.get(hk)
    table[hk] = (k if entry is None else entry[0], new)
    return NIL


@TABLE.fn('hash-for-each', 2, 2, host=True, doc='Call (f key value) for each entry in insertion order; Nil.',
          sig='(hash-for-each h f)',
          examples=(("(hash-for-each (hash 'a 1 'b 2) (lambda (k v) (display k v)))", '()'),))
def hash_for_each(host, h, f):
    entries = list(hash_arg('hash-for-each', h).table.values())    # f may change the table
    proc_arg('hash-for-each', f)
    call = host.call
    for k, v in entries:
        call(f, [k, v])
    return NIL


@TABLE.fn('hash-has?', 2, 2, doc='True if the table has key k.', sig='(hash-has? h k)',
          examples=(("(hash-has? (hash 'a 1) 'a)", '#t'), ("(hash-has? (hash 'a 1) 'b)", '#f')))
def hash_has(h, k):
    return key_of(k) in hash_arg('hash-has?', h).table


@TABLE.fn('hash-count', 1, 1, doc='The number of keys.', sig='(hash-count h)',
          examples=(("(hash-count (hash 'a 1 'b 2))", '2'),))
def hash_count(h):
    return len(hash_arg('hash-count', h).table)


# ── Whole tables as lists ────────────────────────────────────────────────

@TABLE.fn('hash-keys', 1, 1, doc='The keys in insertion order.', sig='(hash-keys h)',
          examples=(("(hash-keys (hash 'b 1 'a 2))", '(b a)'),))
def hash_keys(h):
    return make_list([k for k, _v in hash_arg('hash-keys', h).table.values()])


@TABLE.fn('hash-values', 1, 1, doc='The values in insertion order.', sig='(hash-values h)',
          examples=(("(hash-values (hash 'b 1 'a 2))", '(1 2)'),))
def hash_values(h):
    return make_list([v for _k, v in hash_arg('hash-values', h).table.values()])


@TABLE.fn('hash->list', 1, 1, doc='The entries as (key value) lists in insertion order.', sig='(hash->list h)',
          examples=(('(hash->list (hash "a" 1 \'b 2))', '(("a" 1) (b 2))'),))
def hash_to_list(h):
    return make_list([make_list([k, v]) for k, v in hash_arg('hash->list', h).table.values()])


@TABLE.fn('hash?', 1, 1, doc='True for hash tables.', sig='(hash? x)',
          examples=(('(hash? (make-hash))', '#t'), ("(hash? '((a 1)))", '#f')))
def is_hash(x):
    return x.__class__ is Hash
