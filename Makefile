# rusty — common tasks. `make install` then `make test`; see README.md.
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip

.PHONY: install test test-reference test-fast bench examples repl lint clean

# compat editable mode: a plain path entry, no import-hook finder (faster start-up);
# compileall: start-up must not pay for compiling sources (PYTHONDONTWRITEBYTECODE).
install:
	$(PIP) install -q -e '.[test]' --config-settings editable_mode=compat
	$(PYTHON) -m compileall -q rusty

test: install
	$(PYTHON) -m pytest -q

# The language-core tests again with every generated fast path off
# (RUSTY_SPECIALIZE=0): the closure compiler alone, the reference the fast
# paths must match. CI runs it after `make test`.
REFERENCE_TESTS = tests/test_spec_*.py tests/test_fuzz.py tests/test_expansion_cache.py \
	tests/test_errors_report.py tests/lisp/core repl.lisp-examples

test-reference: install
	RUSTY_SPECIALIZE=0 $(PYTHON) -m pytest -q $(REFERENCE_TESTS)

test-fast: install
	$(PYTHON) -m pytest -q -m 'not slow'

bench: install
	$(PYTHON) benchmarks/run.py

examples: install
	@# an example may end in an error on purpose: it says so with `; expect-exit: N`
	@for f in repl.lisp-examples/*.lisp; do echo "== $$f"; \
	  want=$$(sed -n 's/^; expect-exit: *//p' "$$f"); rusty "$$f"; got=$$?; \
	  [ "$$got" = "$${want:-0}" ] || { echo "$$f: exit $$got, expected $${want:-0}"; exit 1; }; done

repl: install
	rusty

lint:
	$(PYTHON) -m pyflakes rusty tests benchmarks

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
