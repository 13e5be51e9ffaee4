//! `annosat finetune` on CPU, on a small subset (CI's guard that end-to-end training works).

mod common;
use common::*;

/// `annosat finetune --data SNLI --limit 40 --n NS --epochs E --batch 8` and the rest: the small
/// CPU run both tests train.
fn small_finetune(ns: &str, epochs: &str, rest: &[&str]) -> Vec<String> {
    let snli = data_dir().join("chaosnli_snli");
    let data = [
        "finetune",
        "--data",
        snli.to_str().unwrap(),
        "--limit",
        "40",
    ];
    let run = ["--n", ns, "--epochs", epochs, "--batch", "8"];
    [&data[..], &run, rest]
        .concat()
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn finetune_trains_end_to_end_and_repeats_exactly_on_cpu() {
    let dir = std::env::temp_dir().join(format!("annosat-finetune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str| -> serde_json::Value {
        let out = dir.join(name);
        let args = small_finetune(
            "1,10",
            "1",
            &["--arm", "soft", "--out", out.to_str().unwrap()],
        );
        let stdout = annosat(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(
            stdout.lines().filter(|l| l.contains("samples/s")).count(),
            2,
            "{stdout}"
        );
        serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap()
    };
    let a = run("a.json");
    let results = a["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        assert!(r["samples_per_s"].as_f64().unwrap() > 0.0);
        assert!(r["metrics"]["kl"].as_f64().unwrap().is_finite());
        assert!(r["train_loss"][0].as_f64().unwrap() > 0.0);
        assert!(
            r["encoder_max_change"].as_f64().unwrap() > 1e-6,
            "the encoder itself trains, not only the head: {r}"
        );
    }
    let b = run("b.json");
    assert_eq!(
        a["results"][1]["metrics"], b["results"][1]["metrics"],
        "same seed, same CPU result"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn finetune_top_reproduces_the_encoder_and_trains_its_top_layer() {
    let snli = data_dir().join("chaosnli_snli");
    let run = |layers: &str| -> String {
        annosat(&[
            "finetune-top",
            "--data",
            snli.to_str().unwrap(),
            "--limit",
            "60",
            "--n",
            "1",
            "--arms",
            "soft",
            "--epochs",
            "2",
            "--layers",
            layers,
        ])
    };
    let (frozen, top) = (run("0"), run("1"));
    // Cached lower layers + the (differentiable) top layer give the full encoder's embeddings.
    let diff: f64 = top
        .lines()
        .find(|l| l.contains("largest difference"))
        .and_then(|l| l.split_whitespace().last())
        .and_then(|v| v.parse().ok())
        .expect("the split check is printed");
    assert!(diff < 1e-5, "{top}");
    // Training the top layer changes the result (it would not if no gradient reached it).
    let kl = |out: &str| out.lines().find(|l| l.contains("KL")).unwrap().to_string();
    assert_ne!(kl(&frozen), kl(&top), "{frozen}\n{top}");
}

/// `finetune --shard I/S` trains every S-th N; `merge-finetune` gives one process's file (the
/// measured throughput aside), names a missing shard and refuses one run with other settings.
#[test]
fn finetune_shards_merge_into_one_run() {
    let dir = std::env::temp_dir().join(format!("annosat-finetune-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let args = |out: &std::path::Path, epochs: &str| -> Vec<String> {
        small_finetune("1,5,10", epochs, &["--out", out.to_str().unwrap()])
    };
    let run = |v: Vec<String>| -> std::process::Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_annosat"))
            .args(v)
            .output()
            .unwrap()
    };
    let one = dir.join("one.json");
    assert!(run(args(&one, "1")).status.success());
    let merged = dir.join("merged.json");
    for s in ["0/2", "1/2"] {
        let mut a = args(&merged, "1");
        a.extend(["--shard".into(), s.into()]);
        let o = run(a);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let shard1 = dir.join("merged.json.shard-1-of-2.json");
    let saved = std::fs::read(&shard1).unwrap();
    // A missing shard is named.
    std::fs::remove_file(&shard1).unwrap();
    let o = run(vec![
        "merge-finetune".into(),
        "--out".into(),
        merged.display().to_string(),
    ]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("shard(s) 1/2"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A shard run with other settings is refused.
    let mut other = args(&merged, "2");
    other.extend(["--shard".into(), "1/2".into()]);
    assert!(run(other).status.success());
    let o = run(vec![
        "merge-finetune".into(),
        "--out".into(),
        merged.display().to_string(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("other settings"));
    std::fs::write(&shard1, saved).unwrap();
    let o = run(vec![
        "merge-finetune".into(),
        "--out".into(),
        merged.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // One process's file, but for the measured throughput.
    let read = |p: &std::path::Path| -> serde_json::Value {
        let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
        for r in v["results"].as_array_mut().unwrap() {
            r.as_object_mut().unwrap().remove("samples_per_s");
        }
        v
    };
    let (a, b) = (read(&one), read(&merged));
    assert_eq!(a["results"].as_array().unwrap().len(), 3);
    assert_eq!(a, b);
    let _ = std::fs::remove_dir_all(&dir);
}
