//! The jobs the first worker runs on its table ([`Job`]): the Plan room's tools, the Sources
//! room's measurement and annotator ranking, the Target room's interval over annotators. Pure
//! functions of the tables (no worker plumbing), so `worker.rs` only routes messages to them.

use crate::limits;
use crate::protocol::{CompareJob, Job, JobOutcome, PlanJob, PlanOutcome, WorthJob};
use annosat_core::curves::crossed::AnnotatorSpread;
use annosat_core::extrapolate::extrapolate;
use annosat_core::VoteTable;

/// Runs `job` on the file as read (`file`, who voted included) or on the table the curves read
/// (`curves`: the file with ragged items cut, `curves::cap`), as the job's CLI command does.
pub fn run(
    job: Job,
    file: &VoteTable,
    curves: &VoteTable,
    progress: &mut dyn FnMut(f64),
) -> Result<JobOutcome, String> {
    match job {
        Job::Plan(job) => {
            plan(file, curves, job, progress).map(|o| JobOutcome::Planned(Box::new(o)))
        }
        Job::Worth(job) => {
            let (report, notes) = measure_source(file, job, progress)?;
            Ok(JobOutcome::Worthed {
                report: Box::new(report),
                notes,
            })
        }
        Job::Spread(config) => {
            AnnotatorSpread::measure(file, &config, Some(limits::MAX_VOTES_PER_ITEM), progress)
                .map(|s| JobOutcome::Spread(s.map(Box::new)))
                .map_err(|e| e.to_string())
        }
        Job::Rank(config) => annosat_core::worth::rank::rank(file, &config, progress)
            .map(|r| JobOutcome::Ranked(Box::new(r)))
            .map_err(|e| e.to_string()),
        Job::Compare(job) => compare(file, job, progress),
    }
}

/// The Plan room's comparison: the models matched to the file as read, then `annosat compare`'s
/// one computation (`annosat_core::power::compare`).
fn compare(
    file: &VoteTable,
    job: CompareJob,
    progress: &mut dyn FnMut(f64),
) -> Result<JobOutcome, String> {
    use annosat_core::power::{self, predictions, Input};
    let paired = predictions::pair(file, &job.a, &job.b)?;
    let inp = Input {
        table: &paired.table,
        a: &paired.a,
        b: &paired.b,
        scale: job.scale.as_ref(),
    };
    let report = power::compare(inp, &job.config, &mut |d, n| {
        progress(d as f64 / n.max(1) as f64)
    })?;
    Ok(JobOutcome::Compared {
        report: Box::new(report),
        notes: paired.notes,
    })
}

/// Runs one Plan room job: the extrapolation on the curves' table (its pilot part from the
/// file), agreement and the adaptive simulation on the whole file.
fn plan(
    file: &VoteTable,
    curves: &VoteTable,
    job: PlanJob,
    progress: &mut dyn FnMut(f64),
) -> Result<PlanOutcome, String> {
    let mut counted = |d: u64, n: u64| progress(d as f64 / n.max(1) as f64);
    match job {
        PlanJob::Extrapolate(config) => {
            let e = extrapolate(curves, &config, &mut |d, n| counted(d as u64, n as u64))
                .map_err(|e| e.to_string())?;
            Ok(PlanOutcome::Extrapolated {
                prior: Box::new(e.fit),
                check: Box::new(e.check),
                curves: e.curves,
                bands: e.bands,
                beyond: None,
            })
        }
        PlanJob::Headline(config, answers) => {
            // Nine tenths of the bar for the extrapolation, the rest for the pilots.
            let e = extrapolate(curves, &config, &mut |d, n| {
                progress(0.9 * d as f64 / n.max(1) as f64)
            })
            .map_err(|e| e.to_string())?;
            // The file as read: its pilot part keeps the votes the curves' cut table drops.
            let beyond = annosat_core::pilot::beyond(
                file,
                curves,
                &e,
                &answers,
                (config.reference_votes, &config.curves),
                &mut |d, n| progress(0.9 + 0.1 * d as f64 / n.max(1) as f64),
            );
            Ok(PlanOutcome::Extrapolated {
                prior: Box::new(e.fit),
                check: Box::new(e.check),
                curves: e.curves,
                bands: e.bands,
                beyond: Some(Box::new(beyond)),
            })
        }
        PlanJob::Agree {
            level,
            grid,
            repeats,
            seed,
        } => {
            use annosat_core::agreement::{agreement, AgreeConfig, DsConfig, Level};
            let config = AgreeConfig {
                level: Level::from_choice(&level, file.classes(), &[])?,
                grid,
                repeats,
                seed,
                ds: DsConfig::default(),
            };
            Ok(PlanOutcome::Agreement(agreement(
                file,
                &config,
                &mut counted,
            )))
        }
        PlanJob::Adaptive { n0, seed } => {
            let config = annosat_core::adaptive::AdaptiveConfig::defaults(file, n0, seed);
            annosat_core::adaptive::simulate(file, &config, &mut counted)
                .map(PlanOutcome::Adaptive)
                .map_err(|e| e.to_string())
        }
    }
}

/// The Sources room's measurement: the source's files read by the core's one reader, then
/// measured against the file as `annosat worth` does.
fn measure_source(
    t: &VoteTable,
    job: WorthJob,
    progress: &mut dyn FnMut(f64),
) -> Result<(annosat_core::worth::Report, Vec<String>), String> {
    let files: Vec<(String, Vec<u8>)> = job
        .files
        .into_iter()
        .map(|(n, text)| (n, text.into_bytes()))
        .collect();
    let read = annosat_core::import::source::read_source(&files)?;
    let report = annosat_core::worth::report(t, &read.table, &job.config, job.subsets, progress)
        .map_err(|e| e.to_string())?;
    Ok((report, read.notes))
}
