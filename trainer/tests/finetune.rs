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
            "--ns",
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
