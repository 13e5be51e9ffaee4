//! annosat-encoder: what turns an item's texts into head features, one implementation for the
//! native trainer (`annosat embed`, `sweep`, `finetune`) and the app's model worker (wasm32).
//!
//! - [`texts`]: which text fields an item has ([`Layout`]) and how their embeddings combine;
//! - [`embeddings`]: a dataset's text embeddings and their safetensors file;
//! - [`frozen`]: BERT's forward pass for frozen encoders, `BertModel`'s bits with [`gelu`]'s GELU;
//! - [`gelu`]: candle's `gelu_erf` in vector lanes, bit for bit (a quarter of embedding time otherwise);
//! - [`bert`]: tokenizing and a BERT-family encoder (all-MiniLM-L6-v2) with masked mean pooling and
//!   the checkpoint's L2 normalisation.

pub mod bert;
pub mod embeddings;
pub mod frozen;
pub mod gelu;
pub mod texts;

pub use bert::{pooled_embeddings, Bert, MAX_TOKENS};
pub use embeddings::Embeddings;
pub use texts::{ItemTexts, Layout};
