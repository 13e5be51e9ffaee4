//! `annosat finetune` on CPU, on a small subset (CI's guard that end-to-end training works).

mod common;
use common::*;

#[test]
fn finetune_trains_end_to_end_and_repeats_exactly_on_cpu() {
    let snli = data_dir().join("chaosnli_snli");
    let dir = std::env::temp_dir().join(format!("annosat-finetune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str| -> serde_json::Value {
        let out = dir.join(name);
        let stdout = annosat(&[
            "finetune",
            "--data",
            snli.to_str().unwrap(),
            "--limit",
            "40",
            "--ns",
            "1,10",
            "--epochs",
            "1",
            "--batch",
            "8",
            "--arm",
            "soft",
            "--out",
            out.to_str().unwrap(),
        ]);
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
    }
    let b = run("b.json");
    assert_eq!(
        a["results"][1]["metrics"], b["results"][1]["metrics"],
        "same seed, same CPU result"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
