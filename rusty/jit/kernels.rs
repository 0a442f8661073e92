// Native tensor kernels for rusty (LANGUAGE.md §10, §13), built once through
// the JIT cache by rusty/jit/kernels.py. Every kernel gives the same bits as
// the pure-Python reference in rusty/tensor.py: sums run sequentially from
// +0.0, matmul accumulates each element over p ascending, multiply and add are
// separate operations (Rust never contracts them into an FMA and never
// reassociates float arithmetic), so vectorising across independent elements
// changes speed, not values.
//
// Pointers come from the caller's `array('d')` buffers; `out` never aliases an
// input. Lengths are element counts.

use std::slice::{from_raw_parts, from_raw_parts_mut};

macro_rules! elementwise {
    ($tt:ident, $ts:ident, $st:ident, $op:tt) => {
        #[no_mangle]
        pub unsafe extern "C" fn $tt(a: *const f64, b: *const f64, out: *mut f64, n: usize) {
            let (a, b, o) = (from_raw_parts(a, n), from_raw_parts(b, n), from_raw_parts_mut(out, n));
            for i in 0..n {
                o[i] = a[i] $op b[i];
            }
        }

        #[no_mangle]
        pub unsafe extern "C" fn $ts(a: *const f64, s: f64, out: *mut f64, n: usize) {
            let (a, o) = (from_raw_parts(a, n), from_raw_parts_mut(out, n));
            for i in 0..n {
                o[i] = a[i] $op s;
            }
        }

        #[no_mangle]
        pub unsafe extern "C" fn $st(s: f64, b: *const f64, out: *mut f64, n: usize) {
            let (b, o) = (from_raw_parts(b, n), from_raw_parts_mut(out, n));
            for i in 0..n {
                o[i] = s $op b[i];
            }
        }
    };
}

elementwise!(rusty_k_add_tt, rusty_k_add_ts, rusty_k_add_st, +);
elementwise!(rusty_k_sub_tt, rusty_k_sub_ts, rusty_k_sub_st, -);
elementwise!(rusty_k_mul_tt, rusty_k_mul_ts, rusty_k_mul_st, *);
elementwise!(rusty_k_div_tt, rusty_k_div_ts, rusty_k_div_st, /);

/// acc ← +0.0; acc ← acc + x over the elements in order.
#[no_mangle]
pub unsafe extern "C" fn rusty_k_sum(a: *const f64, n: usize) -> f64 {
    let a = from_raw_parts(a, n);
    let mut acc = 0.0_f64;
    for &x in a {
        acc += x;
    }
    acc
}

/// x if x > 0 else +0.0 (NaN gives +0.0).
#[no_mangle]
pub unsafe extern "C" fn rusty_k_relu(a: *const f64, out: *mut f64, n: usize) {
    let (a, o) = (from_raw_parts(a, n), from_raw_parts_mut(out, n));
    for i in 0..n {
        o[i] = if a[i] > 0.0 { a[i] } else { 0.0 };
    }
}

/// 1.0 if x > 0 else 0.0.
#[no_mangle]
pub unsafe extern "C" fn rusty_k_step(a: *const f64, out: *mut f64, n: usize) {
    let (a, o) = (from_raw_parts(a, n), from_raw_parts_mut(out, n));
    for i in 0..n {
        o[i] = if a[i] > 0.0 { 1.0 } else { 0.0 };
    }
}

/// The m×n transpose of an n×m matrix.
#[no_mangle]
pub unsafe extern "C" fn rusty_k_transpose(a: *const f64, out: *mut f64, n: usize, m: usize) {
    const B: usize = 8;     // square blocks keep both sides in cache (8 measured best)
    let (a, o) = (from_raw_parts(a, n * m), from_raw_parts_mut(out, n * m));
    for i0 in (0..n).step_by(B) {
        for j0 in (0..m).step_by(B) {
            for i in i0..(i0 + B).min(n) {
                for j in j0..(j0 + B).min(m) {
                    o[j * n + i] = a[i * m + j];
                }
            }
        }
    }
}

/// Rows [row0, row1) of the n×k by k×m product, in the §10 order: every
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
#[no_mangle]
pub unsafe extern "C" fn rusty_k_matmul_band(
    a: *const f64, b: *const f64, out: *mut f64,
    n: usize, k: usize, m: usize, row0: usize, row1: usize,
) {
    let a = from_raw_parts(a, n * k);
    let b = from_raw_parts(b, k * m);
    let o = from_raw_parts_mut(out, n * m);
    if row1 - row0 >= PACK_MIN_ROWS {
        PANEL.with(|cell| {
            let mut panel = cell.borrow_mut();
            panel.resize(k * NR, 0.0);
            packed_band(a, b, o, k, m, row0, row1, &mut panel);
        });
        return;
    }
    let mut i0 = row0;
    while i0 + MR <= row1 {
        let mut j0 = 0;
        while j0 + NR <= m {
            tile(a, b, m, j0, o, k, m, i0, j0);
            j0 += NR;
        }
        edge(a, b, o, k, m, i0, i0 + MR, j0, m);
        i0 += MR;
    }
    edge(a, b, o, k, m, i0, row1, 0, m);
}

const MR: usize = 4;
const NR: usize = 8;
const PACK_MIN_ROWS: usize = 2 * MR;

thread_local! {
    /// The packed k×NR panel of `b`, reused across calls on this thread.
    static PANEL: std::cell::RefCell<Vec<f64>> = std::cell::RefCell::new(Vec::new());
}

/// The band, panel by panel: pack b[:, j0..j0+NR], then run every row tile on it.
fn packed_band(a: &[f64], b: &[f64], o: &mut [f64], k: usize, m: usize,
               row0: usize, row1: usize, panel: &mut [f64]) {
    let mut j0 = 0;
    while j0 + NR <= m {
        for p in 0..k {
            panel[p * NR..(p + 1) * NR].copy_from_slice(&b[p * m + j0..p * m + j0 + NR]);
        }
        let mut i0 = row0;
        while i0 + MR <= row1 {
            tile(a, panel, NR, 0, o, k, m, i0, j0);
            i0 += MR;
        }
        edge(a, b, o, k, m, i0, row1, j0, j0 + NR);
        j0 += NR;
    }
    edge(a, b, o, k, m, row0, row1, j0, m);
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

/// Rows [i0, i1) × columns [j0, j1) of `out`, row by row (the tiles' leftovers).
fn edge(a: &[f64], b: &[f64], o: &mut [f64], k: usize, m: usize,
        i0: usize, i1: usize, j0: usize, j1: usize) {
    if j0 >= j1 {
        return;
    }
    for i in i0..i1 {
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
}
