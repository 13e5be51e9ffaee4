//! annosat-encoder: what turns an item's texts into head features, one implementation for the
//! native trainer (`annosat embed`, `sweep`, `finetune`) and the app's model worker (wasm32).
//!
//! - [`texts`]: which text fields an item has ([`Layout`]) and how their embeddings combine;
//! - [`embeddings`]: a dataset's text embeddings and their safetensors file;
//! - [`bert`]: tokenizing and a BERT-family encoder (all-MiniLM-L6-v2) with masked mean pooling and
//!   the checkpoint's L2 normalisation.

pub mod bert;
pub mod embeddings;
pub mod texts;

pub use bert::{pooled_embeddings, Bert, MAX_TOKENS};
pub use embeddings::Embeddings;
pub use texts::{ItemTexts, Layout};
