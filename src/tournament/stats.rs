//! Match statistics: logistic Elo from a score, 95% error bars from the trinomial variance, the
//! likelihood of superiority, and a sequential probability ratio test (SPRT) on win/draw/loss counts.
//!
//! Formulas (as cutechess, fishtest and OpenBench use them):
//! - score `s = (W + D/2) / N`, Elo `= -400 log10(1/s - 1)`;
//! - per-game variance `var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N`, standard error `sqrt(var / N)`;
//!   the 95% interval of the score is `s ± 1.959964 se` and the error bar is half the width of the
//!   interval mapped to Elo;
//! - SPRT with the normal approximation of the generalised SPRT (fishtest's trinomial `sprt` with the
//!   logistic Elo model): `s0, s1` are the expected scores at `elo0, elo1`, and
//!   `LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)` (empty categories regularised to 1e-3 games as in
//!   fishtest); the test stops when `LLR` leaves
//!   `[ln(beta / (1 - alpha)), ln((1 - beta) / alpha)]`, but never before [`SPRT_MIN_GAMES`] games.

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Win, draw and loss counts from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Builds the counts.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The same counts seen from the opponent.
    pub fn flipped(&self) -> Self {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Score per game in `0..=1` (`None` without games).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// The per-game variance of the score (trinomial), `None` without games.
    pub fn variance(&self) -> Option<f64> {
        let n = self.games() as f64;
        let s = self.score()?;
        Some(
            (self.wins as f64 * (1.0 - s).powi(2)
                + self.draws as f64 * (0.5 - s).powi(2)
                + self.losses as f64 * s.powi(2))
                / n,
        )
    }
}

/// Logistic Elo difference for a score per game (infinite at 0 and 1).
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score per game for a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Score per game.
    pub score: f64,
    /// Elo difference.
    pub elo: f64,
    /// Half the width of the 95% interval in Elo (infinite when the interval touches 0 or 1).
    pub error: f64,
    /// Likelihood of superiority in `0..=1` (from wins and losses, draws ignored).
    pub los: f64,
    /// Share of draws.
    pub draw_ratio: f64,
}

/// The Elo estimate for these counts (`None` without games).
pub fn elo_estimate(wdl: &Wdl) -> Option<EloEstimate> {
    let s = wdl.score()?;
    let var = wdl.variance()?;
    let n = wdl.games() as f64;
    let se = (var / n).sqrt();
    let lo = score_to_elo(s - Z95 * se);
    let hi = score_to_elo(s + Z95 * se);
    let error = (hi - lo) / 2.0;
    Some(EloEstimate {
        score: s,
        // `+ 0.0` turns -0.0 into 0.0 for printing.
        elo: score_to_elo(s) + 0.0,
        // All wins or all losses: the interval is unbounded.
        error: if error.is_nan() { f64::INFINITY } else { error },
        los: los(wdl),
        draw_ratio: wdl.draws as f64 / n,
    })
}

/// Likelihood of superiority: `(1 + erf((W - L) / sqrt(2 (W + L)))) / 2`; 0.5 without decisive games.
pub fn los(wdl: &Wdl) -> f64 {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt()))
}

/// The error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// The fewest games after which an SPRT may stop.
pub const SPRT_MIN_GAMES: u64 = 16;

/// The parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis H0.
    pub elo0: f64,
    /// Elo of the alternative hypothesis H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// The log-likelihood ratio fell to the lower bound: H0 accepted.
    AcceptH0,
    /// The log-likelihood ratio rose to the upper bound: H1 accepted.
    AcceptH1,
}

impl Sprt {
    /// The lower bound `ln(beta / (1 - alpha))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound `ln((1 - beta) / alpha)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 (0 without games).
    ///
    /// As fishtest's `results_to_pdf`, empty categories count as `1e-3` games, so that a run of
    /// wins alone (zero variance) still gives a finite ratio.
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        let counts = [wdl.wins, wdl.draws, wdl.losses].map(|c| (c as f64).max(1e-3));
        let n: f64 = counts.iter().sum();
        let values = [1.0, 0.5, 0.0];
        let s: f64 = counts.iter().zip(values).map(|(c, v)| c * v).sum::<f64>() / n;
        let var: f64 = counts
            .iter()
            .zip(values)
            .map(|(c, v)| c * (v - s).powi(2))
            .sum::<f64>()
            / n;
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = elo_to_score(self.elo0);
        let s1 = elo_to_score(self.elo1);
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// Whether the test is decided for these counts. Never before [`SPRT_MIN_GAMES`] games: with
    /// a handful of games the variance estimate (regularised or not) means nothing, and a single
    /// draw would otherwise push the ratio far below the lower bound.
    pub fn decision(&self, wdl: &Wdl) -> SprtDecision {
        if wdl.games() < SPRT_MIN_GAMES {
            return SprtDecision::Continue;
        }
        let llr = self.llr(wdl);
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}
