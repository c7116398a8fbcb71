//! Win/draw/loss models: what a score means as the chances of the side to move, for
//! `UCI_ShowWDL` (`info ... wdl W D L`, per mille).
//!
//! The form is Stockfish's: for a score `s` (centipawns, side to move) and the material `m` on
//! the board, `win = 1 / (1 + exp((a(m) - s) / b(m)))` and `loss = 1 / (1 + exp((a(m) + s) /
//! b(m)))`, the rest a draw, with `a` and `b` cubic polynomials in `x = clamp(m, lo, hi) / ref`.
//! Each game's coefficients are fitted by maximum likelihood to the results of sanqi's own
//! self-play games (`docs/wdl/fit_wdl.py`; the data, the fit and its error are in
//! `docs/wdl/README.md`). Material is counted from the position string's board field by letter,
//! so the fit (in Python) and the engine count it the same way.

/// One game's model.
#[derive(Clone, Copy, Debug)]
pub struct WdlModel {
    /// Material weight of each piece letter (either case); other characters count 0.
    pub weights: &'static [(char, f64)],
    /// Material is clamped to `lo..=hi`...
    pub lo: f64,
    /// ...
    pub hi: f64,
    /// ... and divided by `reference` to give `x`.
    pub reference: f64,
    /// `a(x) = a[0] x^3 + a[1] x^2 + a[2] x + a[3]`: the score of an even win/not-win chance.
    pub a: [f64; 4],
    /// `b(x)`, likewise: how fast the chance grows with the score.
    pub b: [f64; 4],
}

impl WdlModel {
    /// The material of a position string: the weights of the letters of its first field.
    pub fn material(&self, fen: &str) -> f64 {
        let board = fen.split_whitespace().next().unwrap_or("");
        board
            .chars()
            .map(|c| {
                let c = c.to_ascii_lowercase();
                self.weights
                    .iter()
                    .find(|(l, _)| *l == c)
                    .map_or(0.0, |&(_, w)| w)
            })
            .sum()
    }

    /// `a` and `b` at material `m`.
    pub fn params(&self, m: f64) -> (f64, f64) {
        let x = m.clamp(self.lo, self.hi) / self.reference;
        let poly = |c: &[f64; 4]| ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
        (poly(&self.a), poly(&self.b).max(1.0))
    }

    /// Win, draw and loss per mille (summing to 1000) for `score` centipawns of the side to move
    /// with material `m`.
    pub fn wdl(&self, score: i32, m: f64) -> (u32, u32, u32) {
        let (a, b) = self.params(m);
        let s = f64::from(score);
        let win = 1.0 / (1.0 + ((a - s) / b).exp());
        let loss = 1.0 / (1.0 + ((a + s) / b).exp());
        let w = (win * 1000.0).round().clamp(0.0, 1000.0) as u32;
        let l = ((loss * 1000.0).round().clamp(0.0, 1000.0) as u32).min(1000 - w);
        (w, 1000 - w - l, l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOY: WdlModel = WdlModel {
        weights: &[('p', 1.0), ('q', 9.0)],
        lo: 2.0,
        hi: 20.0,
        reference: 20.0,
        a: [0.0, 0.0, 100.0, 100.0],
        b: [0.0, 0.0, 0.0, 60.0],
    };

    #[test]
    fn material_counts_letters_of_the_board_field_only() {
        assert_eq!(TOY.material("qQpP/8 w - - 0 1"), 20.0);
        assert_eq!(TOY.material("8/8 w q"), 0.0);
        assert_eq!(TOY.material(""), 0.0);
    }

    #[test]
    fn chances_sum_to_1000_are_symmetric_and_grow_with_the_score() {
        let mut last_w = 0;
        for s in (-3000..=3000).step_by(50) {
            let (w, d, l) = TOY.wdl(s, 10.0);
            assert_eq!(w + d + l, 1000, "{s}");
            assert!(w >= last_w, "{s}");
            last_w = w;
            let (w2, d2, l2) = TOY.wdl(-s, 10.0);
            assert!(
                w.abs_diff(l2) <= 1 && l.abs_diff(w2) <= 1 && d.abs_diff(d2) <= 1,
                "{s}"
            );
        }
        // a(10 / 20) = 150: there the win chance is one half.
        assert_eq!(TOY.wdl(150, 10.0).0, 500);
        assert_eq!(TOY.wdl(100_000, 10.0), (1000, 0, 0));
        assert_eq!(TOY.wdl(-100_000, 10.0), (0, 0, 1000));
    }
}
