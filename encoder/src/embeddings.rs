//! A dataset's text embeddings, one `(items, d)` F32 tensor per text field, as a safetensors file:
//! the trainer's embedding cache (`annosat embed`) and the app's "download embeddings" write the
//! same format, so one can be checked against the other. Metadata: `item_ids` (JSON), `layout`
//! (`Pair`, `Abductive` or `Single`) and `encoder`.

use crate::texts::{ItemTexts, Layout};
use anyhow::{bail, Context, Result};
use safetensors::tensor::{Dtype, TensorView};
use std::collections::{BTreeMap, HashMap};

/// Field embeddings of one dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct Embeddings {
    pub item_ids: Vec<String>,
    pub layout: Layout,
    pub dim: usize,
    /// `fields[f]`: row-major `(items, dim)`.
    pub fields: Vec<Vec<f32>>,
    pub encoder: String,
}

impl Embeddings {
    /// Scatters the embeddings of the distinct texts (`unique[u]` ↦ row u of `all`) to the items'
    /// fields.
    pub fn assemble(
        item_ids: Vec<String>,
        items: &ItemTexts,
        unique: &[&str],
        all: &[f32],
        dim: usize,
        encoder: String,
    ) -> Result<Self> {
        let index: HashMap<&str, usize> = unique.iter().enumerate().map(|(i, t)| (*t, i)).collect();
        let mut fields = Vec::new();
        for col in &items.texts {
            let mut f = Vec::with_capacity(col.len() * dim);
            for t in col {
                let u = *index
                    .get(t.as_str())
                    .with_context(|| format!("no embedding for {t:?}"))?;
                f.extend_from_slice(&all[u * dim..(u + 1) * dim]);
            }
            fields.push(f);
        }
        Ok(Embeddings {
            item_ids,
            layout: items.layout,
            dim,
            fields,
            encoder,
        })
    }

    /// Row-major `(items, layout.width(dim))` head features.
    pub fn features(&self) -> Vec<f32> {
        let n = self.item_ids.len();
        let mut out = Vec::with_capacity(n * self.layout.width(self.dim));
        for i in 0..n {
            let rows: Vec<&[f32]> = self
                .fields
                .iter()
                .map(|f| &f[i * self.dim..(i + 1) * self.dim])
                .collect();
            self.layout.combine(&rows, &mut out);
        }
        out
    }

    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let n = self.item_ids.len();
        let bytes: Vec<Vec<u8>> = self
            .fields
            .iter()
            .map(|f| f.iter().flat_map(|x| x.to_le_bytes()).collect())
            .collect();
        let mut views = BTreeMap::new();
        for (name, b) in self.layout.fields().iter().zip(&bytes) {
            views.insert(
                name.to_string(),
                TensorView::new(Dtype::F32, vec![n, self.dim], b)?,
            );
        }
        let mut meta = HashMap::new();
        meta.insert(
            "item_ids".to_string(),
            serde_json::to_string(&self.item_ids)?,
        );
        meta.insert("layout".to_string(), format!("{:?}", self.layout));
        meta.insert("encoder".to_string(), self.encoder.clone());
        Ok(safetensors::serialize(views, Some(meta))?)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let (_, meta) = safetensors::SafeTensors::read_metadata(bytes)?;
        let st = safetensors::SafeTensors::deserialize(bytes)?;
        let m = meta
            .metadata()
            .as_ref()
            .context("embeddings file has no metadata")?;
        let item_ids: Vec<String> =
            serde_json::from_str(m.get("item_ids").context("no item_ids")?)?;
        let layout = match m.get("layout").map(String::as_str) {
            Some("Pair") => Layout::Pair,
            Some("Abductive") => Layout::Abductive,
            Some("Single") => Layout::Single,
            other => bail!("unknown layout {other:?}"),
        };
        let mut fields = Vec::new();
        let mut dim = 0;
        for name in layout.fields() {
            let t = st.tensor(name)?;
            if t.dtype() != Dtype::F32 || t.shape().len() != 2 || t.shape()[0] != item_ids.len() {
                bail!(
                    "tensor {name}: expected F32 of shape [{}, d]",
                    item_ids.len()
                );
            }
            dim = t.shape()[1];
            fields.push(
                t.data()
                    .chunks_exact(4)
                    .map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                    .collect(),
            );
        }
        Ok(Embeddings {
            item_ids,
            layout,
            dim,
            fields,
            encoder: m.get("encoder").cloned().unwrap_or_default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_scatters_shared_texts() {
        let items = ItemTexts {
            layout: Layout::Pair,
            texts: vec![vec!["a".into(), "a".into()], vec!["bb".into(), "c".into()]],
        };
        let unique = items.unique_longest_first();
        assert_eq!(unique, vec!["bb", "a", "c"]);
        let all = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // bb, a, c with d = 2
        let e = Embeddings::assemble(
            vec!["i".into(), "j".into()],
            &items,
            &unique,
            &all,
            2,
            "m".into(),
        )
        .unwrap();
        assert_eq!(e.fields[0], vec![3.0, 4.0, 3.0, 4.0]);
        assert_eq!(e.fields[1], vec![1.0, 2.0, 5.0, 6.0]);
        assert_eq!(Embeddings::from_bytes(&e.to_bytes().unwrap()).unwrap(), e);
        assert_eq!(e.features().len(), 2 * Layout::Pair.width(2));
    }
}
