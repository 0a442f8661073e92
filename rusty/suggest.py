"""The `Undefined` message and its suggestion: rusty's own name for what
another Lisp (or Python) calls it, else the nearest name ("did you mean"),
else apropos.

The nearest name is by edit distance (a transposition of two neighbouring
characters is one edit) within the threshold of docs/reference.md; a name two
edits away is offered only when it keeps the name's first character or one
name contains the other (a slip rarely hits the first key), so `mean` is not
offered `atan`, nor `read` `grad`, and a one-letter name is not offered
another one-letter name: no suggestion beats a misleading one.
Among equally near names the one sharing the longest prefix wins, then the
smallest."""

# Names other Lisps (Scheme, Racket, Common Lisp, Clojure, Emacs Lisp) and
# Python use for something rusty has under another name: other name -> rusty's
# name (offered only when that name is bound).
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
    'raise': 'error', 'void': 'nil', 'quit': 'exit', 'catch': 'try-catch', 'every': 'all?', 'some': 'any?', 'write-string': 'display', 'write-line': 'displayln',
    'sqr': 'square', 'write': 'print', 'writeln': 'print', 'prin1': 'print', 'princ': 'display',
    'terpri': 'newline', 'read': 'read-line', 'mean': 'average', 'funcall': 'apply', 'pow': 'expt',
    # Python
    'input': 'read-line', 'sorted': 'sort', 'reversed': 'reverse', 'join': 'string-join',
    'split': 'string-split', 'strip': 'string-trim', 'upper': 'string-upcase', 'lower': 'string-downcase',
    'startswith': 'string-prefix?', 'endswith': 'string-suffix?', 'replace': 'string-replace',
    'dict': 'make-hash', 'keys': 'hash-keys', 'type': 'type-of', 'any': 'any?', 'all': 'all?',
    'concat': 'string-append', 'sprintf': 'format', 'int': 'truncate', 'float': 'inexact',
    'chr': 'code-char', 'ord': 'char-code',
    # files, JSON and the outside world
    'file->string': 'file-read', 'read-file': 'file-read', 'slurp': 'file-read', 'spit': 'file-write',
    'delete-file': 'file-delete', 'make-directory': 'dir-create', 'directory-list': 'dir-list',
    'current-command-line-arguments': 'command-line-args', 'string->jsexpr': 'json-decode',
    'jsexpr->string': 'json-encode', 'json-read': 'json-decode', 'json-write': 'json-encode',
}


def levenshtein(a: str, b: str, cap: int) -> int:
    """Edit distance over code points (insert, delete, substitute, and swap of
    two neighbours each cost 1), or cap + 1 once it must exceed cap."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    before = None
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        best = i
        for j, cb in enumerate(b, 1):
            d = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if before is not None and j > 1 and ca == b[j - 2] and a[i - 2] == cb and ca != cb:
                d = min(d, before[j - 2] + 1)
            cur.append(d)
            best = min(best, d)
        if best > cap:
            return cap + 1
        before, prev = prev, cur
    return prev[-1]


def _prefix(a: str, b: str) -> int:
    """The length of the longest common prefix."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _plausible(name: str, cand: str, d: int) -> bool:
    """Whether a candidate d edits away looks like a slip for name: never when
    the edits replace the whole name (`x` is not offered `*`); one edit
    otherwise; two only keeping the first character, or one name inside the other."""
    if d >= max(len(name), len(cand)):
        return False
    return d <= 1 or name[:1] == cand[:1] or cand in name or name in cand


def closest(name: str, candidates) -> str | None:
    """The nearest plausible candidate within the "did you mean" threshold
    (ties: the longest common prefix, then the smallest name)."""
    cap = 1 if len(name.encode('utf-8', 'surrogatepass')) <= 3 else 2
    best, best_key = None, None
    for cand in set(candidates):
        if cand == name:
            continue
        d = levenshtein(name, cand, cap)
        if d > cap or not _plausible(name, cand, d):
            continue
        key = (d, -_prefix(name, cand), cand)
        if best_key is None or key < best_key:
            best, best_key = cand, key
    return best


def suggestion(name: str, candidates) -> tuple[str, str] | None:
    """('calls', rusty's name) when another dialect's name has a bound
    equivalent, ('near', name) for a close name, ('near-other', that dialect's
    name) for a one-edit slip of such a name of over three characters
    (`wirte`) when no bound name is as near (so `sleep`, two edits away, is
    not offered `slurp`, nor `pop`, of three, `pow`), else None."""
    candidates = set(candidates)
    ours = OTHER_LISPS.get(name)
    if ours is not None and ours in candidates and ours != name:
        return 'calls', ours
    near = closest(name, candidates)
    other = None if len(name) <= 3 else \
        closest(name, [k for k, v in OTHER_LISPS.items() if v in candidates and k not in candidates])
    if other is not None and levenshtein(name, other, 1) == 1 and (near is None or levenshtein(name, near, 1) > 1):
        return 'near-other', other
    return ('near', near) if near is not None else None


# Names that are unbound for a reason a suggestion would hide: name -> the reason.
REASONS = {
    'unquote': "',' (unquote) works only inside a quasiquote (`) template",
    'unquote-splicing': "',@' (unquote-splicing) works only inside a quasiquote (`) template",
}


def suggestion_text(name: str, candidates) -> str | None:
    """What follows the em dash: "did you mean 'X'?", "rusty calls it 'X'", or
    for a slip of another dialect's name both, or why the name is unbound
    (REASONS); None without a suggestion."""
    if name in REASONS:
        return REASONS[name]
    found = suggestion(name, candidates)
    if found is None:
        return None
    kind, other = found
    if kind == 'calls':
        return "rusty calls it '%s'" % other
    if kind == 'near-other':
        return "did you mean '%s'? rusty calls it '%s'" % (other, OTHER_LISPS[other])
    return "did you mean '%s'?" % other


def undefined_message(name: str, candidates) -> str:
    """`Undefined: 'NAME'`, with a suggestion or an apropos hint when there is one."""
    text = suggestion_text(name, candidates)
    if text is not None:
        return "Undefined: '%s' — %s" % (name, text)
    dash = name.find('-', 1)
    if dash > 0:
        return "Undefined: '%s' (try (apropos \"%s\"))" % (name, name[:name.find('-')])
    return "Undefined: '%s'" % name
