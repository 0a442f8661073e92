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
#
# A young generation that large is slow to collect when most of it is cyclic
# garbage (closures over the frames that hold them: local functions, a
# named let's loop, compiled code's closures and their cells): freeing
# 100,000 objects gone cold in the cache took over 1 µs each, and lattice
# spent two thirds of its time there. So the thresholds follow what the
# collections find (`adapt`): a young collection that frees more than
# GARBAGE of what it looked at drops the young threshold to
# GARBAGE_THRESHOLDS (its garbage is then freed while still in the cache:
# lattice 2.2 s -> 0.7 s, graphs 0.8 -> 0.4); CALM_RUNS young collections in a
# row freeing less than CALM of it raise it back.

GC_THRESHOLDS = (100_000, 20, 10)
GARBAGE_THRESHOLDS = (2_000, 20, 10)
GARBAGE = 0.5
CALM = 0.05
CALM_RUNS = 200
_gc_frozen = False
_calm = [0]


def tune_gc() -> None:
    """Raise the collector's thresholds; freeze what start-up built (once);
    let the thresholds follow the garbage found (`adapt`, once)."""
    global _gc_frozen
    gc.set_threshold(*GC_THRESHOLDS)
    _calm[0] = 0
    if not _gc_frozen:
        _gc_frozen = True
        gc.freeze()
        gc.callbacks.append(adapt)


def adapt(phase, info) -> None:
    """After a young collection: the small young threshold when most of what
    it looked at was garbage, the large one back after a calm spell."""
    if phase != 'stop' or info['generation'] != 0:
        return
    young = gc.get_threshold()[0]
    if young == GC_THRESHOLDS[0]:
        if info['collected'] > GARBAGE * young:
            gc.set_threshold(*GARBAGE_THRESHOLDS)
            _calm[0] = 0
    elif young == GARBAGE_THRESHOLDS[0]:
        if info['collected'] < CALM * young:
            _calm[0] += 1
            if _calm[0] >= CALM_RUNS:
                gc.set_threshold(*GC_THRESHOLDS)
                _calm[0] = 0
        else:
            _calm[0] = 0
