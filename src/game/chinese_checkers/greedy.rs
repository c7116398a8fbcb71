//! The greedy reference player: the classic computer player of Chinese-checkers programs.
//!
//! Rule, for the side to move `s` with target tip `t` (the cell of its target triangle farthest
//! from the centre) and `d(c)` the plain (hex) distance from cell `c` to `t`
//! ([`super::distance::plain_distance`]):
//!
//! 1. of all legal moves `from -> to`, keep those with the largest *gain* `d(from) - d(to)`
//!    (how far the move brings the moving piece towards the tip; it may be negative or zero
//!    when no move advances);
//! 2. among those, keep the moves of the *rearmost* piece: the largest `d(from)`;
//! 3. among those, pick one by a seeded hash of the position and the move
//!    ([`greedy_choice`] with the seed of the `CC Greedy Seed` option), so that the same seed
//!    plays the same game and different seeds play different ones.
//!
//! The pass is played only when it is the only legal move. The player looks no further than its
//! own move: it is the yardstick for the search, not a strong player.

use super::distance::plain_distance;
use super::{ChineseCheckers, Move};
use crate::game::Rules as _;
use crate::game::{GameMove, MoveBuffer};

/// Which player answers `go` for Chinese checkers (the `CC Player` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Player {
    /// The search (the engine proper).
    #[default]
    Search,
    /// The greedy reference player of this module.
    Greedy,
    /// Rear piece first ([`super::baselines::rear_choice`]).
    Rear,
    /// Longest jump first ([`super::baselines::jump_choice`]).
    Jump,
    /// A two-move search with the others frozen ([`super::baselines::shallow_choice`]).
    Shallow,
}

impl Player {
    /// Every player, in the option's order.
    pub const ALL: [Player; 5] = [
        Player::Search,
        Player::Greedy,
        Player::Rear,
        Player::Jump,
        Player::Shallow,
    ];

    /// The rules the multi-player search can model an opponent by, in its order of preference
    /// (rule 0, greedy, is the policy move; see `SearchHints::policy_move_of`). The shallow
    /// search is not among them: it costs a hundred move generations a call.
    pub const MODELS: [Player; 3] = [Player::Greedy, Player::Rear, Player::Jump];

    /// The option value (`search`, `greedy`, `rear`, `jump` or `shallow`).
    pub fn name(self) -> &'static str {
        match self {
            Player::Search => "search",
            Player::Greedy => "greedy",
            Player::Rear => "rear",
            Player::Jump => "jump",
            Player::Shallow => "shallow",
        }
    }

    /// Reads an option value (case-insensitive; anything else is the search).
    pub fn parse(text: &str) -> Player {
        Player::ALL
            .into_iter()
            .find(|p| text.eq_ignore_ascii_case(p.name()))
            .unwrap_or(Player::Search)
    }

    /// The move of a rule player with tie seed `seed`; `None` for the search (or a won
    /// position).
    pub fn choice(self, pos: &ChineseCheckers, seed: u64) -> Option<Move> {
        match self {
            Player::Search => None,
            Player::Greedy => greedy_choice(pos, seed),
            Player::Rear => super::baselines::rear_choice(pos, seed),
            Player::Jump => super::baselines::jump_choice(pos, seed),
            Player::Shallow => super::baselines::shallow_choice(pos, seed),
        }
    }
}

/// The greedy key of move `m` for the side to move: (gain, rearness), larger is preferred
/// (see the module documentation); `None` for the pass or a bad encoding.
pub fn greedy_key(pos: &ChineseCheckers, m: Move) -> Option<(i32, i32)> {
    let (from, to) = (m.from_cell()?, m.to_cell()?);
    if m.is_pass() {
        return None;
    }
    let tip = pos.target(pos.side_to_move()).tip();
    let d_from = plain_distance(from, tip) as i32;
    let d_to = plain_distance(to, tip) as i32;
    Some((d_from - d_to, d_from))
}

/// A 64-bit mix (SplitMix64's finaliser).
pub(crate) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The greedy move of the side to move with tie seed `seed` (`None` only when the position is
/// won: there is no legal move at all).
pub fn greedy_choice(pos: &ChineseCheckers, seed: u64) -> Option<Move> {
    let mut list = <ChineseCheckers as crate::game::Rules>::MoveList::default();
    pos.generate_moves(&mut list);
    let salt = mix(seed ^ mix(pos.hash()));
    let mut best: Option<((i32, i32, u64), Move)> = None;
    for &m in list.moves() {
        let Some((gain, rear)) = greedy_key(pos, m) else {
            continue;
        };
        let key = (gain, rear, mix(salt ^ u64::from(m.to_bits())));
        if best.is_none_or(|(b, _)| key > b) {
            best = Some((key, m));
        }
    }
    best.map(|(_, m)| m)
        .or_else(|| list.moves().first().copied())
}

/// Whether `m` is one of the moves the greedy rule may play for the side to move, with any tie
/// seed: a legal move of the largest (gain, rearness) key, or the pass when it is the only move.
pub fn is_greedy(pos: &ChineseCheckers, m: Move) -> bool {
    let mut list = <ChineseCheckers as crate::game::Rules>::MoveList::default();
    pos.generate_moves(&mut list);
    if !list.moves().contains(&m) {
        return false;
    }
    let best = list
        .moves()
        .iter()
        .filter_map(|&x| greedy_key(pos, x))
        .max();
    match best {
        Some(b) => greedy_key(pos, m) == Some(b),
        None => m.is_pass(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::chinese_checkers::ChineseCheckersConfig;
    use crate::game::Notation;

    pub(crate) fn start(players: u8) -> ChineseCheckers {
        ChineseCheckers::startpos(&ChineseCheckersConfig {
            players,
            ..ChineseCheckersConfig::default()
        })
    }

    /// Hex distance between two cells named like `k3`, computed from the names alone.
    pub(crate) fn name_distance(a: &str, b: &str) -> i32 {
        let cube = |s: &str| {
            let f = i32::from(s.as_bytes()[0]) - i32::from(b'i');
            let r: i32 = s[1..].parse::<i32>().expect("rank") - 9;
            (f, r, -f - r)
        };
        let (a, b) = (cube(a), cube(b));
        (a.0 - b.0)
            .abs()
            .max((a.1 - b.1).abs())
            .max((a.2 - b.2).abs())
    }

    /// Splits `k3k5` into `k3` and `k5`.
    pub(crate) fn split(m: &str) -> (&str, &str) {
        let second = m[1..]
            .find(|c: char| c.is_ascii_alphabetic())
            .expect("two cells")
            + 1;
        (&m[..second], &m[second..])
    }

    #[test]
    fn the_two_player_start_plays_a_jump_from_the_third_row() {
        // Hand-checked: A's target tip is e17. Steps from the front row (j4..m4, all 13 from
        // e17) gain 1; jumps from the third row (k3, l3, m3, all 14 from e17) over the front
        // row to rank 5 (12 from e17) gain 2; no chain gains more, and m1 and l2 cannot move.
        let p = start(2);
        let mut seen = std::collections::HashSet::new();
        for seed in 0..40 {
            let m = greedy_choice(&p, seed).expect("a move").to_string();
            let (from, to) = split(&m);
            assert!(["k3", "l3", "m3"].contains(&from), "seed {seed}: {m}");
            assert!(to.ends_with('5'), "seed {seed}: {m}");
            assert_eq!(name_distance(from, "e17") - name_distance(to, "e17"), 2);
            seen.insert(m);
        }
        // The seed decides between the tied jumps (k3k5, k3i5, l3l5, l3j5, m3m5, m3k5).
        assert!(seen.len() >= 3, "{seen:?}");
        // The same seed plays the same move.
        assert_eq!(greedy_choice(&p, 7), greedy_choice(&p, 7));
    }

    #[test]
    fn the_choice_matches_a_brute_force_over_the_move_texts() {
        for players in [2u8, 3, 4, 6] {
            let mut p = start(players);
            for ply in 0..150 {
                if p.winner().is_some() {
                    break;
                }
                let seed = u64::from(players) * 1000 + ply;
                let m = greedy_choice(&p, seed).expect("a move");
                let tip = p.target(p.side_to_move()).tip().to_string();
                let mut list = <ChineseCheckers as crate::game::Rules>::MoveList::default();
                p.generate_moves(&mut list);
                let key = |m: Move| {
                    let text = m.to_string();
                    let (a, b) = split(&text);
                    let da = name_distance(a, &tip);
                    (da - name_distance(b, &tip), da)
                };
                if m.is_pass() {
                    assert_eq!(list.moves(), &[Move::PASS]);
                } else {
                    let best = list.moves().iter().map(|&x| key(x)).max().expect("moves");
                    assert_eq!(key(m), best, "{} {m}", p.to_fen());
                }
                p.make_move(m);
            }
        }
    }

    #[test]
    fn every_seed_plays_a_greedy_move_and_other_moves_are_not() {
        for players in [3u8, 6] {
            let mut p = start(players);
            for ply in 0..60u64 {
                if p.winner().is_some() {
                    break;
                }
                let mut list = <ChineseCheckers as crate::game::Rules>::MoveList::default();
                p.generate_moves(&mut list);
                for seed in 0..5 {
                    let m = greedy_choice(&p, seed).expect("a move");
                    assert!(is_greedy(&p, m), "{} {m}", p.to_fen());
                }
                let best = list.moves().iter().filter_map(|&x| greedy_key(&p, x)).max();
                let worse = list
                    .moves()
                    .iter()
                    .copied()
                    .find(|&x| greedy_key(&p, x) < best);
                if let Some(w) = worse {
                    assert!(!is_greedy(&p, w), "{} {w}", p.to_fen());
                }
                p.make_move(greedy_choice(&p, ply).expect("a move"));
            }
        }
        // Not a legal move here: never greedy.
        let p = start(3);
        assert!(!is_greedy(&p, Move::PASS));
    }

    #[test]
    fn player_names_round_trip() {
        for player in Player::ALL {
            assert_eq!(Player::parse(player.name()), player);
        }
        assert_eq!(Player::parse("GREEDY"), Player::Greedy);
    }
}
