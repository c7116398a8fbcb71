//! Playing weaker on purpose: `Skill Level` (0-20) and `UCI_LimitStrength` with `UCI_Elo`.
//!
//! A weakened search looks at fewer plies and chooses among its best few moves with noise,
//! the way human players of a given strength err: it keeps the
//! [`SKILL_LINES`] best root moves (MultiPV), stops after `1 + level` plies, and adds to each
//! candidate's score a random bonus of up to `(20 - level) * NOISE_PER_LEVEL` centipawns; the
//! largest sum is played. A move that walks into a mate it has seen is never chosen while
//! another is not mated, and a mate it has found is always played: the engine errs in
//! judgement, not in blunders of a kind no player of that level makes.
//!
//! `UCI_Elo` maps to a level through [`ELO_TABLE`], measured in games against Stockfish's own
//! `UCI_Elo` levels (the matches: docs/strength.md, "Strength levels").

use super::MATE_BOUND;

/// Root moves the weakened search keeps scores for.
pub const SKILL_LINES: usize = 4;
/// Noise amplitude per level below 20, in centipawns (score units).
pub const NOISE_PER_LEVEL: i32 = 12;

/// (level, Elo) points, increasing in both; between points the level is interpolated. Levels 0
/// to 16: the curve `1074 + 256 * sqrt(level)` fitted (least squares) to five 20-game matches at
/// 5+0.05 against Stockfish 15.1's `UCI_Elo` (level 0 vs 1350: 17.5%, 4 vs 1350: 75%, 8 vs 1700:
/// 75%, 12 vs 2000: 32.5%, 16 vs 2300: 27.5%), rounded to 5. Level 20 (full strength): 100 games
/// at 10+0.1 against `UCI_Elo 2000`, 68% (+131). See docs/strength.md.
pub const ELO_TABLE: &[(f64, i64)] = &[
    (0.0, 1075),
    (1.0, 1330),
    (2.0, 1435),
    (3.0, 1520),
    (4.0, 1585),
    (6.0, 1700),
    (8.0, 1800),
    (10.0, 1885),
    (12.0, 1960),
    (14.0, 2035),
    (16.0, 2100),
    (20.0, 2130),
];

/// Smallest `UCI_Elo` (level 0).
pub const MIN_ELO: i64 = 1075;
/// Largest `UCI_Elo` (full strength).
pub const MAX_ELO: i64 = 2130;

/// A weakening, in hundredths of a level (0 to 1999; 2000 and above is full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    centi_level: u32,
}

impl Skill {
    /// The weakening for `Skill Level` `level` (none at 20).
    pub fn from_level(level: u32) -> Option<Skill> {
        Skill::from_centi(level.saturating_mul(100))
    }

    /// The weakening for a fractional level in hundredths (none at 2000 and above).
    pub fn from_centi(centi_level: u32) -> Option<Skill> {
        (centi_level < 2000).then_some(Skill { centi_level })
    }

    /// The weakening that plays at about `elo` (none at [`MAX_ELO`] and above).
    pub fn from_elo(elo: i64) -> Option<Skill> {
        Skill::from_centi((level_for_elo(elo) * 100.0).round() as u32)
    }

    /// The level (0.0 to 19.99).
    pub fn level(&self) -> f64 {
        f64::from(self.centi_level) / 100.0
    }

    /// Deepest iteration searched.
    pub fn max_depth(&self) -> u32 {
        1 + self.centi_level / 100
    }

    /// Largest random bonus added to a candidate's score.
    pub fn noise(&self) -> i32 {
        ((2000 - self.centi_level as i32) * NOISE_PER_LEVEL) / 100
    }

    /// Picks one of `scores` (best first, from the searching side's view) with `random`, a
    /// source of uniform 64-bit numbers. Returns an index into `scores`.
    pub fn pick(&self, scores: &[i32], mut random: impl FnMut() -> u64) -> usize {
        let Some(&top) = scores.first() else {
            return 0;
        };
        if top >= MATE_BOUND {
            return 0;
        }
        let noise = self.noise().max(0) as u64;
        let mut best = 0;
        let mut best_value = i64::MIN;
        for (i, &s) in scores.iter().enumerate() {
            if s <= -MATE_BOUND && top > -MATE_BOUND {
                continue;
            }
            let value = i64::from(s) + (random() % (noise + 1)) as i64;
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }
}

/// The (fractional) level that plays at `elo`, by linear interpolation in [`ELO_TABLE`].
pub fn level_for_elo(elo: i64) -> f64 {
    let Some(&(first_level, first_elo)) = ELO_TABLE.first() else {
        return 20.0;
    };
    if elo <= first_elo {
        return first_level;
    }
    for pair in ELO_TABLE.windows(2) {
        let [(l0, e0), (l1, e1)] = [pair[0], pair[1]];
        if elo <= e1 {
            return l0 + (l1 - l0) * (elo - e0) as f64 / (e1 - e0).max(1) as f64;
        }
    }
    20.0
}

/// A small xorshift generator seeded from the clock and a position key.
#[derive(Clone, Debug)]
pub struct Random(u64);

impl Random {
    /// Seeded from the clock mixed with `salt`.
    pub fn new(salt: u64) -> Random {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Random::seeded(nanos ^ salt)
    }

    /// A fixed seed (tests).
    pub fn seeded(seed: u64) -> Random {
        Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_elo() {
        assert_eq!(Skill::from_level(20), None);
        assert_eq!(Skill::from_elo(MAX_ELO), None);
        let s = Skill::from_level(0).unwrap();
        assert_eq!(s.max_depth(), 1);
        assert_eq!(s.noise(), 20 * NOISE_PER_LEVEL);
        assert_eq!(Skill::from_level(19).unwrap().max_depth(), 20);
        assert!(level_for_elo(MIN_ELO - 500) <= level_for_elo(MIN_ELO));
        let mut last = -1.0;
        for elo in (MIN_ELO..MAX_ELO).step_by(50) {
            let l = level_for_elo(elo);
            assert!(l >= last && (0.0..=20.0).contains(&l), "{elo} {l}");
            last = l;
        }
    }

    #[test]
    fn pick_never_walks_into_a_seen_mate_and_always_takes_a_found_one() {
        let s = Skill::from_level(0).unwrap();
        let mut r = Random::seeded(1);
        for _ in 0..200 {
            let i = s.pick(&[10, 0, -MATE_BOUND - 5], || r.next_u64());
            assert!(i < 2);
            assert_eq!(s.pick(&[MATE_BOUND + 3, 50, 0], || r.next_u64()), 0);
        }
        // All mated: still a move.
        assert_eq!(s.pick(&[-MATE_BOUND - 1, -MATE_BOUND - 2], || 0), 0);
    }

    #[test]
    fn low_levels_vary_and_high_levels_keep_the_best_move() {
        let mut r = Random::seeded(7);
        let low = Skill::from_level(0).unwrap();
        let high = Skill::from_level(19).unwrap();
        let scores = [30, 0, -20, -40];
        let mut low_counts = [0; 4];
        let mut high_counts = [0; 4];
        for _ in 0..1000 {
            low_counts[low.pick(&scores, || r.next_u64())] += 1;
            high_counts[high.pick(&scores, || r.next_u64())] += 1;
        }
        assert!(low_counts[0] < 900 && low_counts[1] > 50, "{low_counts:?}");
        assert_eq!(high_counts[0], 1000, "{high_counts:?}");
    }
}
