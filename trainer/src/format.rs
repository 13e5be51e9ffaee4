//! `--format csv|json`, the output choice every command that prints a table shares (a leaf, so
//! commands do not import each other for it).

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Csv,
    Json,
}
