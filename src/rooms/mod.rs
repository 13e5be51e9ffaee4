//! The page's rooms, one folder each: the target side (curves of the labels themselves), models
//! (what models trained on N-vote labels learn), the reproduction table, and the plan (beyond the
//! votes the data have), and sources (another source of votes measured in human annotators).

pub mod models;
pub mod plan;
pub mod repro;
pub mod sources;
pub mod target_side;
