// Native tensor kernels for rusty, built once through
// the JIT cache by rusty/jit/kernels.py. Every kernel gives the same bits as
// the pure-Python reference in rusty/tensor.py: sums run sequentially from
// +0.0, matmul accumulates each element over p ascending, multiply and add are
// separate operations (Rust never contracts them into an FMA and never
// reassociates float arithmetic), so vectorising across independent elements
// changes speed, not values.
//
// Pointers come from the caller's `array('d')` buffers; `out` never aliases an
// input. Lengths are element counts.
//
// Interrupts: the matmuls poll the host's interrupt flag (bound at load by
// rusty_k_bind_stop, the same flag defrust natives poll) once per packed
// panel (a band's rows × k × NR multiply-adds), per MR-row block of a narrow
// band and per leftover row: a relaxed load against thousands of
// multiply-adds, outside the register tiles' loops. The element-wise kernels,
// relu, step, sums and transposes poll once per CHUNK (64k) elements. A kernel
// that sees a stop request (1, or 2 when other code saw it first) marks it
// seen (2) and returns 1 at once (a sum returns NaN), its output incomplete:
// the caller discards it and raises the interrupt.

use std::slice::{from_raw_parts, from_raw_parts_mut};
use std::sync::atomic::{AtomicI32, AtomicPtr};

static NO_STOP: AtomicI32 = AtomicI32::new(0);
static STOP: AtomicPtr<AtomicI32> = AtomicPtr::new(&NO_STOP as *const AtomicI32 as *mut AtomicI32);

/// Point the kernels' interrupt poll at the host's flag.
#[no_mangle]
pub extern "C" fn rusty_k_bind_stop(flag: *mut AtomicI32) {
    if !flag.is_null() {
        STOP.store(flag, Relaxed);
    }
}

/// The flag bound by rusty_k_bind_stop (a private zero until then).
#[inline(always)]
fn stop_flag() -> &'static AtomicI32 {
    unsafe { &*STOP.load(Relaxed) }
}

/// Whether a stop was asked for (or already seen); marks it seen.
#[inline(always)]
fn stopping(flag: &AtomicI32) -> bool {
    let v = flag.load(Relaxed);
    (v == 1 || v == 2) && mark_seen(flag)
}

#[cold]
#[inline(never)]
fn mark_seen(flag: &AtomicI32) -> bool {
    let _ = flag.compare_exchange(1, 2, Relaxed, Relaxed);
    true
}

/// Elements between two polls of the interrupt flag in the element-wise
/// kernels, sums and transposes: a relaxed load per 64k elements (about 0.1 ms
/// of work) costs nothing measurable and bounds the wait for a stop.
const CHUNK: usize = 1 << 16;

/// Run `f(start, end)` over [0, n) in CHUNK-element pieces, in order, polling
/// the interrupt flag before each piece: 0 when done, 1 when it stopped early
/// (the flag is then marked seen and the rest never runs).
#[inline(always)]
fn by_chunks(n: usize, mut f: impl FnMut(usize, usize)) -> i32 {
    let stop = stop_flag();
    let mut s = 0;
    while s < n {
        if stopping(stop) {
            return 1;
        }
        let e = if n - s > CHUNK { s + CHUNK } else { n };
        f(s, e);
        s = e;
    }
    0
}

macro_rules! elementwise {
    ($tt:ident, $ts:ident, $st:ident, $op:tt) => {
        /// out ← a op b element by element; 1 when stopped for an interrupt.
        #[no_mangle]
        pub unsafe extern "C" fn $tt(a: *const f64, b: *const f64, out: *mut f64, n: usize) -> i32 {
            let (a, b, o) = (from_raw_parts(a, n), from_raw_parts(b, n), from_raw_parts_mut(out, n));
            by_chunks(n, |s, e| {
                let (a, b, o) = (&a[s..e], &b[s..e], &mut o[s..e]);
                for i in 0..o.len() {
                    o[i] = a[i] $op b[i];
                }
            })
        }

        /// out ← a op s; 1 when stopped for an interrupt.
        #[no_mangle]
        pub unsafe extern "C" fn $ts(a: *const f64, s: f64, out: *mut f64, n: usize) -> i32 {
            let (a, o) = (from_raw_parts(a, n), from_raw_parts_mut(out, n));
            by_chunks(n, |i0, i1| {
                let (a, o) = (&a[i0..i1], &mut o[i0..i1]);
                for i in 0..o.len() {
                    o[i] = a[i] $op s;
                }
            })
        }

        /// out ← s op b; 1 when stopped for an interrupt.
        #[no_mangle]
        pub unsafe extern "C" fn $st(s: f64, b: *const f64, out: *mut f64, n: usize) -> i32 {
            let (b, o) = (from_raw_parts(b, n), from_raw_parts_mut(out, n));
            by_chunks(n, |i0, i1| {
                let (b, o) = (&b[i0..i1], &mut o[i0..i1]);
                for i in 0..o.len() {
                    o[i] = s $op b[i];
                }
            })
        }
    };
}

elementwise!(rusty_k_add_tt, rusty_k_add_ts, rusty_k_add_st, +);
elementwise!(rusty_k_sub_tt, rusty_k_sub_ts, rusty_k_sub_st, -);
elementwise!(rusty_k_mul_tt, rusty_k_mul_ts, rusty_k_mul_st, *);
elementwise!(rusty_k_div_tt, rusty_k_div_ts, rusty_k_div_st, /);

/// acc ← +0.0; acc ← acc + x over the elements in order (chunking keeps the
/// order). NaN when stopped for an interrupt: the caller tells that from a NaN
/// sum by the flag, which the kernel then leaves marked seen.
#[no_mangle]
pub unsafe extern "C" fn rusty_k_sum(a: *const f64, n: usize) -> f64 {
    let stop = stop_flag();
    let mut acc = 0.0_f64;
    for part in from_raw_parts(a, n).chunks(CHUNK) {
        if stopping(stop) {
            return f64::NAN;
        }
        for &x in part {
            acc += x;
        }
    }
    acc
}

/// x if x > 0 else +0.0 (NaN gives +0.0); 1 when stopped for an interrupt.
#[no_mangle]
pub unsafe extern "C" fn rusty_k_relu(a: *const f64, out: *mut f64, n: usize) -> i32 {
    let (a, o) = (from_raw_parts(a, n), from_raw_parts_mut(out, n));
    by_chunks(n, |s, e| {
        let (a, o) = (&a[s..e], &mut o[s..e]);
        for i in 0..o.len() {
            o[i] = if a[i] > 0.0 { a[i] } else { 0.0 };
        }
    })
}

/// 1.0 if x > 0 else 0.0; 1 when stopped for an interrupt.
#[no_mangle]
pub unsafe extern "C" fn rusty_k_step(a: *const f64, out: *mut f64, n: usize) -> i32 {
    let (a, o) = (from_raw_parts(a, n), from_raw_parts_mut(out, n));
    by_chunks(n, |s, e| {
        let (a, o) = (&a[s..e], &mut o[s..e]);
        for i in 0..o.len() {
            o[i] = if a[i] > 0.0 { 1.0 } else { 0.0 };
        }
    })
}

/// The m×n transpose of an n×m matrix; 1 when stopped for an interrupt.
#[no_mangle]
pub unsafe extern "C" fn rusty_k_transpose(a: *const f64, out: *mut f64, n: usize, m: usize) -> i32 {
    rusty_transpose(from_raw_parts(a, n * m), from_raw_parts_mut(out, n * m), n, m, stop_flag()) as i32
}

/// Counts copied elements down from CHUNK and polls the interrupt flag each
/// time they run out, whatever the matrix's shape.
struct Budget<'a> {
    left: usize,
    stop: &'a AtomicI32,
}

impl Budget<'_> {
    /// Spend `work` elements; whether a stop was asked (polled once per CHUNK).
    #[inline(always)]
    fn spend(&mut self, work: usize) -> bool {
        if self.left > work {
            self.left -= work;
            return false;
        }
        self.left = CHUNK;
        stopping(self.stop)
    }
}

/// o (m×n) ← the transpose of a (n×m); true when stopped for an interrupt (o
/// incomplete). In 4×4 blocks: four rows of four are
/// read and four rows of four written, so both sides move whole vectors
/// (twice as fast as 8×8 blocks element by element); leftover rows and
/// columns go element by element. It only copies, so any order is exact.
/// Blocks run in runs of up to CHUNK/4 columns, each run spending its
/// elements from a Budget, so the poll stays out of the blocks' loop.
/// graph_codegen writes the same loops (without the polls), with literal
/// bounds, into grad kernels.
#[inline(always)]
fn rusty_transpose(a: &[f64], o: &mut [f64], n: usize, m: usize, stop: &AtomicI32) -> bool {
    let (a, o) = (&a[..n * m], &mut o[..n * m]);
    let (n4, m4) = (n - n % 4, m - m % 4);
    let mut budget = Budget { left: 0, stop };
    for i0 in (0..n4).step_by(4) {
        for run in (0..m4).step_by(CHUNK / 4) {
            let end = if m4 - run > CHUNK / 4 { run + CHUNK / 4 } else { m4 };
            if budget.spend(4 * (end - run) + 1) {
                return true;
            }
            for j0 in (run..end).step_by(4) {
                let r: [[f64; 4]; 4] = core::array::from_fn(|r| {
                    let s = (i0 + r) * m + j0;
                    [a[s], a[s + 1], a[s + 2], a[s + 3]]
                });
                for c in 0..4 {
                    let s = (j0 + c) * n + i0;
                    o[s..s + 4].copy_from_slice(&[r[0][c], r[1][c], r[2][c], r[3][c]]);
                }
            }
        }
        if budget.spend(4 * (m - m4) + 1) {
            return true;
        }
        for i in i0..i0 + 4 {
            for j in m4..m {
                o[j * n + i] = a[i * m + j];
            }
        }
    }
    for i in n4..n {
        for run in (0..m).step_by(CHUNK) {
            let end = if m - run > CHUNK { run + CHUNK } else { m };
            if budget.spend(end - run + 1) {
                return true;
            }
            for j in run..end {
                o[j * n + i] = a[i * m + j];
            }
        }
    }
    false
}

/// Rows [row0, row1) of the n×k by k×m product, in the interpreter's order: every
/// out[i][j] starts at +0.0 and then gets `+= a[i][p] * b[p][j]` for p
/// ascending. Computed in MR×NR register tiles (each tile's accumulators stay
/// in registers while p runs), which changes the memory traffic, not the
/// per-element sequence of operations. Bands touch disjoint rows of `out`, so
/// several may run at once.
///
/// Bands with several row tiles first copy each NR-column panel of `b` into a
/// contiguous k×NR buffer (as BLIS packs): every row tile then streams it
/// sequentially from L1 instead of striding across `b` one cache line (often
/// two) per p.
///
/// Returns 0, or 1 when it stopped early for an interrupt (`out` incomplete).
#[no_mangle]
pub unsafe extern "C" fn rusty_k_matmul_band(
    a: *const f64, b: *const f64, out: *mut f64,
    n: usize, k: usize, m: usize, row0: usize, row1: usize,
) -> i32 {
    let a = from_raw_parts(a, n * k);
    let b = from_raw_parts(b, k * m);
    let o = from_raw_parts_mut(out, n * m);
    let stop = stop_flag();
    if row1 - row0 >= PACK_MIN_ROWS {
        return PANEL.with(|cell| {
            let mut panel = cell.borrow_mut();
            panel.resize(k * NR, 0.0);
            packed_band_widest(a, b, o, k, m, row0, row1, &mut panel, stop)
        });
    }
    let mut i0 = row0;
    while i0 + MR <= row1 {
        if stopping(stop) {
            return 1;
        }
        let mut j0 = 0;
        while j0 + NR <= m {
            tile(a, b, m, j0, o, k, m, i0, j0);
            j0 += NR;
        }
        if edge(a, b, o, k, m, i0, i0 + MR, j0, m, stop) {
            return 1;
        }
        i0 += MR;
    }
    edge(a, b, o, k, m, i0, row1, 0, m, stop) as i32
}

const MR: usize = 4;
const NR: usize = 8;
const PACK_MIN_ROWS: usize = 2 * MR;

thread_local! {
    /// The packed k×NR panel of `b`, reused across calls on this thread.
    static PANEL: std::cell::RefCell<Vec<f64>> = std::cell::RefCell::new(Vec::new());
}

/// `packed_band` in the widest vectors the running CPU has. With AVX-512F
/// (Zen 4 here) an 8-column row of a tile is one register, half the
/// instructions of AVX2 for the same arithmetic: a 64×256×64 product went
/// from 69 to 52 µs, side by side. The feature is enabled for this
/// compute-only function alone, not through rustc flags for whole libraries:
/// with `+avx512f` on everywhere, a defrust native's first call on a new
/// thread sometimes returned garbage here (glibc 2.36; the first call is the
/// one that sets up the library's thread-locals; cause not pinned down).
/// Nothing inside touches a thread-local. Same operations per element either
/// way, so the same bits.
fn packed_band_widest(a: &[f64], b: &[f64], o: &mut [f64], k: usize, m: usize,
                      row0: usize, row1: usize, panel: &mut [f64], stop: &AtomicI32) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            return unsafe { packed_band_avx512(a, b, o, k, m, row0, row1, panel, stop) };
        }
    }
    packed_band(a, b, o, k, m, row0, row1, panel, stop)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn packed_band_avx512(a: &[f64], b: &[f64], o: &mut [f64], k: usize, m: usize,
                             row0: usize, row1: usize, panel: &mut [f64], stop: &AtomicI32) -> i32 {
    packed_band(a, b, o, k, m, row0, row1, panel, stop)
}

/// The band, panel by panel: pack b[:, j0..j0+NR], then run every row tile
/// on it; 1 when stopped early.
#[inline(always)]
fn packed_band(a: &[f64], b: &[f64], o: &mut [f64], k: usize, m: usize,
               row0: usize, row1: usize, panel: &mut [f64], stop: &AtomicI32) -> i32 {
    let mut j0 = 0;
    while j0 + NR <= m {
        if stopping(stop) {
            return 1;
        }
        for p in 0..k {
            panel[p * NR..(p + 1) * NR].copy_from_slice(&b[p * m + j0..p * m + j0 + NR]);
        }
        let mut i0 = row0;
        while i0 + MR <= row1 {
            tile(a, panel, NR, 0, o, k, m, i0, j0);
            i0 += MR;
        }
        if edge(a, b, o, k, m, i0, row1, j0, j0 + NR, stop) {
            return 1;
        }
        j0 += NR;
    }
    edge(a, b, o, k, m, row0, row1, j0, m, stop) as i32
}

/// One full MR×NR tile of `out` at (i0, j0); row p of the tile's b columns
/// is `bs[p * stride + c0 ..][..NR]` (b itself, or a packed panel).
#[inline(always)]
fn tile(a: &[f64], bs: &[f64], stride: usize, c0: usize, o: &mut [f64], k: usize, m: usize,
        i0: usize, j0: usize) {
    let mut acc = [[0.0_f64; NR]; MR];
    let rows: [&[f64]; MR] = core::array::from_fn(|r| &a[(i0 + r) * k..(i0 + r + 1) * k]);
    for p in 0..k {
        let b_row: &[f64; NR] = bs[p * stride + c0..p * stride + c0 + NR].try_into().unwrap();
        for r in 0..MR {
            let x = rows[r][p];
            for c in 0..NR {
                acc[r][c] += x * b_row[c];
            }
        }
    }
    for r in 0..MR {
        o[(i0 + r) * m + j0..(i0 + r) * m + j0 + NR].copy_from_slice(&acc[r]);
    }
}

/// Rows [i0, i1) × columns [j0, j1) of `out`, row by row (the tiles'
/// leftovers); true when stopped early.
fn edge(a: &[f64], b: &[f64], o: &mut [f64], k: usize, m: usize,
        i0: usize, i1: usize, j0: usize, j1: usize, stop: &AtomicI32) -> bool {
    if j0 >= j1 {
        return false;
    }
    for i in i0..i1 {
        if stopping(stop) {
            return true;
        }
        let a_row = &a[i * k..(i + 1) * k];
        let o_row = &mut o[i * m + j0..i * m + j1];
        for x in o_row.iter_mut() {
            *x = 0.0;
        }
        for p in 0..k {
            let x = a_row[p];
            let b_row = &b[p * m + j0..p * m + j1];
            for (y, &z) in o_row.iter_mut().zip(b_row) {
                *y += x * z;
            }
        }
    }
    false
}

// ── Lanes ────────────────────────────────────────────────────────────────
//
// A banded product runs band 0 on the calling thread and offers the other
// bands to persistent lane workers. Anyone may claim a band (a worker, or the
// caller once its own band is done), so a worker that is asleep or preempted
// never delays the product beyond running it serially, and every band runs
// the same `rusty_k_matmul_band`, so who runs it never changes a bit.
//
// Waking a sleeping thread costs ~60 µs on the VMs we measured, as much as a
// whole 1M multiply-add product; a worker therefore spins for SPIN after each
// job before it sleeps, so consecutive products hand off in about a
// microsecond, and two lanes win from the crossover up (64×32×32: 6.6 ->
// 6.2 µs; 64×256×64: 52.5 -> 31.7 µs; a MEDIUM training step: 232 -> 197 µs).
// It does not spin when there are more lanes than CPUs.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::{AcqRel, Acquire, Relaxed, Release, SeqCst}};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

const SPIN: Duration = Duration::from_millis(2);

/// The job on offer and its claims. `claim` packs the job number (high 32
/// bits) and the next unclaimed band (low 32): a claim is a compare-exchange
/// on both, so a worker that read a finished job's fields cannot claim a band
/// of the next one with them.
struct Lanes {
    claim: AtomicU64,
    job: [AtomicUsize; 7],          // a, b, out, n, k, m, rows
    bands: AtomicUsize,
    done: AtomicUsize,              // bands other than 0 finished in this job
    stopped: AtomicBool,            // a band of this job stopped for an interrupt
    by_workers: AtomicUsize,        // bands run by workers, ever (for tests)
    workers: AtomicUsize,
    sleepers: AtomicUsize,
    caller: Mutex<()>,              // one banded product at a time; others run serially
    lock: Mutex<()>,
    wake: Condvar,
    pid: u32,
}

static LANES: Mutex<Option<&'static Lanes>> = Mutex::new(None);

/// The lanes of this process (made after a fork, whose child has no workers).
fn lanes() -> &'static Lanes {
    let mut slot = LANES.lock().unwrap_or_else(|e| e.into_inner());
    match *slot {
        Some(l) if l.pid == std::process::id() => l,
        _ => {
            let l: &'static Lanes = Box::leak(Box::new(Lanes {
                claim: AtomicU64::new(0),
                job: Default::default(),
                bands: AtomicUsize::new(0),
                done: AtomicUsize::new(0),
                stopped: AtomicBool::new(false),
                by_workers: AtomicUsize::new(0),
                workers: AtomicUsize::new(0),
                sleepers: AtomicUsize::new(0),
                caller: Mutex::new(()),
                lock: Mutex::new(()),
                wake: Condvar::new(),
                pid: std::process::id(),
            }));
            *slot = Some(l);
            l
        }
    }
}

impl Lanes {
    /// Claim and run bands of the job numbered `seq` until none is left.
    unsafe fn help(&self, seq: u64, worker: bool) {
        loop {
            let c = self.claim.load(Acquire);
            let band = (c & 0xffff_ffff) as usize;
            if c >> 32 != seq {
                return;
            }
            let j: [usize; 7] = core::array::from_fn(|i| self.job[i].load(Relaxed));
            let bands = self.bands.load(Relaxed);
            if band >= bands {
                return;
            }
            if self.claim.compare_exchange(c, c + 1, AcqRel, Relaxed).is_err() {
                continue;
            }
            let (n, rows) = (j[3], j[6]);
            let row0 = band * rows;
            if rusty_k_matmul_band(j[0] as *const f64, j[1] as *const f64, j[2] as *mut f64,
                                   n, j[4], j[5], row0, (row0 + rows).min(n)) != 0 {
                self.stopped.store(true, Relaxed);
            }
            if worker {
                self.by_workers.fetch_add(1, Relaxed);
            }
            self.done.fetch_add(1, Release);
        }
    }

    fn worker(&'static self, spin: bool) {
        let mut seen = self.claim.load(Acquire) >> 32;
        loop {
            let start = Instant::now();
            let mut turns = 0u32;
            while self.claim.load(Acquire) >> 32 == seen {
                turns = turns.wrapping_add(1);
                if !spin || (turns % 1024 == 0 && start.elapsed() > SPIN) {
                    self.sleep(seen);
                } else {
                    std::hint::spin_loop();
                }
            }
            seen = self.claim.load(Acquire) >> 32;
            unsafe { self.help(seen, true) };
        }
    }

    /// Sleep until a job newer than `seen` is posted.
    fn sleep(&self, seen: u64) {
        self.sleepers.fetch_add(1, SeqCst);
        let mut g = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        while self.claim.load(SeqCst) >> 32 == seen {
            g = self.wake.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        drop(g);
        self.sleepers.fetch_sub(1, SeqCst);
    }

    fn ensure_workers(&'static self, want: usize) {
        while self.workers.load(Relaxed) < want {
            let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
            let spin = want + 1 <= cpus;
            let spawned = std::thread::Builder::new()
                .name("rusty-lane".into())
                .spawn(move || self.worker(spin));
            if spawned.is_err() {
                return;     // fewer workers: the caller claims the rest
            }
            self.workers.fetch_add(1, Relaxed);
        }
    }
}

/// The n×k by k×m product in bands of `rows` rows (the row-band split; the caller
/// computes band 0). `lanes` is the number of threads to use, the caller
/// included. Same bits as one `rusty_k_matmul_band` over all rows, and the
/// same result: 1 when a band stopped early for an interrupt, else 0.
#[no_mangle]
pub unsafe extern "C" fn rusty_k_matmul_lanes(
    a: *const f64, b: *const f64, out: *mut f64,
    n: usize, k: usize, m: usize, rows: usize, lanes_: usize,
) -> i32 {
    let rows = rows.max(1);
    let bands = (n + rows - 1) / rows;
    let l = lanes();
    let busy = l.caller.try_lock();
    if bands < 2 || lanes_ < 2 || busy.is_err() {
        return rusty_k_matmul_band(a, b, out, n, k, m, 0, n);
    }
    l.ensure_workers((lanes_ - 1).min(bands - 1).min(255));
    for (slot, v) in l.job.iter().zip([a as usize, b as usize, out as usize, n, k, m, rows]) {
        slot.store(v, Relaxed);
    }
    l.bands.store(bands, Relaxed);
    l.done.store(0, Relaxed);
    l.stopped.store(false, Relaxed);
    let seq = (l.claim.load(Relaxed) >> 32) + 1 & 0xffff_ffff;
    l.claim.store(seq << 32 | 1, SeqCst);
    if l.sleepers.load(SeqCst) > 0 {
        let _g = l.lock.lock().unwrap_or_else(|e| e.into_inner());
        l.wake.notify_all();
    }
    let mine = rusty_k_matmul_band(a, b, out, n, k, m, 0, rows.min(n));
    l.help(seq, false);
    let mut turns = 0u32;
    while l.done.load(Acquire) < bands - 1 {
        turns = turns.wrapping_add(1);
        if turns % 4096 == 0 {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
    mine | l.stopped.load(Relaxed) as i32
}

/// How many bands lane workers (not callers) have run in this process.
#[no_mangle]
pub extern "C" fn rusty_k_lanes_worker_bands() -> usize {
    lanes().by_workers.load(Relaxed)
}
