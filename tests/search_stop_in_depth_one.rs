//! A timed search stops inside depth 1 when its time is up: with many players depth 1 alone may
//! take longer than a short `movetime`. The game below makes depth 1 endless (every move is
//! noisy and quiescence has no bound), and the clock of the search ran out before it started:
//! the search must stop at its first look at the clock and play the game's policy move.

mod support;

use std::time::{Duration, Instant};

use sanqi::game::prelude::*;

use sanqi::game::{GameError, GameMove, MoveBuffer, MoveList, Outcome, Value};
use sanqi::search::{SearchLimits, Searcher};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Take(u8);

impl GameMove for Take {
    fn to_bits(self) -> u16 {
        u16::from(self.0)
    }
    fn from_bits(bits: u16) -> Self {
        Take(bits as u8)
    }
}

/// Six players take 1 to 16 from a pile far too large to empty; every move is noisy.
#[derive(Clone, Debug)]
struct Flood {
    pile: u64,
    to_move: usize,
}

const PLAYERS: usize = 6;

impl Rules for Flood {
    type Move = Take;

    type MoveList = MoveList<Take, 16>;

    type Config = ();

    const NAME: &'static str = "flood";

    fn startpos(_config: &()) -> Self {
        Flood {
            pile: 1 << 40,
            to_move: 0,
        }
    }

    fn num_players(&self) -> usize {
        PLAYERS
    }

    fn side_to_move(&self) -> usize {
        self.to_move
    }

    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear_moves();
        for take in 1..=16 {
            list.push_move(Take(take));
        }
    }

    fn make_move(&mut self, m: Take) {
        self.pile -= u64::from(m.0);
        self.to_move = (self.to_move + 1) % PLAYERS;
    }

    fn undo_move(&mut self, m: Take) {
        self.pile += u64::from(m.0);
        self.to_move = (self.to_move + PLAYERS - 1) % PLAYERS;
    }

    fn hash(&self) -> u64 {
        (self.pile << 3 | self.to_move as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn in_check(&self) -> bool {
        false
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        None
    }

    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Draw
    }
}

impl Notation for Flood {
    fn from_fen(_fen: &str, config: &()) -> Result<Self, GameError> {
        Ok(Self::startpos(config))
    }

    fn to_fen(&self) -> String {
        self.pile.to_string()
    }

    fn display(&self) -> String {
        self.to_fen()
    }

    fn parse_move(&self, text: &str, _config: &()) -> Result<Take, GameError> {
        text.parse()
            .map(Take)
            .map_err(|_| GameError::new(format!("bad move '{text}'")))
    }

    fn format_move(&self, m: Take, _config: &()) -> String {
        m.0.to_string()
    }
}

impl Evaluation for Flood {
    fn evaluate(&self) -> Value {
        self.evaluate_for(self.to_move)
    }

    fn evaluate_for(&self, player: usize) -> Value {
        ((self.pile + player as u64) % 7) as Value
    }
}

impl SearchHints for Flood {
    fn generate_noisy(&self, list: &mut Self::MoveList) {
        self.generate_moves(list);
    }

    fn is_noisy(&self, _m: Take) -> bool {
        true
    }

    /// Small takes first: the policy move (16) is searched last.
    fn noisy_order(&self, m: Take) -> i32 {
        -i32::from(m.0)
    }

    fn policy_move(&self) -> Option<Take> {
        Some(Take(16))
    }
}

#[test]
fn an_expired_clock_stops_the_search_inside_depth_one_with_the_policy_move() {
    let pos = Flood::startpos(&());
    let mut searcher = Searcher::new(1);
    // The clock ran out before the search started; the node cap only ends the test if the
    // search ignored the clock (as it did before: it stopped on time only after depth 1).
    let limits = SearchLimits {
        movetime_ms: Some(100),
        nodes: Some(3_000_000),
        received: Some(Instant::now() - Duration::from_secs(10)),
        ..SearchLimits::default()
    };
    let (result, _) = support::search_default(&mut searcher, &pos, &limits);
    assert_eq!(result.depth, 0, "no iteration can complete");
    assert!(result.nodes < 100_000, "{} nodes", result.nodes);
    assert_eq!(
        result.best,
        Some(Take(16)),
        "nothing searched: the policy move"
    );
}

#[test]
fn without_a_clock_the_node_limit_still_ends_depth_one() {
    let pos = Flood::startpos(&());
    let mut searcher = Searcher::new(1);
    let limits = SearchLimits {
        nodes: Some(50_000),
        ..SearchLimits::default()
    };
    let (result, _) = support::search_default(&mut searcher, &pos, &limits);
    assert_eq!(result.depth, 0);
    assert_eq!(result.nodes, 50_000);
    let best = result.best.expect("a move");
    assert!((1..=16).contains(&best.0));
}
