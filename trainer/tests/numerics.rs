//! The premise of the exports' bit-identity across CPUs (docs/bit-identity.md): gemm,
//! candle's CPU matmul, splits a reduction over k terms into blocks whose size it derives from this
//! CPU's L1 cache, which changes the float sums — but never a reduction of 512 terms or fewer. Every
//! product in the sweep's heads reduces over at most 268 terms (256 PCA components + 12 alignment
//! features), so training from fixed features
//! gives the same bits on every CPU. This test checks that premise on the machine it runs on, and
//! prints how the encoder's 1,536-term feed-forward reduction is split here (that one depends on the
//! CPU, which is why the head features are committed).
//!
//! gemm-common is pinned to the version candle's gemm uses (Cargo.lock); the f32 FMA kernels'
//! register blocks (gemm-f32's `microkernel_fn_array`) are 16 × 6 with AVX2 (2 packs of 8 lanes ×
//! 6 columns) and 64 × 6 with AVX-512 (feature `x86-v4`, on in heads/Cargo.toml: 4 packs of 16).

use gemm_common::cache::{kernel_params, CACHE_INFO};

/// Rows per register block of the AVX2 and the AVX-512 kernel.
const MRS: [usize; 2] = [16, 64];
const NR: usize = 6;
const F32: usize = 4;

#[test]
fn gemm_never_splits_the_heads_reductions() {
    // k: head-feature width (256, or 268 with the alignment block), hidden units (64), minibatch
    // (64), classes (2-3), and the 512 bound itself.
    // m × n: a minibatch or a split's items × the ~110 stacked heads' hidden units, and the reverse.
    for k in [2, 3, 64, 256, 268, 512] {
        for (m, n) in [(64, 7040), (1211, 7040), (152, 7040), (7040, 64), (64, 3)] {
            for mr in MRS {
                let p = kernel_params(m, n, k, mr, NR, F32);
                assert_eq!(
                    p.kc, k,
                    "gemm would split a {k}-term reduction (m={m}, n={n}, {mr}-row kernel) into blocks of {}",
                    p.kc
                );
            }
        }
    }
}

#[test]
fn prints_how_this_cpu_splits_the_encoders_reductions() {
    let c = &*CACHE_INFO;
    let [avx2, avx512] = MRS.map(|mr| kernel_params(4096, 384, 1536, mr, NR, F32).kc);
    eprintln!(
        "this CPU as gemm sees it: L1d {} KiB {}-way, L2 {} KiB; MiniLM's 1,536-term reduction in blocks of {avx2} terms with the AVX2 kernel, {avx512} with the AVX-512 one",
        c[0].cache_bytes / 1024,
        c[0].associativity,
        c[1].cache_bytes / 1024,
    );
    for kc in [avx2, avx512] {
        assert!((512..=1536).contains(&kc));
    }
}
