//! Look-up tables of `x ln x` and `ln x` for small integers.
//!
//! With integer vote counts, every logarithm the curves need is the log of an integer (see
//! [`crate::curves`]), so the hot loop reads a table instead of calling `ln`. Values past the table
//! fall back to computing, so correctness never depends on the size chosen.

/// Largest table we build (entries); 4 M × 8 bytes = 32 MiB at most.
const MAX_ENTRIES: usize = 1 << 22;

/// Natural log through `libm` so native and wasm32 builds agree to the bit.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// `x ln x`, with `0 ln 0 = 0`.
#[inline]
pub fn xlnx(x: f64) -> f64 {
    if x <= 0.0 {
        0.0
    } else {
        x * ln(x)
    }
}

/// `G[x] = x ln x` for integers `0..len`.
#[derive(Debug, Clone)]
pub struct XLogX {
    table: Vec<f64>,
}

impl XLogX {
    /// A table covering `0..=max` (capped at 4 M entries; larger arguments are computed).
    pub fn new(max: u64) -> Self {
        let len = (max as usize).saturating_add(1).min(MAX_ENTRIES);
        XLogX {
            table: (0..len).map(|x| xlnx(x as f64)).collect(),
        }
    }

    /// Whether every argument up to `max` is a table read.
    pub fn covers(&self, max: u64) -> bool {
        max < self.table.len() as u64
    }

    /// The table as a slice, for loops that have checked [`XLogX::covers`] once.
    pub fn as_slice(&self) -> &[f64] {
        &self.table
    }

    #[inline(always)]
    pub fn get(&self, x: u64) -> f64 {
        match self.table.get(x as usize) {
            Some(&v) => v,
            None => xlnx(x as f64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_direct_and_fallback() {
        let t = XLogX::new(1000);
        assert_eq!(t.get(0), 0.0);
        assert_eq!(t.get(1), 0.0);
        assert!((t.get(10) - 10.0 * 10f64.ln()).abs() < 1e-12);
        assert!((t.get(5000) - 5000.0 * 5000f64.ln()).abs() < 1e-9);
    }
}
