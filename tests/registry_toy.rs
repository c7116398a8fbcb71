//! Adding a game takes its own code and one registry line: a toy game (Nim: take 1 to
//! `max take` stones, whoever takes the last stone wins), written with the `Rules` and `Notation`
//! traits alone and registered as `Plain<Nim>`, stands beside chess with the same
//! `register_games!` macro the engine uses, and everything the registry makes works for it: the
//! enums (`GameKind::ALL`, `AnyGame` from a position and its `kind()`), the setup field of
//! `GameConfigs`, and the dispatch macros. Through them the generic code the engine's registry
//! methods are one-line calls into serves the toy too: names, start positions
//! and position strings, setup options and command-line flags (`sanqi::game::setup`), moves in
//! text, perft through `AnyGame`, and the generic search. The expected values come from Nim's
//! theory (a pile that is a multiple of `max take + 1` is lost for the side to move) and from
//! counting compositions, not from the engine.

use sanqi::game::prelude::*;
use sanqi::game::registry::play_text_move;
use sanqi::game::setup::{self, SetupInfo, SetupOption};
use sanqi::game::{perft_divide, GameError, GameMove, MoveList, Outcome, Plain};
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

/// The game a protocol name names (case-insensitive, surrounding blanks ignored), each name read
/// through `with_kind!`.
fn from_name(name: &str) -> Option<GameKind> {
    let name = name.trim();
    GameKind::ALL
        .iter()
        .copied()
        .find(|&k| with_kind!(k, G => G::NAME).eq_ignore_ascii_case(name))
}

/// The start position of `kind` in its setup from `configs`.
fn startpos(kind: GameKind, configs: &GameConfigs) -> AnyGame {
    with_kind!(kind, G => AnyGame::from(G::startpos(configs.get::<G>())))
}

#[test]
fn the_registry_names_and_builds_the_new_game() {
    assert_eq!(GameKind::ALL, &[GameKind::Chess, GameKind::Nim]);
    let names: Vec<&str> = GameKind::ALL
        .iter()
        .map(|&k| with_kind!(k, G => G::NAME))
        .collect();
    assert_eq!(names, ["chess", "nim"]);
    assert_eq!(from_name(" NIM "), Some(GameKind::Nim));
    assert_eq!(from_name("shogi"), None);
    let configs = GameConfigs::default();
    let start = startpos(GameKind::Nim, &configs);
    assert_eq!(start.kind(), GameKind::Nim);
    assert_eq!(with_game!(&start, g => g.to_fen()), "21 0");
    assert_eq!(
        with_game!(&start, g => (g.side_to_move(), g.num_players())),
        (0, 2)
    );
    let parsed = with_kind!(GameKind::Nim, G => {
        G::from_fen("7 1", configs.get::<G>()).map(AnyGame::from)
    });
    assert!(parsed.is_ok_and(|p| p.kind() == GameKind::Nim));
    assert!(with_kind!(GameKind::Nim, G => G::from_fen("7 2", configs.get::<G>()).is_err()));
    // Nim implements the rules and notation traits alone and is registered as `Plain<Nim>`: no
    // bench positions (a search hint), and every position evaluates as 0.
    assert_eq!(
        with_kind!(GameKind::Nim, G => (G::BENCH_POSITIONS, G::BENCH_DEPTH)),
        (&[][..], 1)
    );
    assert_eq!(
        with_kind!(GameKind::Nim, G => G::startpos(configs.get::<G>()).evaluate()),
        0
    );
    let chess = startpos(GameKind::Chess, &configs);
    assert_eq!(chess.kind(), GameKind::Chess);
    assert!(with_game!(&chess, g => g.to_fen()).starts_with("rnbqkbnr/"));
}

#[test]
fn setup_options_and_flags_come_from_the_game_table() {
    let mut configs = GameConfigs::default();
    let find = |name: &str| {
        GameKind::ALL.iter().find_map(|&k| {
            with_kind!(k, G => setup::find::<G>(name, false)).map(|(i, info)| (k, i, info))
        })
    };
    let (kind, index, info) = find("nim max take").expect("found");
    assert_eq!((kind, index, info.flag), (GameKind::Nim, 0, "max-take"));
    assert_eq!(with_kind!(kind, G => setup::infos::<G>()), [info]);
    assert_eq!(find(" UCI_Chess960 ").map(|f| f.0), Some(GameKind::Chess));
    assert!(find("Nim Max Stones").is_none());
    let set = with_kind!(kind, G => setup::set::<G>(configs.get_mut::<G>(), index, Some("12")));
    assert!(set.is_err());
    assert_eq!(configs, GameConfigs::default());
    let args: Vec<String> = ["--chess960", "--max-take", "5"].map(String::from).to_vec();
    let mut i = 0;
    let mut read = |i: &mut usize| with_kind!(GameKind::Nim, G => setup::read_flag::<G>(configs.get_mut::<G>(), &args, i));
    assert_eq!(read(&mut i), Ok(false));
    i = 1;
    assert_eq!(read(&mut i), Ok(true));
    assert_eq!(i, 2);
    assert_eq!(configs.get::<Plain<Nim>>().max_take, 5);
    assert_eq!(
        configs.get::<sanqi::game::chess::Chess>(),
        &Default::default()
    );
    let changed = setup::non_default::<Plain<Nim>>(configs.get::<Plain<Nim>>());
    assert_eq!(changed, [(info, "5".to_string())]);
    assert_eq!(setup::flags_help::<Plain<Nim>>(), ["--max-take N"]);
    let mut game = startpos(GameKind::Nim, &configs);
    assert!(with_game!(&mut game, configs, g, c => play_text_move(g, "5", c)).is_ok());
    assert!(with_game!(&mut game, configs, g, c => play_text_move(g, "6", c)).is_err());
    assert_eq!(with_game!(&game, g => g.to_fen()), "16 1");
}

#[test]
fn perft_through_any_game_counts_the_compositions() {
    let configs = GameConfigs::default();
    for depth in 1..=6 {
        let mut game = with_kind!(GameKind::Nim, G => {
            AnyGame::from(G::from_fen("9 0", configs.get::<G>()).expect("valid"))
        });
        let (lines, total) = with_game!(&mut game, configs, g, c => perft_divide(g, depth, c));
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
