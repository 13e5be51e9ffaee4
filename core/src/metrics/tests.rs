//! Each formula against hand-computed values.
use super::*;

const LN2: f64 = std::f64::consts::LN_2;

#[test]
fn entropy_hand_values() {
    assert_eq!(entropy(&[1.0, 0.0, 0.0]), 0.0);
    assert!((entropy(&[0.5, 0.5]) - LN2).abs() < 1e-15);
    assert!((entropy(&[1.0 / 3.0; 3]) - 3f64.ln()).abs() < 1e-15);
}

#[test]
fn kl_hand_values_and_clip() {
    // KL([.5,.5] ‖ [.25,.75]) = .5 ln 2 + .5 ln(2/3)
    let want = 0.5 * 2f64.ln() + 0.5 * (2.0f64 / 3.0).ln();
    assert!((kl(&[0.5, 0.5], &[0.25, 0.75]) - want).abs() < 1e-15);
    // q = 0 where p > 0: clipped at 1e-15, finite.
    let v = kl(&[1.0, 0.0], &[0.0, 1.0]);
    assert!((v - (-(1e-15f64).ln())).abs() < 1e-9);
    assert_eq!(kl(&[0.2, 0.8], &[0.2, 0.8]), 0.0);
}

#[test]
fn js_distance_hand_values() {
    assert!((js_distance(&[1.0, 0.0], &[0.0, 1.0]) - LN2.sqrt()).abs() < 1e-15);
    assert_eq!(js_distance(&[0.3, 0.7], &[0.3, 0.7]), 0.0);
    // p=[1,0], q=[.5,.5]: m=[.75,.25]; JS = .5 ln(4/3) + .5(.5 ln(2/3) + .5 ln 2)
    let js = 0.5 * (4.0f64 / 3.0).ln() + 0.5 * (0.5 * (2.0f64 / 3.0).ln() + 0.5 * 2f64.ln());
    assert!((js_distance(&[1.0, 0.0], &[0.5, 0.5]) - js.sqrt()).abs() < 1e-15);
}

#[test]
fn smoothing_and_normalize() {
    assert_eq!(
        smoothed(&[1, 0, 2], 1.0),
        vec![2.0 / 6.0, 1.0 / 6.0, 3.0 / 6.0]
    );
    assert_eq!(normalize(&[0, 0]), None);
    assert_eq!(normalize(&[1, 3]), Some(vec![0.25, 0.75]));
}

#[test]
fn correlations() {
    assert!(
        (pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.5]).unwrap() - 0.9979487157886733).abs() < 1e-12
    );
    assert_eq!(pearson(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]), None);
    assert_eq!(pearson(&[1.0], &[1.0]), None);
    // Monotone but non-linear: Spearman 1; ties get average ranks.
    assert!(
        (spearman(&[1.0, 2.0, 3.0, 4.0], &[1.0, 8.0, 27.0, 64.0]).unwrap() - 1.0).abs() < 1e-15
    );
    assert_eq!(corr::ranks(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
    // One-hot predictions have zero entropy everywhere: undefined, not 0.
    let human = [0.5, 0.5, 0.9, 0.1, 0.7, 0.3];
    assert_eq!(
        entropy_corr(&[1.0, 0.0, 1.0, 0.0, 0.0, 1.0], &human, 2),
        None
    );
    assert!((entropy_corr(&human, &human, 2).unwrap() - 1.0).abs() < 1e-12);
}

#[test]
fn brier_and_murphy() {
    let pred = [0.8, 0.2, 0.3, 0.7];
    let hard = [1.0, 0.0, 0.0, 1.0];
    // (0.04+0.04 + 0.09+0.09)/2 = 0.13
    assert!((brier(&pred, &hard, 2) - 0.13).abs() < 1e-15);
    // Hard targets, one forecast value per bin: the decomposition is exact.
    let m = murphy(&pred, &hard, 2, 15);
    assert!(m.residual.abs() < 1e-12, "{m:?}");
    // REL: per class, bins hold single items: Σ (p−y)²/n = Brier here; RES: Σ (y−ȳ)²/n = .25 per class.
    assert!(
        (m.rel - 0.13).abs() < 1e-12 && (m.res - 0.5).abs() < 1e-12 && (m.unc - 0.5).abs() < 1e-12
    );
    // Soft targets, one forecast per bin: the identity still closes exactly, with UNC = Var(y).
    let soft = [0.6, 0.4, 0.4, 0.6];
    let s = murphy(&pred, &soft, 2, 15);
    assert!(s.residual.abs() < 1e-15, "{s:?}");
    assert!(
        (s.unc - 2.0 * 0.01).abs() < 1e-15,
        "Var(y_k) = 0.01 per class: {s:?}"
    );
}

/// Several items per bin, soft targets: the residual is exactly the within-bin terms
/// Σ_b n_b/n [Var_b(p) − 2 Cov_b(p, y)], computed here independently, and UNC is Var(y).
#[test]
fn murphy_residual_is_the_within_bin_terms() {
    let (n, k, bins) = (600, 3, 10);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let norm = |v: [f64; 3]| {
        let s: f64 = v.iter().sum();
        v.map(|x| x / s)
    };
    let (mut pred, mut human) = (Vec::new(), Vec::new());
    for _ in 0..n {
        pred.extend(norm([next() + 0.05, next() + 0.05, next() + 0.05]));
        human.extend(norm([next() * next(), next(), next() + 0.2]));
    }
    let m = murphy(&pred, &human, k, bins);
    let mut within = 0.0;
    let mut var_y = 0.0;
    for c in 0..k {
        let col = |v: &[f64], i: usize| v[i * k + c];
        let ybar = (0..n).map(|i| col(&human, i)).sum::<f64>() / n as f64;
        var_y += (0..n).map(|i| (col(&human, i) - ybar).powi(2)).sum::<f64>() / n as f64;
        for b in 0..bins {
            let idx: Vec<usize> = (0..n)
                .filter(|&i| ((col(&pred, i) * bins as f64) as usize).min(bins - 1) == b)
                .collect();
            if idx.is_empty() {
                continue;
            }
            let nb = idx.len() as f64;
            let pm = idx.iter().map(|&i| col(&pred, i)).sum::<f64>() / nb;
            let ym = idx.iter().map(|&i| col(&human, i)).sum::<f64>() / nb;
            let vp = idx
                .iter()
                .map(|&i| (col(&pred, i) - pm).powi(2))
                .sum::<f64>()
                / nb;
            let cov = idx
                .iter()
                .map(|&i| (col(&pred, i) - pm) * (col(&human, i) - ym))
                .sum::<f64>()
                / nb;
            within += nb / n as f64 * (vp - 2.0 * cov);
        }
    }
    assert!((m.unc - var_y).abs() < 1e-12, "{} vs {var_y}", m.unc);
    assert!(
        (m.residual - within).abs() < 1e-12,
        "{} vs {within}",
        m.residual
    );
    assert!((m.brier - (m.rel - m.res + m.unc + m.residual)).abs() < 1e-12);
    assert!(
        m.residual.abs() < 0.1 * m.brier,
        "the within-bin terms are small: {m:?}"
    );
}

#[test]
fn ece_and_dist_ece() {
    // Two items, both predicted class 0 with confidence 0.6 (same bin).
    let pred = [0.6, 0.4, 0.6, 0.4];
    let human = [0.6, 0.4, 0.4, 0.6];
    // Majority correct on item 1 only: acc 0.5, conf 0.6 → ECE 0.1.
    assert!((ece(&pred, &human, 2, 15) - 0.1).abs() < 1e-12);
    // Human probability of class 0: (0.6 + 0.4)/2 = 0.5 → Dist-ECE 0.1.
    assert!((dist_ece(&pred, &human, 2, 15) - 0.1).abs() < 1e-12);
    // Honest uncertainty: predicting the human distribution gives Dist-ECE 0 but ECE > 0.
    let h = [0.6, 0.4, 0.7, 0.3];
    assert!(dist_ece(&h, &h, 2, 15) < 1e-12);
    assert!(ece(&h, &h, 2, 15) > 0.3);
}

#[test]
fn majority_tie_credit_and_accuracy() {
    assert_eq!(majority_agreement(&[0.5, 0.5, 0.0], &[0.6, 0.3, 0.1]), 0.5);
    assert_eq!(majority_agreement(&[0.5, 0.5, 0.0], &[0.4, 0.4, 0.2]), 1.0);
    assert_eq!(majority(&[0.2, 0.4, 0.4]), 1);
    assert_eq!(
        accuracy(&[0.9, 0.1, 0.2, 0.8], &[0.7, 0.3, 0.6, 0.4], 2),
        0.5
    );
}
