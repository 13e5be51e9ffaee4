//! The heads' losses: the output link ([`Loss`]) and each head's mean loss over rows — a leaf that
//! the training loop ([`crate::mlp`]) and its per-core shards ([`crate::shard`]) both use.

use anyhow::Result;
use candle_core::{Tensor, D};

/// The output layer's link: one distribution over `k` classes, or `k` independent labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// Softmax over the classes; cross-entropy `−Σ_k t log softmax(z)`.
    Softmax,
    /// A sigmoid per label (multilabel); Bernoulli cross-entropy summed over the labels,
    /// `Σ_l −[t log σ(z) + (1 − t) log(1 − σ(z))]` — SoftBCE when `t` are vote shares.
    Sigmoid,
}

/// Per-head mean cross-entropy `−Σ_k t log softmax(z)` over rows: `(m,)`.
fn per_head_ce(logits: &Tensor, targets: &Tensor) -> Result<Tensor> {
    let rows = logits.dim(1)? as f64;
    let logp = candle_nn::ops::log_softmax(logits, D::Minus1)?;
    Ok((targets.mul(&logp)?.sum((1, 2))?.neg()? / rows)?)
}

/// Per-head mean over rows of the Bernoulli cross-entropy summed over labels: `(m,)`. Written
/// stably from the logits: `max(z, 0) − t z + ln(1 + e^{−|z|})`.
fn per_head_bce(logits: &Tensor, targets: &Tensor) -> Result<Tensor> {
    let rows = logits.dim(1)? as f64;
    let soft_plus = (logits.abs()?.neg()?.exp()? + 1.0)?.log()?;
    let per = ((logits.relu()? - targets.mul(logits)?)? + soft_plus)?;
    Ok((per.sum((1, 2))? / rows)?)
}

pub(crate) fn per_head_loss(logits: &Tensor, targets: &Tensor, loss: Loss) -> Result<Tensor> {
    match loss {
        Loss::Softmax => per_head_ce(logits, targets),
        Loss::Sigmoid => per_head_bce(logits, targets),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn the_sigmoid_loss_equals_candles_binary_cross_entropy() {
        let dev = Device::Cpu;
        let z: Vec<f32> = (0..24).map(|i| (i as f32 - 11.0) / 3.0).collect();
        let t: Vec<f32> = (0..24).map(|i| (i % 5) as f32 / 4.0).collect();
        let zt = Tensor::from_slice(&z, (1, 6, 4), &dev).unwrap();
        let tt = Tensor::from_slice(&t, (1, 6, 4), &dev).unwrap();
        let ours = per_head_bce(&zt, &tt).unwrap().to_vec1::<f32>().unwrap()[0];
        // candle-nn's mean over all 24 elements; ours sums the 4 labels and averages the 6 rows.
        let theirs = candle_nn::loss::binary_cross_entropy_with_logit(&zt, &tt)
            .unwrap()
            .to_scalar::<f32>()
            .unwrap();
        assert!((ours / 4.0 - theirs).abs() < 1e-5, "{ours} / 4 vs {theirs}");
    }
}
