//! The CLI's one vocabulary: argument groups shared by the subcommands, the spellings retired for
//! one release (still accepted, with a note), and the test that walks every subcommand's clap
//! definition and fails on a flag name used with two meanings.
//!
//! The words: `--n` an N list (annotators per item); `--votes` a vote file; `--split-seed` which
//! items are train / validation / test (a list where a command trains several splits),
//! `--model-seed` initialisation, minibatch order and vote subsample, and `--split-seeds` /
//! `--model-seeds` their counts; `--seed` the seed of a command's own draws (subsamples, the
//! synthetic generator); `--heldout FRACTION` the share of each item's votes kept as the reference;
//! `--bootstrap B` item resamples; `--format csv|json`.

/// The split seed and model seed of one trained run (`finetune`, `finetune-top`).
#[cfg(feature = "models")]
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct RunSeeds {
    /// Split seed: which items are train, validation and test (annosat-heads' split).
    #[arg(long = "split-seed", alias = "split", default_value_t = 42)]
    pub split_seed: u64,
    /// Model seed: initialisation, minibatch order and vote subsample.
    #[arg(long = "model-seed", alias = "seed", default_value_t = 0)]
    pub model_seed: u64,
}

/// Spellings retired in favour of the vocabulary, accepted for one release: (subcommand, old, new).
/// Each old spelling is a hidden clap alias of the new flag; [`deprecation_notes`] says so.
pub const RETIRED: &[(&str, &str, &str)] = &[
    ("sweep", "ns", "n"),
    ("sweep", "splits", "split-seed"),
    ("sweep", "seeds", "model-seeds"),
    // `merge` takes the sweep's arguments.
    ("merge", "ns", "n"),
    ("merge", "splits", "split-seed"),
    ("merge", "seeds", "model-seeds"),
    ("finetune", "ns", "n"),
    ("finetune", "split", "split-seed"),
    ("finetune", "seed", "model-seed"),
    ("finetune", "seeds", "model-seeds"),
    ("finetune-top", "ns", "n"),
    ("finetune-top", "split", "split-seed"),
    ("finetune-top", "seed", "model-seed"),
    ("plan", "seeds", "model-seeds"),
    ("worth", "splits", "split-seeds"),
    // `annotators` shares worth's split arguments (`worth_cmd::SplitArgs`).
    ("annotators", "splits", "split-seeds"),
    ("synth", "votes", "votes-per-item"),
    ("adaptive", "budgets", "n"),
    ("adaptive", "batch", "round-items"),
    ("verdicts", "check", "verify"),
    ("verdicts", "source", "pooled-source"),
];

/// One note per retired spelling in `args` (the command line, program name first).
pub fn deprecation_notes(args: &[std::ffi::OsString]) -> Vec<String> {
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let Some(cmd) = args.iter().skip(1).find(|a| !a.starts_with('-')) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    for a in args.iter().skip(1) {
        let Some(flag) = a.strip_prefix("--") else {
            continue;
        };
        let flag = flag.split('=').next().unwrap_or(flag);
        for &(c, old, new) in RETIRED {
            if c == cmd && old == flag {
                notes.push(format!(
                    "note: `annosat {cmd} --{old}` is a retired spelling, accepted in this release \
                     only: use --{new}"
                ));
            }
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use std::collections::BTreeMap;

    /// What a flag takes: its value parser's type (`AnyValueId`; its `Debug` text names the type
    /// only where clap has debug assertions, so here it is only a key). A switch is `bool`, so a
    /// flag that is a switch in one command and takes a value in another differs too. One value or
    /// a list of them (`--split-seed 42` vs `sweep --split-seed 42,43,44`) is the same meaning.
    fn kind(arg: &clap::Arg) -> String {
        format!("{:?}", arg.get_value_parser().type_id())
    }

    /// Whether `arg`'s values are of type `T`.
    fn takes<T: 'static>(arg: &clap::Arg) -> bool {
        arg.get_value_parser().type_id() == std::any::TypeId::of::<T>()
    }

    #[test]
    fn no_flag_name_has_two_meanings_across_subcommands() {
        let mut cli = crate::Cli::command();
        cli.build();
        // name → (kind → the subcommands using it so)
        let mut seen: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
        let mut words_ok = BTreeMap::new();
        for sub in cli.get_subcommands() {
            let cmd = sub.get_name().to_string();
            for arg in sub.get_arguments() {
                let Some(long) = arg.get_long() else { continue };
                let mut names = vec![long.to_string()];
                for alias in arg.get_all_aliases().unwrap_or_default() {
                    let retired = RETIRED
                        .iter()
                        .any(|&(c, old, new)| c == cmd && old == alias && new == long);
                    assert!(
                        retired,
                        "{cmd} --{long} has alias --{alias} that is not in RETIRED"
                    );
                }
                names.retain(|n| n != "help" && n != "version");
                // The vocabulary's own words take what they say.
                let word_ok = match long {
                    "votes" => Some(takes::<std::path::PathBuf>(arg)),
                    "n" => Some(takes::<u32>(arg)),
                    "split-seed" | "model-seed" | "seed" => Some(takes::<u64>(arg)),
                    "bootstrap" => Some(takes::<u32>(arg)),
                    "heldout" => Some(takes::<f64>(arg)),
                    _ => None,
                };
                if let Some(ok) = word_ok {
                    words_ok.insert(format!("{cmd} --{long}"), ok);
                }
                for n in names {
                    seen.entry(n)
                        .or_default()
                        .entry(kind(arg))
                        .or_default()
                        .push(cmd.clone());
                }
            }
        }
        let clashes: Vec<String> = seen
            .iter()
            .filter(|(_, kinds)| kinds.len() > 1)
            .map(|(n, kinds)| format!("--{n}: {kinds:?}"))
            .collect();
        assert!(
            clashes.is_empty(),
            "flags with two meanings:\n{}",
            clashes.join("\n")
        );
        let wrong: Vec<&String> = words_ok
            .iter()
            .filter(|(_, &ok)| !ok)
            .map(|(w, _)| w)
            .collect();
        assert!(
            wrong.is_empty(),
            "flags not taking their word's type: {wrong:?}"
        );
        assert!(
            words_ok.contains_key("curves --votes") && words_ok.contains_key("worth --split-seed")
        );
    }

    #[test]
    fn every_retired_spelling_still_parses_as_its_new_flag() {
        let cli = crate::Cli::command();
        for &(cmd, old, new) in RETIRED {
            let Some(sub) = cli.find_subcommand(cmd) else {
                // A candle command in the candle-free build.
                continue;
            };
            let arg = sub
                .get_arguments()
                .find(|a| a.get_long() == Some(new))
                .unwrap_or_else(|| panic!("{cmd} has no --{new}"));
            let aliases = arg.get_all_aliases().unwrap_or_default();
            assert!(aliases.contains(&old), "{cmd} --{new} lacks alias --{old}");
        }
    }

    #[test]
    fn retired_spellings_are_noted_and_new_ones_are_not() {
        let args = |s: &str| {
            s.split(' ')
                .map(std::ffi::OsString::from)
                .collect::<Vec<_>>()
        };
        let notes = deprecation_notes(&args("annosat sweep --ns=1,10 --data d --splits 42"));
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("use --n"));
        assert!(deprecation_notes(&args("annosat sweep --n 1,10 --split-seed 42")).is_empty());
        // The same word is not retired in another command.
        assert!(deprecation_notes(&args("annosat curves --votes v.csv --seed 3")).is_empty());
    }
}
