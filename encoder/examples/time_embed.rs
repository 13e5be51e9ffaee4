//! Benchmark helper (not a test): embeds a dataset's distinct texts natively as the app's model
//! worker does (longest first, batches of 64, the given checkpoint folder) and prints the best of
//! three times. `scripts/bench-models-wasm.sh` runs it on one core beside the same work in the tab.
//!
//!   time_embed <dataset dir with votes.csv + items.jsonl> <checkpoint dir>
//!
//! A second line lists the batches' shapes (`<texts>x<tokens>`, padded), for `floor_embed`.

use annosat_encoder::Bert;
use candle_core::Device;
use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let [data, model] = a.as_slice() else {
        anyhow::bail!("usage: time_embed <dataset dir> <checkpoint dir>");
    };
    let (data, model) = (std::path::Path::new(data), std::path::Path::new(model));
    let (table, _) =
        annosat_core::parse_votes(&std::fs::read(data.join("votes.csv"))?, &Default::default())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    let body = std::fs::read_to_string(data.join("items.jsonl"))?;
    let items = annosat_encoder::texts::parse_jsonl(&body, table.item_ids(), "items.jsonl")?;
    let unique = items.unique_longest_first();
    let read = |f: &str| std::fs::read(model.join(f));
    let bert = Bert::from_bytes(
        &read("config.json")?,
        &read("tokenizer.json")?,
        read("model.safetensors")?,
        &std::fs::read_to_string(model.join("modules.json"))?,
    )?;
    let mut times = Vec::new();
    for _ in 0..3 {
        let t0 = Instant::now();
        for batch in unique.chunks(64) {
            bert.embed(batch)?;
        }
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    let best = times.iter().cloned().fold(f64::INFINITY, f64::min);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{} texts, {threads} thread(s): best of 3 {best:.0} ms ({:.0} texts/s; {times:.0?})",
        unique.len(),
        unique.len() as f64 / best * 1000.0
    );
    let mut shapes = Vec::new();
    for batch in unique.chunks(64) {
        let (_, ids, _) =
            annosat_encoder::bert::batch_inputs(&bert.tokenizer, &Device::Cpu, batch)?;
        let (b, len) = ids.dims2()?;
        shapes.push(format!("{b}x{len}"));
    }
    println!("batches: {}", shapes.join(" "));
    Ok(())
}
