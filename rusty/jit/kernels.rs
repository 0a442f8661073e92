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
    let (a, o) = (from_raw_parts(a, n * m), from_raw_parts_mut(out, n * m));
    for i in 0..n {
        for j in 0..m {
            o[j * n + i] = a[i * m + j];
        }
    }
}

/// Rows [row0, row1) of the n×k by k×m product, in the §10 order: each output
/// row starts at +0.0; for p ascending, for j: out[i][j] += a[i][p] * b[p][j].
/// Bands touch disjoint rows of `out`, so several may run at once.
#[no_mangle]
pub unsafe extern "C" fn rusty_k_matmul_band(
    a: *const f64, b: *const f64, out: *mut f64,
    n: usize, k: usize, m: usize, row0: usize, row1: usize,
) {
    let a = from_raw_parts(a, n * k);
    let b = from_raw_parts(b, k * m);
    let o = from_raw_parts_mut(out.add(row0 * m), (row1 - row0) * m);
    for i in row0..row1 {
        let a_row = &a[i * k..(i + 1) * k];
        let o_row = &mut o[(i - row0) * m..(i - row0 + 1) * m];
        for x in o_row.iter_mut() {
            *x = 0.0;
        }
        for p in 0..k {
            let x = a_row[p];
            let b_row = &b[p * m..(p + 1) * m];
            for j in 0..m {
                o_row[j] += x * b_row[j];
            }
        }
    }
}
