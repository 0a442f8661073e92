"""The garbage collector's settings for rusty runs (the runtime applies them
once a session is built)."""
import gc

# ── The garbage collector ────────────────────────────────────────────────
# Every Lisp call allocates a frame (a Python list), so with Python's default
# thresholds the collector ran every 700 frames and list-heavy programs spent
# a third of their time collecting. Raised thresholds (measured with
# benchmarks/bench_breadth.py: collection time halved; a young generation of
# 100,000 rather than 50,000 objects took 8-17% off the list sieve, the
# map/filter/fold pipeline and the JSON round trip, whose runs allocate about
# that many cells) and, once per process, the start-up objects (modules,
# builtins, the standard library) moved out of the collector's sight with
# gc.freeze().

GC_THRESHOLDS = (100_000, 20, 10)
_gc_frozen = False


def tune_gc() -> None:
    """Raise the collector's thresholds; freeze what start-up built (once)."""
    global _gc_frozen
    gc.set_threshold(*GC_THRESHOLDS)
    if not _gc_frozen:
        _gc_frozen = True
        gc.freeze()
