//! Every committed seed and every input a fuzzer once crashed on (`regressions/<target>/`), run
//! through the targets' bodies natively: a fixed crash stays fixed (`cargo test` in tests/fuzz,
//! part of scripts/test.sh).

use std::path::Path;

fn each_input(target: &str, run: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for e in entries {
            let path = e.unwrap().path();
            if path.file_name().is_some_and(|f| f == ".gitkeep") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            eprintln!("{target}: {}", path.display());
            run(&bytes);
            n += 1;
        }
    }
    n
}

#[test]
fn import_csv_inputs() {
    assert!(each_input("import_csv", annosat_fuzz::import_csv) >= 10);
}

#[test]
fn bundle_decode_inputs() {
    assert!(each_input("bundle_decode", annosat_fuzz::bundle_decode) >= 2);
}

#[test]
fn manifest_inputs() {
    assert!(each_input("manifest", annosat_fuzz::manifest) >= 4);
}
