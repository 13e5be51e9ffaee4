//! What the browser app accepts from a user's file, and what it says past that. The limits keep a
//! worker's memory and a computation's time bounded (each of up to four workers holds the table;
//! the curves cost items × N_max × repeats); the annosat CLI has none of them.
//!
//! Checked in order: the file size on the page before anything is read, the item count while the
//! worker reads (it stops at the first item past it), and the votes per item and total work right
//! after reading. docs/limits.md quotes these constants.

use annosat_core::import::thousands;
use annosat_core::summary::Summary;

/// Largest file the app reads (bytes): 100 MB.
pub const MAX_FILE_BYTES: f64 = 100e6;
/// Most items (a 50 MB file of 2.4 M items with 5–100 votes each, the size scripts/bench.sh
/// --scale times, is inside).
pub const MAX_ITEMS: usize = 3_000_000;
/// Most votes per item the curves draw from (the N axis runs to it): items with more are
/// subsampled to it with a note (`annosat_core::curves::cap`), never refused.
pub const MAX_VOTES_PER_ITEM: u32 = 1_000;
/// Most items × votes per item (after that cut): the size of one set of curves (3 M items up to
/// N = 100).
pub const MAX_WORK: u64 = 300_000_000;

const CLI: &str = "the annosat CLI has no such limit: annosat curves --votes FILE (docs/cli.md)";

/// The page's check before a file is handed to the workers.
pub fn check_file_size(bytes: f64) -> Result<(), String> {
    if bytes > MAX_FILE_BYTES {
        return Err(format!(
            "the file is {:.0} MB; the browser app reads files up to {:.0} MB, so it was not read — {CLI}",
            bytes / 1e6,
            MAX_FILE_BYTES / 1e6
        ));
    }
    Ok(())
}

/// The worker's check right after reading (the item count was checked while reading).
pub fn check_table(s: &Summary) -> Result<(), String> {
    let votes = s.votes_max.min(MAX_VOTES_PER_ITEM);
    let work = s.items as u64 * votes as u64;
    if work > MAX_WORK {
        return Err(format!(
            "{} items with up to {} votes each are more than the browser app computes ({} items × largest votes per item at most) — {CLI}",
            thousands(s.items),
            thousands(votes as usize),
            thousands(MAX_WORK as usize)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(items: usize, votes_max: u32) -> Summary {
        Summary {
            items,
            classes: vec!["a".into(), "b".into()],
            total_votes: 0,
            votes_min: 1,
            votes_median: 1.0,
            votes_max,
            mean_entropy_bits: 0.0,
            annotators: None,
            multilabel: false,
        }
    }

    #[test]
    fn each_limit_is_named_with_the_cli_as_the_way_on() {
        assert!(check_file_size(MAX_FILE_BYTES).is_ok());
        let e = check_file_size(211_584_232.0).unwrap_err();
        assert!(e.contains("212 MB") && e.contains("up to 100 MB"), "{e}");
        assert!(e.contains("annosat curves"), "{e}");
        assert!(check_table(&summary(MAX_ITEMS, 100)).is_ok());
        // Many votes per item are cut, not refused (a 102-face file with 2,513 ratings each).
        assert!(check_table(&summary(102, 2_513)).is_ok());
        let e = check_table(&summary(MAX_ITEMS, 101)).unwrap_err();
        assert!(e.contains("3,000,000 items with up to 101"), "{e}");
        assert!(e.contains("annosat curves"), "{e}");
    }
}
