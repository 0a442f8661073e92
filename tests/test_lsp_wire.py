"""Macro calls and their expansions across the pipe to the expansion worker:
the expansion comes back around the server's own cells, spans and all."""
from rusty.lsp import wire
from rusty.printer import write_form
from rusty.reader import read
from rusty.runtime import Session

CALLS = ['(m)', '(m (a b) "s" 1.5 -7 #t (c (d e)) () nil 123456789012345678901234567890)',
         '(m ((((x)))) (y . z))', "(m 'q `(a ,b ,@c))"]


def test_a_call_reads_back_as_written():
    for text in CALLS:
        x = read(text, 'f').car
        data, cells = wire.encode_call(x)
        y, numbers = wire.decode_call(data)
        assert write_form(y) == write_form(x)
        assert len(numbers) == len(cells)


def test_an_expansion_keeps_the_call_s_own_cells():
    s = Session()
    s.run('(defmacro m (a . rest) `(begin (list ,a) ,@rest (quote ,rest) ,a))')
    x = read('(m (car 1 2) (cdr x) 7)', 'f').car
    data, cells = wire.encode_call(x)
    call, numbers = wire.decode_call(data)      # as the worker sees it
    out = s.macroexpand(call)
    back = wire.decode_expansion(wire.encode_expansion(out, numbers), cells)
    assert write_form(back) == write_form(s.macroexpand(x))
    arg = x.cdr.car                             # (car 1 2), with its place in the text
    assert back.cdr.car.cdr.car is arg          # (list ,a): the server's own list, not a copy
    assert back.cdr.cdr.car is x.cdr.cdr.car    # ,@rest's first element
    quoted = back.cdr.cdr.cdr.cdr.car.cdr.car   # (quote ,rest): a new list of the call's own elements
    assert quoted.car is x.cdr.cdr.car and write_form(quoted) == '((cdr x) 7)'
    assert back.cdr.cdr.cdr.cdr.cdr.car is arg


def test_values_that_are_no_forms_come_back_opaque():
    from rusty.values import make_list, sym
    thing = object()
    back = wire.decode_expansion(wire.encode_expansion(make_list([sym('quote'), thing]), {}), [])
    assert back.cdr.car.__class__ is wire.Opaque and back.car is sym('quote')
