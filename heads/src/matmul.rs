//! Calls into candle's GEMM and the small parallel loops around them, for the heads' layers
//! computed outside candle's autograd ([`crate::first_layer`], [`crate::second_layer`]).

/// Runs each job, on threads natively (the last on this one), one after another in wasm32.
pub(crate) fn in_parallel<F: FnOnce() + Send>(jobs: impl Iterator<Item = F>) {
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::scope(|s| {
        let mut jobs = jobs.peekable();
        while let Some(job) = jobs.next() {
            if jobs.peek().is_none() {
                job();
            } else {
                s.spawn(job);
            }
        }
    });
    #[cfg(target_arch = "wasm32")]
    jobs.for_each(|job| job());
}

/// How many of `n` items one core's part holds when they are cut into one part per core.
fn part_len(n: usize) -> usize {
    n.div_ceil(threads().min(n).max(1)).max(1)
}

/// `items.iter().map(f)` with the items cut into one contiguous part per core, each mapped on
/// its own thread (serially in wasm32 and inside [`serially`]); the results come back in item
/// order, so they are the serial map's whatever the core count. For the group's work outside the
/// training loop (targets, neighbours, metrics), which would otherwise leave the other cores idle.
pub(crate) fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let per = part_len(items.len());
    let mut parts: Vec<Vec<R>> = (0..items.len().div_ceil(per)).map(|_| Vec::new()).collect();
    let f = &f;
    in_parallel(
        parts
            .iter_mut()
            .zip(items.chunks(per))
            .map(|(out, chunk)| move || out.extend(chunk.iter().map(f))),
    );
    parts.into_iter().flatten().collect()
}

/// `items.iter_mut().for_each(f)` with one contiguous part of the items per core, as [`par_map`].
pub(crate) fn par_each_mut<T: Send>(items: &mut [T], f: impl Fn(&mut T) + Sync) {
    let per = part_len(items.len());
    let f = &f;
    in_parallel(
        items
            .chunks_mut(per)
            .map(|chunk| move || chunk.iter_mut().for_each(f)),
    );
}

/// Runs `f(first, a_part, b_part)` on parts of `a` and `b` cut at the same rows of `row`
/// elements, one part per core (`first`: the part's first row); serially in wasm32.
pub(crate) fn par_zip(
    a: &mut [f32],
    b: &mut [f32],
    row: usize,
    f: impl Fn(usize, &mut [f32], &mut [f32]) + Sync,
) {
    let rows = a.len() / row.max(1);
    let per = part_len(rows) * row.max(1);
    let f = &f;
    in_parallel(
        a.chunks_mut(per)
            .zip(b.chunks_mut(per))
            .enumerate()
            .map(|(i, (pa, pb))| move || f(i * per / row.max(1), pa, pb)),
    );
}

/// The cores the layers' loops and the optimiser split their work over: 1 in wasm32 and inside
/// [`serially`]. Read once: `available_parallelism` reads cgroup files on every call.
pub(crate) fn threads() -> usize {
    #[cfg(target_arch = "wasm32")]
    return 1;
    #[cfg(not(target_arch = "wasm32"))]
    {
        static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        if SERIAL.get() {
            return 1;
        }
        *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

thread_local! {
    static SERIAL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every kernel of this module on the calling thread alone: gemm without its thread
/// pool, the loops unsplit. For work that is already one job per core ([`crate::shard`]); gemm
/// sums each output element in the same order either way, so the bits do not change.
pub fn serially<T>(f: impl FnOnce() -> T) -> T {
    let was = SERIAL.replace(true);
    let out = f();
    SERIAL.set(was);
    out
}

/// `dst = lhs · rhs` for `dst` of `(m, n)` with row stride `dst_rs` (column stride 1), reducing over
/// `k`; `lhs` and `rhs` are given with their column and row strides. The gemm call candle-core
/// 0.11's CPU matmul makes (alpha 0, beta 1, its thread count), so the results are candle's bit for
/// bit: gemm sums each element's k products in the same order whatever the strides, so a head's
/// columns read in place equal candle's contiguous copy of them.
pub fn matmul(
    (m, n, k): (usize, usize, usize),
    (dst, dst_rs): (&mut [f32], usize),
    (lhs, lhs_cs, lhs_rs): (&[f32], usize, usize),
    (rhs, rhs_cs, rhs_rs): (&[f32], usize, usize),
) {
    assert!(m == 0 || n == 0 || (n <= dst_rs && dst.len() > (m - 1) * dst_rs + (n - 1)));
    assert!(m == 0 || k == 0 || lhs.len() > (m - 1) * lhs_rs + (k - 1) * lhs_cs);
    assert!(n == 0 || k == 0 || rhs.len() > (k - 1) * rhs_rs + (n - 1) * rhs_cs);
    // Candle asks for its thread count on every matmul; it reads /proc and cgroup files each time.
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let threads = *THREADS.get_or_init(candle_core::utils::get_num_threads);
    let parallelism = if threads > 1 && !SERIAL.get() {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    // SAFETY: the asserts above keep every index gemm reads or writes inside the slices.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            dst_rs as isize,
            false,
            lhs.as_ptr(),
            lhs_cs as isize,
            lhs_rs as isize,
            rhs.as_ptr(),
            rhs_cs as isize,
            rhs_rs as isize,
            0.0,
            1.0,
            false,
            false,
            false,
            parallelism,
        )
    }
}
