"""Everyday script: a small state machine tokenising program text character by character."""
import sys

SAMPLE = 'total = price * 12 + tax("vat", 0.2); if x1 >= 10 { print("big") } '


def kind(c):
    if c in 'abcdefghijklmnopqrstuvwxyz_':
        return 'letter'
    if c in '0123456789':
        return 'digit'
    if c == '"':
        return 'quote'
    if c == '.':
        return 'dot'
    if c in ' \n\t':
        return 'space'
    return 'punct'


def tokenise(text):
    counts = {}

    def emit(k):
        counts[k] = counts.get(k, 0) + 1
    i, state, n = 0, 'start', len(text)
    while i != n:
        k = kind(text[i])
        if state == 'start':
            if k == 'letter':
                state = 'ident'
            elif k == 'digit':
                state = 'number'
            elif k == 'quote':
                state = 'string'
            elif k != 'space':
                emit('punct')
            i += 1
        elif state == 'ident':
            if k in ('letter', 'digit'):
                i += 1
            else:
                emit('ident')
                state = 'start'
        elif state == 'number':
            if k in ('digit', 'dot'):
                i += 1
            else:
                emit('number')
                state = 'start'
        else:
            if k == 'quote':
                emit('string')
                state = 'start'
            i += 1
    if state != 'start':
        emit(state)
    return counts


counts = tokenise(SAMPLE * int(sys.argv[1]))
for k in ('ident', 'number', 'string', 'punct'):
    print(k, counts.get(k, 0))
