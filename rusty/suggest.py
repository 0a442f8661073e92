"""The `Undefined` message and its did-you-mean suggestion."""

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
    near = closest(name, candidates)
    if near is not None:
        return "Undefined: '%s' — did you mean '%s'?" % (name, near)
    dash = name.find('-', 1)
    if dash > 0:
        return "Undefined: '%s' (try (apropos \"%s\"))" % (name, name[:name.find('-')])
    return "Undefined: '%s'" % name
