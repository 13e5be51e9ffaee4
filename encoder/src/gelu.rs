//! GELU (the erf form, BERT's `hidden_act = "gelu"`) computed in vector lanes, returning exactly
//! the bits candle-core's `gelu_erf` returns for every f32.
//!
//! Why: candle's CPU `gelu_erf` calls libm's scalar `erff` per value (two `expf` calls and
//! data-dependent branches), which was about a quarter of `annosat embed`'s time, as much as the
//! matrix products. Here every branch of libm 0.2.16's `erff` and `expf` (FreeBSD's `s_erff.c` and
//! `e_expf.c`) is computed for every lane, with the same operations in the same order, and the lane
//! keeps the branch libm would have taken. The compiler vectorises that straight-line code (SSE2,
//! AVX2 or AVX-512 picked at run time on x86_64, simd128 in wasm32); elementwise IEEE operations
//! round the same at any width, so the result does not depend on the CPU. The committed features
//! and exports therefore do not change. `equals_candle_on_every_f32` (ignored: minutes) checks all
//! 2³² inputs; the default tests check a strided subset and the values a BERT layer produces.

// libm's coefficients exactly as libm writes them (decimal, one digit more than f32 holds), so
// they can be read against its source; each rounds to the same f32.
#![allow(clippy::excessive_precision)]

use candle_core::{CpuStorage, CustomOp1, Layout, Shape, Tensor};

const ERX: f32 = 8.4506291151e-01;
const EFX8: f32 = 1.0270333290e+00;
const PP: [f32; 5] = [
    1.2837916613e-01,
    -3.2504209876e-01,
    -2.8481749818e-02,
    -5.7702702470e-03,
    -2.3763017452e-05,
];
const QQ: [f32; 5] = [
    3.9791721106e-01,
    6.5022252500e-02,
    5.0813062117e-03,
    1.3249473704e-04,
    -3.9602282413e-06,
];
const PA: [f32; 7] = [
    -2.3621185683e-03,
    4.1485610604e-01,
    -3.7220788002e-01,
    3.1834661961e-01,
    -1.1089469492e-01,
    3.5478305072e-02,
    -2.1663755178e-03,
];
const QA: [f32; 6] = [
    1.0642088205e-01,
    5.4039794207e-01,
    7.1828655899e-02,
    1.2617121637e-01,
    1.3637083583e-02,
    1.1984500103e-02,
];
const RA: [f32; 8] = [
    -9.8649440333e-03,
    -6.9385856390e-01,
    -1.0558626175e+01,
    -6.2375331879e+01,
    -1.6239666748e+02,
    -1.8460508728e+02,
    -8.1287437439e+01,
    -9.8143291473e+00,
];
const SA: [f32; 8] = [
    1.9651271820e+01,
    1.3765776062e+02,
    4.3456588745e+02,
    6.4538726807e+02,
    4.2900814819e+02,
    1.0863500214e+02,
    6.5702495575e+00,
    -6.0424413532e-02,
];
const RB: [f32; 7] = [
    -9.8649431020e-03,
    -7.9928326607e-01,
    -1.7757955551e+01,
    -1.6063638306e+02,
    -6.3756646729e+02,
    -1.0250950928e+03,
    -4.8351919556e+02,
];
const SB: [f32; 7] = [
    3.0338060379e+01,
    3.2579251099e+02,
    1.5367296143e+03,
    3.1998581543e+03,
    2.5530502930e+03,
    4.7452853394e+02,
    -2.2440952301e+01,
];

/// `c[0] + s·(c[1] + s·(… + s·c[n−1]))`: Horner's rule innermost first, as libm writes it.
#[inline(always)]
fn horner(s: f32, c: &[f32]) -> f32 {
    let mut acc = c[c.len() - 1];
    for &k in c[..c.len() - 1].iter().rev() {
        acc = k + s * acc;
    }
    acc
}

/// `1 + s·(c[0] + s·(… ))`: the denominators, whose constant term libm writes as `1.0 +`.
#[inline(always)]
fn one_plus(s: f32, c: &[f32]) -> f32 {
    1.0 + s * horner(s, c)
}

/// libm's `expf` without its branches, for arguments above −87 (erf's arguments are in
/// [−37, 1]): both argument reductions are computed and the lane keeps the one libm picks.
#[inline(always)]
fn expf_lane(x: f32) -> f32 {
    const LN2_HI: f32 = 6.9314575195e-01;
    const LN2_LO: f32 = 1.4286067653e-06;
    const INV_LN2: f32 = 1.4426950216e+00;
    const P1: f32 = 1.6666625440e-1;
    const P2: f32 = -2.7667332906e-3;
    let bits = x.to_bits();
    let sign = (bits >> 31) as i32;
    let hx = bits & 0x7fff_ffff;
    let half = if sign != 0 { -0.5 } else { 0.5 };
    let k_far = (INV_LN2 * x + half) as i32;
    let k = if hx > 0x3f85_1592 {
        k_far
    } else {
        1 - sign - sign
    };
    let kf = k as f32;
    let reduce = hx > 0x3eb1_7218;
    let hi = if reduce { x - kf * LN2_HI } else { x };
    let lo = if reduce { kf * LN2_LO } else { 0.0 };
    let k = if reduce { k } else { 0 };
    let r = if reduce { hi - lo } else { x };
    let rr = r * r;
    let c = r - rr * (P1 + rr * P2);
    let y = 1.0 + (r * c / (2.0 - c) - lo + hi);
    // scalbnf(y, k) for k in [−126, 127] is one multiplication by 2^k (k = 0: y itself).
    let scaled = y * f32::from_bits(((0x7f + k) as u32) << 23);
    if hx > 0x3900_0000 {
        scaled
    } else {
        1.0 + x
    }
}

/// libm's `erff(x)` for finite `x`, every branch computed.
#[inline(always)]
fn erf_lane(x: f32) -> f32 {
    let bits = x.to_bits();
    let ix = bits & 0x7fff_ffff;
    let ax = f32::from_bits(ix);
    // |x| < 0.84375
    let z = x * x;
    let small = x + x * (horner(z, &PP) / one_plus(z, &QQ));
    let tiny = 0.125 * (8.0 * x + EFX8 * x);
    // 0.84375 ≤ |x| < 1.25: erfc1
    let s = ax - 1.0;
    let erfc1 = 1.0 - ERX - horner(s, &PA) / one_plus(s, &QA);
    // 1.25 ≤ |x| < 6: erfc2
    let s = 1.0 / (ax * ax);
    let near = ix < 0x4036_db6d;
    let r = if near { horner(s, &RA) } else { horner(s, &RB) };
    let big_s = if near {
        one_plus(s, &SA)
    } else {
        one_plus(s, &SB)
    };
    let zt = f32::from_bits(ix & 0xffff_e000);
    let erfc2 = expf_lane(-zt * zt - 0.5625) * expf_lane((zt - ax) * (zt + ax) + r / big_s) / ax;
    let erfc = if ix < 0x3fa0_0000 { erfc1 } else { erfc2 };
    let y = if ix < 0x40c0_0000 {
        1.0 - erfc
    } else {
        1.0 - f32::from_bits(0x0380_0000)
    };
    let signed = if bits >> 31 != 0 { -y } else { y };
    if ix < 0x3180_0000 {
        tiny
    } else if ix < 0x3f58_0000 {
        small
    } else {
        signed
    }
}

/// candle-core's `GeluErf::f32`: `(erf(v/√2) + 1)·0.5·v`.
#[inline(always)]
fn gelu_lane(v: f32) -> f32 {
    (erf_lane(v * std::f32::consts::FRAC_1_SQRT_2) + 1.) * 0.5 * v
}

#[inline(always)]
fn gelu_slice_generic(xs: &[f32], ys: &mut [f32]) {
    for (y, &x) in ys.iter_mut().zip(xs) {
        *y = gelu_lane(x);
    }
    // Infinities and NaN (never in a BERT layer) take libm's own path, so every f32 agrees.
    for (y, &x) in ys.iter_mut().zip(xs) {
        if !x.is_finite() {
            *y = (libm_erf(x * std::f32::consts::FRAC_1_SQRT_2) + 1.) * 0.5 * x;
        }
    }
}

/// libm's `erff` for non-finite inputs: ±1 at ±∞, NaN at NaN.
fn libm_erf(x: f32) -> f32 {
    let sign = (x.to_bits() >> 31) as f32;
    1.0 - 2.0 * sign + 1.0 / x
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn gelu_slice_avx512(xs: &[f32], ys: &mut [f32]) {
    gelu_slice_generic(xs, ys)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn gelu_slice_avx2(xs: &[f32], ys: &mut [f32]) {
    gelu_slice_generic(xs, ys)
}

/// `ys[i] = gelu_erf(xs[i])` in the widest vectors this CPU has (same bits at every width).
pub fn gelu_slice(xs: &[f32], ys: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F (checked above).
            return unsafe { gelu_slice_avx512(xs, ys) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked above).
            return unsafe { gelu_slice_avx2(xs, ys) };
        }
    }
    gelu_slice_generic(xs, ys)
}

/// Elements per unit of parallel work, as candle's own elementwise ops split theirs.
const CHUNK: usize = 16 * 1024;

/// The op: contiguous f32 on the CPU through [`gelu_slice`] on candle's thread pool; anything
/// else (other dtypes, strided views) is refused, and [`gelu_erf`] sends it to candle instead.
struct GeluErf;

impl CustomOp1 for GeluErf {
    fn name(&self) -> &'static str {
        "annosat-gelu-erf"
    }

    fn cpu_fwd(
        &self,
        storage: &CpuStorage,
        layout: &Layout,
    ) -> candle_core::Result<(CpuStorage, Shape)> {
        let (CpuStorage::F32(v), Some((start, end))) = (storage, layout.contiguous_offsets())
        else {
            candle_core::bail!("annosat-gelu-erf: contiguous f32 only");
        };
        let xs = &v[start..end];
        let mut ys = vec![0f32; xs.len()];
        let out = ys.as_mut_ptr() as usize;
        candle_core::utils::barrier_pool().execute_chunked(xs.len().div_ceil(CHUNK), |units| {
            let (lo, hi) = (units.start * CHUNK, xs.len().min(units.end * CHUNK));
            // SAFETY: each unit range is handed to exactly one thread, so the slices are disjoint.
            let dst = unsafe { std::slice::from_raw_parts_mut((out as *mut f32).add(lo), hi - lo) };
            gelu_slice(&xs[lo..hi], dst);
        });
        Ok((CpuStorage::F32(ys), layout.shape().clone()))
    }
}

/// `xs.gelu_erf()` with the same bits, faster on the CPU; no backward pass (frozen encoders only).
pub fn gelu_erf(xs: &Tensor) -> candle_core::Result<Tensor> {
    if xs.device().is_cpu() && xs.dtype() == candle_core::DType::F32 && xs.is_contiguous() {
        xs.apply_op1_no_bwd(&GeluErf)
    } else {
        xs.gelu_erf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    /// Our bits against candle's `gelu_erf` for `inputs` (NaN matches NaN).
    fn mismatches(inputs: Vec<f32>) -> Vec<(f32, f32, f32)> {
        let t = Tensor::from_vec(inputs.clone(), inputs.len(), &Device::Cpu).unwrap();
        let want = t.gelu_erf().unwrap().to_vec1::<f32>().unwrap();
        let got = gelu_erf(&t).unwrap().to_vec1::<f32>().unwrap();
        inputs
            .into_iter()
            .zip(want.into_iter().zip(got))
            .filter(|(_, (w, g))| w.to_bits() != g.to_bits() && !(w.is_nan() && g.is_nan()))
            .map(|(x, (w, g))| (x, w, g))
            .collect()
    }

    fn first_mismatches(bad: &[(f32, f32, f32)]) -> String {
        bad.iter()
            .take(5)
            .map(|(x, w, g)| format!("x={x:e} ({:#x}): candle {w:e}, ours {g:e}", x.to_bits()))
            .collect::<Vec<_>>()
            .join("; ")
    }

    #[test]
    fn equals_candle_on_a_strided_subset_of_every_f32() {
        // A stride coprime with 2³² visits every exponent and both signs, and every branch.
        let inputs: Vec<f32> = (0..(1u64 << 32))
            .step_by(1021)
            .map(|b| f32::from_bits(b as u32))
            .collect();
        assert_matches_candle(inputs);
    }

    /// Our bits equal candle's for `inputs`, at the widest vectors this CPU has and at every
    /// narrower width.
    fn assert_matches_candle(inputs: Vec<f32>) {
        let widest = {
            let mut y = vec![0f32; inputs.len()];
            gelu_slice(&inputs, &mut y);
            y
        };
        let mut y = vec![0f32; inputs.len()];
        gelu_slice_generic(&inputs, &mut y);
        assert!(same_bits(&y, &widest), "baseline width differs");
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            unsafe { gelu_slice_avx2(&inputs, &mut y) };
            assert!(same_bits(&y, &widest), "AVX2 differs");
        }
        let bad = mismatches(inputs);
        assert!(
            bad.is_empty(),
            "{} differ: {}",
            bad.len(),
            first_mismatches(&bad)
        );
    }

    fn same_bits(a: &[f32], b: &[f32]) -> bool {
        a.iter()
            .zip(b)
            .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
    }

    #[test]
    fn equals_candle_near_every_branch_edge() {
        // libm's thresholds (|x|/√2 at 2⁻²⁸, 0.84375, 1.25, 1/0.35, 6; expf's 0.5·ln2, 1.5·ln2),
        // ±64 ulps around each, both signs.
        let edges = [
            0x3180_0000u32,
            0x3f58_0000,
            0x3fa0_0000,
            0x4036_db6d,
            0x40c0_0000,
            0x3eb1_7218,
            0x3f85_1592,
        ];
        let mut inputs = Vec::new();
        for e in edges {
            for d in -64i32..=64 {
                let erf_arg = f32::from_bits(e.wrapping_add_signed(d));
                let v = erf_arg * std::f32::consts::SQRT_2;
                inputs.extend([v, -v, erf_arg, -erf_arg]);
            }
        }
        inputs.extend([
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN,
        ]);
        assert_matches_candle(inputs);
    }

    #[test]
    fn strided_views_go_to_candle() {
        let t = Tensor::arange(0f32, 12., &Device::Cpu)
            .unwrap()
            .reshape((3, 4))
            .unwrap()
            .t()
            .unwrap();
        let want = t.gelu_erf().unwrap().to_vec2::<f32>().unwrap();
        assert_eq!(gelu_erf(&t).unwrap().to_vec2::<f32>().unwrap(), want);
    }

    /// All 2³² inputs, 2¹⁶ at a time, at every width: `cargo test -p annosat-encoder --release --
    /// --ignored`.
    #[test]
    #[ignore]
    fn equals_candle_on_every_f32() {
        let mut total = 0usize;
        for hi in 0..(1u32 << 16) {
            let inputs: Vec<f32> = (0..(1u32 << 16))
                .map(|lo| f32::from_bits(hi << 16 | lo))
                .collect();
            assert_matches_candle(inputs);
            total += 1 << 16;
        }
        assert_eq!(total, 1usize << 32);
    }
}
