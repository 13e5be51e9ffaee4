//! Times one curve computation on one thread:
//! `cargo run --release --example time_curves -- VOTES.csv [repeats] [CURVES_OUT.csv|-] [runs]` (the
//! CSV is what `annosat curves` prints; scripts/bench.sh checks the numpy timing's means against it;
//! `runs`, default 5, is how many timings the best is taken of).
use annosat_core::curves::{compute, CurveConfig};
use annosat_core::{parse_votes, ImportOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: time_curves VOTES.csv [repeats]");
    let repeats = args.next().map(|r| r.parse().unwrap()).unwrap_or(50);
    let out = args.next().filter(|o| o != "-");
    let runs: usize = args.next().map(|r| r.parse().unwrap()).unwrap_or(5);
    let (table, _) =
        parse_votes(&std::fs::read(&path).unwrap(), &ImportOptions::default()).unwrap();
    let cfg = CurveConfig {
        repeats,
        ..Default::default()
    };
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let t = std::time::Instant::now();
        let c = compute(&table, &cfg).unwrap();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        if let Some(out) = &out {
            std::fs::write(out, c.to_csv()).unwrap();
        }
        std::hint::black_box(c);
    }
    println!(
        "{path}: {} items, N up to {}, {repeats} repeats: best of {runs} {best:.1} ms",
        table.num_items(),
        table.max_total()
    );
}
