//! The page's rooms, one folder each: the target side (curves of the labels themselves), models
//! (what models trained on N-vote labels learn) and the reproduction table.

pub mod models;
pub mod repro;
pub mod target;
