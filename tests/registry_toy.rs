//! Adding a game takes its own code and one registry line: a toy game (Nim: take 1 to
//! `max take` stones, whoever takes the last stone wins) is registered beside chess with the same
//! `register_games!` macro the engine uses, and everything the registry makes works for it: names,
//! start positions, position strings, setup options and command-line flags, perft through
//! `AnyGame`, and the generic search through `with_kind!`. The expected values come from Nim's
//! theory (a pile that is a multiple of `max take + 1` is lost for the side to move) and from
//! counting compositions, not from the engine.

use sanqi::game::prelude::*;
use sanqi::game::setup::{SetupInfo, SetupOption};
use sanqi::game::{GameError, GameMove, MoveList, Outcome, Plain};
use sanqi::search::{SearchControl, SearchLimits, SearchOptions, SearchScore, Searcher};
use sanqi::tune::OptionType;

/// Nim's setup: how many stones a move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimConfig {
    max_take: u8,
}

impl Default for NimConfig {
    fn default() -> Self {
        NimConfig { max_take: 3 }
    }
}

/// A move: the number of stones taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Take(u8);

impl GameMove for Take {
    fn to_bits(self) -> u16 {
        u16::from(self.0)
    }
    fn from_bits(bits: u16) -> Self {
        Take(bits as u8)
    }
}

/// A Nim position: the pile, the side to move, the rule, and the moves played.
#[derive(Clone, Debug)]
pub struct Nim {
    stones: u8,
    side: usize,
    max_take: u8,
    history: Vec<u8>,
}

const SETUP: &[SetupOption<NimConfig>] = &[SetupOption {
    info: SetupInfo {
        uci_name: Some("Nim Max Take"),
        ucci_name: None,
        flag: "max-take",
        kind: OptionType::Spin {
            default: 3,
            min: 1,
            max: 9,
        },
        resets_position: true,
    },
    apply: |c, v| c.max_take = v.parse().unwrap_or(3),
    value: |c| c.max_take.to_string(),
}];

impl Rules for Nim {
    type Move = Take;
    type MoveList = MoveList<Take, 9>;
    type Config = NimConfig;
    const NAME: &'static str = "nim";
    const SETUP: &'static [SetupOption<NimConfig>] = SETUP;

    fn startpos(config: &NimConfig) -> Self {
        Nim {
            stones: 21,
            side: 0,
            max_take: config.max_take,
            history: Vec::new(),
        }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> usize {
        self.side
    }

    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear();
        for n in 1..=self.max_take.min(self.stones) {
            list.push(Take(n));
        }
    }

    fn make_move(&mut self, m: Take) {
        self.stones -= m.0;
        self.side ^= 1;
        self.history.push(m.0);
    }

    fn undo_move(&mut self, m: Take) {
        self.stones += m.0;
        self.side ^= 1;
        self.history.pop();
    }

    fn hash(&self) -> u64 {
        (u64::from(self.stones) << 1 | self.side as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn in_check(&self) -> bool {
        false
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        None
    }

    /// No stones left: the player who took the last one won.
    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Win(self.side ^ 1)
    }
}

impl Notation for Nim {
    fn from_fen(fen: &str, config: &NimConfig) -> Result<Self, GameError> {
        let mut words = fen.split_whitespace();
        let stones = words.next().and_then(|w| w.parse().ok());
        let side = words.next().and_then(|w| w.parse().ok());
        match (stones, side, words.next()) {
            (Some(stones), Some(side @ (0 | 1)), None) => Ok(Nim {
                stones,
                side,
                max_take: config.max_take,
                history: Vec::new(),
            }),
            _ => Err(GameError::new("a Nim position is '<stones> <side 0|1>'")),
        }
    }

    fn to_fen(&self) -> String {
        format!("{} {}", self.stones, self.side)
    }

    fn display(&self) -> String {
        format!("{} stones, player {} to move", self.stones, self.side + 1)
    }

    fn parse_move(&self, text: &str, _config: &NimConfig) -> Result<Take, GameError> {
        match text.parse::<u8>() {
            Ok(n) if n >= 1 && n <= self.max_take.min(self.stones) => Ok(Take(n)),
            _ => Err(GameError::new(format!("cannot take '{text}' stones here"))),
        }
    }

    fn format_move(&self, m: Take, _config: &NimConfig) -> String {
        m.0.to_string()
    }
}

sanqi::register_games! {
    in crate;
    /// Chess.
    Chess(sanqi::game::chess::Chess), chess;
    /// Nim, the toy.
    Nim(sanqi::game::Plain<crate::Nim>), nim;
}

/// Perft of Nim from a pile of `n`: the sequences of `depth` takes of at most `k` stones each
/// that fit in the pile (a finished game before `depth` counts no leaf, as in every perft),
/// counted by the obvious recurrence, independently of the engine.
fn compositions(n: u32, k: u32, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    (1..=k.min(n))
        .map(|t| compositions(n - t, k, depth - 1))
        .sum()
}

#[test]
fn the_registry_names_and_builds_the_new_game() {
    assert_eq!(GameKind::NAMES, &["chess", "nim"]);
    assert_eq!(GameKind::from_name(" NIM "), Some(GameKind::Nim));
    let configs = GameConfigs::default();
    let start = GameKind::Nim.startpos(&configs);
    assert_eq!(start.kind(), GameKind::Nim);
    assert_eq!(start.to_fen(), "21 0");
    assert_eq!(start.turn(), (0, 2));
    assert!(GameKind::Nim.from_fen("7 2", &configs).is_err());
    // A game of rules and notation alone has no bench positions (a search hint).
    assert_eq!(GameKind::Nim.bench(), (&[][..], 1));
    assert!(GameKind::Chess
        .startpos(&configs)
        .to_fen()
        .starts_with("rnbqkbnr/"));
}

#[test]
fn setup_options_and_flags_come_from_the_game_table() {
    let mut configs = GameConfigs::default();
    let (kind, index, info) = GameConfigs::find_option("nim max take", false).expect("found");
    assert_eq!((kind, index, info.flag), (GameKind::Nim, 0, "max-take"));
    assert!(GameConfigs::find_option("UCI_Chess960", false).is_some());
    assert!(configs.set(kind, index, Some("12")).is_err());
    assert_eq!(configs, GameConfigs::default());
    let args: Vec<String> = ["--max-take", "5"].map(String::from).to_vec();
    let mut i = 0;
    assert_eq!(configs.read_flag(GameKind::Nim, &args, &mut i), Ok(true));
    assert_eq!(configs.get::<Plain<Nim>>().max_take, 5);
    assert_eq!(configs.non_default(GameKind::Nim).len(), 1);
    assert_eq!(GameConfigs::flags_help(GameKind::Nim), ["--max-take N"]);
    let mut game = GameKind::Nim.startpos(&configs);
    assert!(game.play_text_move("5", &configs).is_ok());
    assert!(game.play_text_move("6", &configs).is_err());
    assert_eq!(game.to_fen(), "16 1");
}

#[test]
fn perft_through_any_game_counts_the_compositions() {
    let configs = GameConfigs::default();
    for depth in 1..=6 {
        let mut game = GameKind::Nim.from_fen("9 0", &configs).expect("valid");
        let (lines, total) = game.perft_divide(depth, &configs);
        assert_eq!(total, compositions(9, 3, depth), "depth {depth}");
        assert_eq!(lines.len(), 3);
    }
}

#[test]
fn the_generic_search_plays_the_game_through_with_kind() {
    // Nim theory: from a pile of n, take n mod (k + 1) stones; a multiple of k + 1 is lost.
    for (stones, max_take) in [(10u8, 3u8), (13, 3), (11, 4), (8, 3)] {
        let mut configs = GameConfigs::default();
        configs.get_mut::<Plain<Nim>>().max_take = max_take;
        let fen = format!("{stones} 0");
        let result = with_kind!(GameKind::Nim, G => {
            let pos = G::from_fen(&fen, configs.get::<G>()).expect("valid");
            let limits = SearchLimits {
                depth: Some(u32::from(stones) + 1),
                ..SearchLimits::default()
            };
            let r = Searcher::new(1).search(
                &pos,
                &limits,
                &SearchOptions::default(),
                None,
                &SearchControl::new(),
                &mut |_| {},
            );
            (r.best.map(|m| pos.format_move(m, configs.get::<G>())), r.score)
        });
        let winning = stones % (max_take + 1);
        if winning == 0 {
            assert!(
                matches!(result.1, SearchScore::Mate(n) if n < 0),
                "{fen}: {result:?}"
            );
        } else {
            assert_eq!(result.0, Some(winning.to_string()), "{fen}");
            assert!(
                matches!(result.1, SearchScore::Mate(n) if n > 0),
                "{fen}: {result:?}"
            );
        }
    }
}
