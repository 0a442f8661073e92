""",frames and ,locals after an error in compiled code show what they show on
the reference (docs/reference.md §8 The REPL): the failing lambda's own
variables and its enclosing ones, whether compiled code called it directly, an
inlined `map`/`filter`/`for-each` walk ran its body in place, or a builtin
(`apply`, `sort`) called it. Each program runs with every lambda compiled at
its first call (RUSTY_COMPILE_CALLS=0) and on the reference; the sessions'
listings must be the same, line for line."""
import pytest

from repl_driver import CTRL_D, ENTER, drive
from rusty.runtime import Session

PROGRAMS = {
    'a walk of map with a literal lambda, in a let':
        '(define (f k) (let ((j (+ k 1))) (map (lambda (x) (if (> x 2) (car x) (+ x j))) (list 1 2 3))))',
    'filter and for-each walks, nested':
        '(define (f k) (for-each (lambda (x) (filter (lambda (y) (car (+ y x k))) (list 1 2))) (list 5 6)))',
    'a closure held in a local, given to map':
        '(define (f k) (let ((g (lambda (x) (car (+ x k))))) (map g (list 1 2))))',
    'a closure given to apply':
        '(define (f k) (let ((j 7)) (apply (lambda (x y) (car (+ x y j k))) (list 1 2))))',
    'a local function called directly':
        '(define (f k) (define (g x) (let ((z (* x 2))) (car (+ z k)))) (+ 1 (g 3)))',
    'a named let failing in its loop':
        '(define (f k) (let loop ((i 0) (acc 0)) (if (= i 3) (car acc) (loop (+ i 1) (+ acc k)))))',
    'a closure made by a maker, called from another function':
        '(define (make k) (lambda (x) (let ((w 1)) (car (+ x k w))))) (define (f k) ((make k) 2))',
    'a closure given to sort':
        '(define (f k) (sort (list 3 1 2) (lambda (a b) (car (< a b k)))))',
}


def listing(program: str, monkeypatch, compiled: bool, cache=None) -> list:
    """The session's lines from the error on: ,frames then ,locals of frames 0-3
    (compiled code stored in and loaded from the disk cache `cache`, if given)."""
    monkeypatch.setenv('RUSTY_SPECIALIZE', '1' if compiled else '0')
    monkeypatch.setenv('RUSTY_COMPILE_CALLS', '0')
    monkeypatch.setenv('RUSTY_CODE_CACHE', '1' if cache else '0')
    if cache:
        monkeypatch.setenv('RUSTY_CACHE_DIR', str(cache))
    s = Session()
    keys = [program, '(f 1)', ',frames', ',locals 0', ',locals 1', ',locals 2', ',locals 3']
    out, _ = drive(''.join(k + ENTER for k in keys) + CTRL_D, session=s)
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith('Error:'))
    return lines[first:]


@pytest.mark.parametrize('program', PROGRAMS.values(), ids=list(PROGRAMS))
def test_frames_and_locals_in_compiled_code_are_the_references(program, monkeypatch):
    reference = listing(program, monkeypatch, compiled=False)
    assert any('enclosing:' in line for line in reference)     # (each program has some to show)
    assert listing(program, monkeypatch, compiled=True) == reference


def test_an_inlined_walks_frame_is_the_references_when_its_code_is_loaded(monkeypatch, tmp_path):
    program = PROGRAMS['filter and for-each walks, nested']
    reference = listing(program, monkeypatch, compiled=False)
    assert listing(program, monkeypatch, compiled=True, cache=tmp_path) == reference       # (stored)
    assert listing(program, monkeypatch, compiled=True, cache=tmp_path) == reference       # (loaded)
