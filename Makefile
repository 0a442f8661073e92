# rusty — common tasks. `make install` then `make test`; see README.md.
#
# On a Python that refuses `pip install` outside a virtual environment (PEP 668:
# Debian, Ubuntu, Homebrew), everything runs in a project environment, .venv/,
# which `make install` creates; `rusty` is then .venv/bin/rusty, linked into
# BINDIR (~/.local/bin) so that it is on PATH. Elsewhere (an active venv, pyenv,
# CI) the Python found first is used, as before. `make tour` (the README's first
# command) installs and runs the tour with the rusty just installed, whether or
# not BINDIR is on PATH yet.
SYSPYTHON ?= python3
VENV ?= .venv
BINDIR ?= $(HOME)/.local/bin
MANAGED := $(shell $(SYSPYTHON) -c 'import os, sys, sysconfig; \
  print(int(sys.prefix == sys.base_prefix and \
  os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))))' 2>/dev/null)
ifeq ($(MANAGED),1)
PYTHON ?= $(VENV)/bin/python
RUSTY ?= $(VENV)/bin/rusty
else
PYTHON ?= $(SYSPYTHON)
RUSTY ?= $(PYTHON) -m rusty
endif
PIP ?= $(PYTHON) -m pip
# Optional extras installed with the test tools: `make install EXTRAS=test,lsp,jupyter`
# (CI does, so the language server's and the kernel's tests run there). With
# `jupyter` (the kernel, nbconvert) or `notebook` (that and JupyterLab) the
# kernel spec is registered in the same environment, where its jupyter finds it.
EXTRAS ?= test
comma := ,
KERNEL_EXTRAS := $(filter jupyter notebook,$(subst $(comma), ,$(EXTRAS)))

.PHONY: install venv tour notebook wheel-check test test-editors test-reference test-parity test-fast fuzz bench bench-suite examples repl lint docs clean

# compat editable mode: a plain path entry, no import-hook finder (faster start-up);
# compileall: start-up must not pay for compiling sources (PYTHONDONTWRITEBYTECODE).
install: venv
	$(PIP) install -q -e '.[$(EXTRAS)]' --config-settings editable_mode=compat
	$(PYTHON) -m compileall -q rusty
ifneq ($(KERNEL_EXTRAS),)
	$(RUSTY) kernel install --prefix "$$($(PYTHON) -c 'import sys; print(sys.prefix)')"
endif
ifeq ($(MANAGED),1)
	@mkdir -p $(BINDIR) && ln -sf $(CURDIR)/$(VENV)/bin/rusty $(BINDIR)/rusty
	@echo "rusty is $(CURDIR)/$(VENV)/bin/rusty, linked as $(BINDIR)/rusty"
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "note: $(BINDIR) is not on PATH; add it, or run $(VENV)/bin/rusty";; esac
endif

# Install, then run the tour with the rusty just installed (the README's first command).
tour: install
	$(RUSTY) repl.lisp-examples/tour.lisp

# JupyterLab with the rusty kernel, from the environment rusty is installed in
# (.venv where pip refuses to install outside one): installs the `notebook`
# extra, registers the kernel, starts JupyterLab (Ctrl-C stops it).
notebook:
	$(MAKE) install EXTRAS=$(EXTRAS),notebook
	$(PYTHON) -m jupyterlab

# The project environment, only where pip refuses to install outside one.
venv:
ifeq ($(MANAGED),1)
	@test -x $(PYTHON) || $(SYSPYTHON) -m venv $(VENV) || \
	  { echo "could not create $(VENV): install your system's venv package (e.g. apt install python3-venv)"; exit 1; }
endif

test: install
	$(PYTHON) -m pytest -q

# The editors' and notebooks' faces: rusty lsp and the Jupyter kernel (needs EXTRAS with lsp,jupyter).
test-editors: install
	$(PYTHON) -m pytest -q tests/test_lsp.py tests/test_kernel.py tests/test_kernel_figures.py

# The language-core tests again with every generated fast path off
# (RUSTY_SPECIALIZE=0): the reference evaluator alone, the reference the fast
# paths must match. CI runs it after `make test`.
REFERENCE_TESTS = tests/test_spec_*.py tests/test_fuzz.py tests/test_macro_cache.py \
	tests/test_errors_report.py tests/lisp/core repl.lisp-examples

test-reference: install
	RUSTY_SPECIALIZE=0 $(PYTHON) -m pytest -q $(REFERENCE_TESTS)

# The fast path against the reference on many generated programs (the suite
# runs a bounded number of tests/test_paths_agree.py's examples).
PARITY_EXAMPLES ?= 5000
test-parity: install
	RUSTY_PARITY_EXAMPLES=$(PARITY_EXAMPLES) $(PYTHON) -m pytest -q tests/test_paths_agree.py

test-fast: install
	$(PYTHON) -m pytest -q -m 'not slow'

# Random whole programs (tests/fuzz_programs.py): counts internal errors, host
# tracebacks and hangs, exit 1 if any. tests/test_fuzz.py runs a bounded few.
# tests/fuzz_redefine.py: the compiler against the reference on programs that
# redefine globals between calls and while a compiled call runs (functions,
# macros, builtins, values).
FUZZ_PROGRAMS ?= 100000
REDEFINE_PROGRAMS ?= 20000
fuzz: install
	nice $(PYTHON) tests/fuzz_programs.py -n $(FUZZ_PROGRAMS)
	nice $(PYTHON) tests/fuzz_redefine.py -n $(REDEFINE_PROGRAMS)

bench: install
	$(PYTHON) benchmarks/run.py

# The fresh-process suite alone (classics, beginner loops, everyday scripts vs
# CPython), printed only: `make bench-suite SUITE=--quick` takes a few minutes.
SUITE ?=
bench-suite: install
	$(PYTHON) benchmarks/bench_suite.py $(SUITE)

examples: install
	@# an example may end in an error on purpose: it says so with `; expect-exit: N`
	@for f in repl.lisp-examples/*.lisp; do echo "== $$f"; \
	  want=$$(sed -n 's/^; expect-exit: *//p' "$$f"); $(RUSTY) "$$f"; got=$$?; \
	  [ "$$got" = "$${want:-0}" ] || { echo "$$f: exit $$got, expected $${want:-0}"; exit 1; }; done

repl: install
	$(RUSTY)

# The release check, on what pip users get: the sdist, and the wheel built
# from it (python -m build); the wheel installed, not editable, with the lsp
# and jupyter extras (from PyPI) into a fresh virtual environment; then, with
# that environment's rusty, every example, `rusty lsp`, and `rusty kernel`
# with jupyter_client and nbconvert (tests/wheel_smoke.py). A file left out of
# the distribution fails here. CI runs it.
DIST ?= dist
CHECK_ENV ?= build/wheel-check
wheel-check: venv
	$(PIP) install -q build
	@# from the sources alone: an egg-info left by an editable install would add files to the sdist
	rm -rf $(DIST) $(CHECK_ENV) build/lib *.egg-info && mkdir -p $(CHECK_ENV)
	$(PYTHON) -m build -o $(DIST) . > $(CHECK_ENV).log 2>&1 || { cat $(CHECK_ENV).log; exit 1; }
	@ls $(DIST)
	$(PYTHON) -m venv $(CHECK_ENV)
	$(CHECK_ENV)/bin/python -m pip install -q "$$(ls $(DIST)/*.whl)[lsp,jupyter]"
	cd $(CHECK_ENV) && env -u PYTHONPATH bin/python $(CURDIR)/tests/wheel_smoke.py $(CURDIR)

lint: venv
	$(PIP) install -q pyflakes
	$(PYTHON) -m pyflakes rusty tests benchmarks

# The reference manual is generated from the same documentation as (doc 'name).
docs:
	$(PYTHON) -m rusty.manual docs/reference.md

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
