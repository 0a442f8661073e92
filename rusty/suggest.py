"""The `Undefined` message and its suggestion: rusty's own name for what
another Lisp calls it, else the nearest name ("did you mean"), else apropos."""

# Names other Lisps (Scheme, Racket, Common Lisp, Clojure, Emacs Lisp) use for
# something rusty has under another name: other name -> rusty's name.
OTHER_LISPS = {
    # strings
    'string-index': 'string-first-index', 'string-search-forward': 'string-first-index',
    'string-rindex': 'string-last-index', 'string-index-right': 'string-last-index',
    'string-search-backward': 'string-last-index', 'string-contains': 'string-contains?',
    'string-upper': 'string-upcase', 'string-lower': 'string-downcase',
    'substr': 'substring', 'subseq': 'substring', 'strlen': 'string-length', 'string-concat': 'string-append',
    'char->integer': 'char-code', 'integer->char': 'code-char', 'split-string': 'string-split',
    'string-pad': 'string-pad-left',
    # lists
    'fold-left': 'foldl', 'fold-right': 'foldr', 'fold': 'foldl', 'mapcar': 'map', 'mapc': 'for-each',
    'remove-if-not': 'filter', 'nthcdr': 'list-tail', 'elt': 'list-ref', 'len': 'length',
    'list-length': 'length', 'mapcan': 'append-map', 'list-sort': 'sort', 'sort!': 'sort',
    'delete-duplicates': 'remove-duplicates', 'distinct': 'remove-duplicates',
    'assoc-ref': 'alist-get', 'assq-ref': 'alist-get', 'null': 'null?', 'consp': 'pair?', 'listp': 'list?',
    'numberp': 'number?', 'stringp': 'string?', 'symbolp': 'symbol?', 'zerop': 'zero?',
    'evenp': 'even?', 'oddp': 'odd?', 'vec': 'list->vector',
    # hash tables
    'make-hash-table': 'make-hash', 'hash-table-ref': 'hash-ref', 'hash-table-ref/default': 'hash-ref',
    'hash-table/get': 'hash-ref', 'gethash': 'hash-ref', 'hash-table-set!': 'hash-set!',
    'hash-table/put!': 'hash-set!', 'hash-table-delete!': 'hash-remove!', 'remhash': 'hash-remove!',
    'hash-table-update!': 'hash-update!', 'hash-table-update!/default': 'hash-update!',
    'hash-table-contains?': 'hash-has?', 'hash-table-exists?': 'hash-has?', 'hash-has-key?': 'hash-has?',
    'contains?': 'hash-has?', 'hash-table-count': 'hash-count', 'hash-table-size': 'hash-count',
    'hash-table-keys': 'hash-keys', 'hash-table-values': 'hash-values', 'hash-table->alist': 'hash->list',
    'hash-table-walk': 'hash-for-each', 'maphash': 'hash-for-each', 'hash-table?': 'hash?',
    'hash-table-copy': 'hash-copy', 'hash-map': 'hash',
    # definitions, control and output
    'defun': 'define', 'defn': 'define', 'defvar': 'define', 'defparameter': 'define', 'setq': 'set!',
    'setf': 'set!', 'progn': 'begin', 'guard': 'try-catch', 'with-handlers': 'try-catch',
    'raise': 'error', 'void': 'nil', 'write-string': 'display', 'write-line': 'displayln',
    'sqr': 'square',
    # files, JSON and the outside world
    'file->string': 'file-read', 'read-file': 'file-read', 'slurp': 'file-read', 'spit': 'file-write',
    'delete-file': 'file-delete', 'make-directory': 'dir-create', 'directory-list': 'dir-list',
    'current-command-line-arguments': 'command-line-args', 'string->jsexpr': 'json-decode',
    'jsexpr->string': 'json-encode', 'json-read': 'json-decode', 'json-write': 'json-encode',
}


def levenshtein(a: str, b: str, cap: int) -> int:
    """Edit distance over code points, or cap + 1 once it must exceed cap."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        best = i
        for j, cb in enumerate(b, 1):
            d = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            cur.append(d)
            best = min(best, d)
        if best > cap:
            return cap + 1
        prev = cur
    return prev[-1]


def closest(name: str, candidates) -> str | None:
    """The nearest candidate within the "did you mean" threshold (ties: smallest name)."""
    cap = 1 if len(name.encode('utf-8', 'surrogatepass')) <= 3 else 2
    best = None
    best_d = cap + 1
    for cand in set(candidates):
        if cand == name:
            continue
        d = levenshtein(name, cand, cap)
        if d < best_d or (d == best_d and best is not None and cand < best):
            best, best_d = cand, d
    return best if best_d <= cap else None


def undefined_message(name: str, candidates) -> str:
    """`Undefined: 'NAME'`, with a suggestion or an apropos hint when there is one."""
    ours = OTHER_LISPS.get(name)
    if ours is not None:
        candidates = set(candidates)
        if ours in candidates:
            return "Undefined: '%s' — rusty calls it '%s'" % (name, ours)
    near = closest(name, candidates)
    if near is not None:
        return "Undefined: '%s' — did you mean '%s'?" % (name, near)
    dash = name.find('-', 1)
    if dash > 0:
        return "Undefined: '%s' (try (apropos \"%s\"))" % (name, name[:name.find('-')])
    return "Undefined: '%s'" % name
