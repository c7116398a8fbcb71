//! The one list of games. [`register_games!`] makes from it what depends on which games exist:
//! [`AnyGame`] (a position of any game), [`GameKind`] (a game without a position),
//! [`GameConfigs`] (every game's setup), and the `with_game!`/`with_kind!` macros that call
//! generic code (`search<G: Game>`, perft, the match referee) with the concrete game. Everything
//! else is plain code below, written once: each method of [`GameKind`], [`GameConfigs`] and
//! [`AnyGame`] hands the concrete game to a generic function (here, in [`crate::game::setup`] or
//! a [`Game`] method), which serves any registry as well (`tests/registry_toy.rs` uses them with
//! its own). The tunable parameters of every game are collected where the search lives
//! (`src/search/catalog.rs`): this floor names nothing above it.
//!
//! # Adding a game
//! 1. Write its folder `src/game/<name>/` with a type that implements [`Game`] (its `Config`,
//!    `SETUP` options, `PARAMS`, bench positions and the hooks whose defaults do not fit).
//! 2. Add `pub mod <name>;` to `src/game/mod.rs` and one line to the [`register_games!`] call
//!    below.
//!
//! Nothing else changes: the engine offers it in `UCI_Variant`, its setup options appear in both
//! handshakes and as `--flags` of `sanqi perft` and `sanqi match`, `bench` searches its positions,
//! `spsa` lists its weights. `tests/registry_toy.rs` registers a toy game the same way.

use crate::game::prelude::*;
use crate::game::{setup, GameError, MoveBuffer, SetupInfo, Value};
use crate::nnue::NetSlot;
use crate::tune::Param;

/// Access to the setup of game `G` inside a registry's `GameConfigs` (implemented by
/// [`register_games!`] for every game it registers).
pub trait ConfigOf<G: Rules> {
    /// The setup of `G`.
    fn config_of(&self) -> &G::Config;
    /// The setup of `G`, to change.
    fn config_of_mut(&mut self) -> &mut G::Config;
}

/// Declares a registry of games in the module it is called in (`in` names that module's path, so
/// that the macros can name the types from anywhere): the enums `AnyGame` (a position, with
/// `kind()` and `From` each game's type) and `GameKind` (with `ALL`, every game in registry
/// order), `GameConfigs` (one setup field per game, reached by `get::<G>()`/`get_mut::<G>()`),
/// and the dispatch macros `with_game!` and `with_kind!`. One line per game:
/// `/// doc` `Variant(crate::path::Type), config_field;` (the type by its full path: the macros
/// name it from wherever they are called).
#[macro_export]
macro_rules! register_games {
    (in $($path:ident)::+; $( $(#[$doc:meta])* $variant:ident($ty:ty), $field:ident; )+) => {
        $crate::register_games!(@emit ($) [$($path)::+] $( $(#[$doc])* $variant($ty), $field; )+);
    };
    (@emit ($d:tt) [$($path:ident)::+] $( $(#[$doc:meta])* $variant:ident($ty:ty), $field:ident; )+) => {
        /// A position of one of the registered games. The engine holds one and clones it once
        /// per `go`; positions differ in size from game to game, and are not boxed.
        #[derive(Clone)]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyGame {
            $( $(#[$doc])* $variant($ty), )+
        }

        /// A registered game, without a position.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $( $(#[$doc])* $variant, )+
        }

        impl GameKind {
            /// Every registered game, in registry order.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),+];
        }

        impl AnyGame {
            /// Which game this is.
            pub fn kind(&self) -> GameKind {
                match self { $( AnyGame::$variant(_) => GameKind::$variant, )+ }
            }
        }

        /// Every registered game's setup (its `Rules::Config`), one field per game, so that a
        /// setting made while another game is chosen is kept for when it is chosen again.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct GameConfigs {
            $( #[doc = concat!("The setup of `", stringify!($variant), "`.")]
            pub $field: <$ty as $crate::game::Rules>::Config, )+
        }

        $(
            impl From<$ty> for AnyGame {
                fn from(game: $ty) -> AnyGame { AnyGame::$variant(game) }
            }

            impl $crate::game::registry::ConfigOf<$ty> for GameConfigs {
                fn config_of(&self) -> &<$ty as $crate::game::Rules>::Config { &self.$field }
                fn config_of_mut(&mut self) -> &mut <$ty as $crate::game::Rules>::Config {
                    &mut self.$field
                }
            }
        )+

        impl GameConfigs {
            /// The setup of game `G`: `configs.get::<Chess>()`.
            pub fn get<G: $crate::game::Rules>(&self) -> &G::Config
            where Self: $crate::game::registry::ConfigOf<G> {
                $crate::game::registry::ConfigOf::<G>::config_of(self)
            }

            /// The setup of game `G`, to change.
            pub fn get_mut<G: $crate::game::Rules>(&mut self) -> &mut G::Config
            where Self: $crate::game::registry::ConfigOf<G> {
                $crate::game::registry::ConfigOf::<G>::config_of_mut(self)
            }
        }

        /// Calls generic code with the concrete game inside an `AnyGame`:
        /// `with_game!(any, g => body)`, or with its setup too:
        /// `with_game!(any, configs, g, c => body)` (`c` is `&G::Config`).
        #[allow(unused_macros)]
        macro_rules! with_game {
            ($d any:expr, $d g:ident => $d body:expr) => {{
                use $($path)::+::AnyGame as RegisteredGame;
                match $d any { $( RegisteredGame::$variant($d g) => $d body, )+ }
            }};
            ($d any:expr, $d configs:expr, $d g:ident, $d c:ident => $d body:expr) => {{
                use $($path)::+::AnyGame as RegisteredGame;
                match $d any {
                    $( RegisteredGame::$variant($d g) => {
                        let $d c = &$d configs.$field;
                        $d body
                    } )+
                }
            }};
        }
        #[allow(unused_imports)]
        pub(crate) use with_game;

        /// Calls generic code with a game type named by a `GameKind`:
        /// `with_kind!(kind, G => run::<G>())`.
        #[allow(unused_macros)]
        macro_rules! with_kind {
            ($d kind:expr, $d t:ident => $d body:expr) => {{
                use $($path)::+::GameKind as RegisteredKind;
                match $d kind {
                    $( RegisteredKind::$variant => {
                        type $d t = $ty;
                        $d body
                    } )+
                }
            }};
        }
        #[allow(unused_imports)]
        pub(crate) use with_kind;
    };
}

crate::register_games! {
    in crate::game::registry;
    /// Chess, standard or Chess960.
    Chess(crate::game::chess::Chess), chess;
    /// Xiangqi.
    Xiangqi(crate::game::xiangqi::Xiangqi), xiangqi;
    /// Chinese checkers with 2, 3, 4 or 6 players.
    ChineseCheckers(crate::game::chinese_checkers::ChineseCheckers), chinese_checkers;
}

/// The game the engine plays until `UCI_Variant` names another (and `sanqi perft` without
/// `--game`).
pub const DEFAULT_GAME: GameKind = GameKind::Chess;

/// The game of the UCCI dialect: `ucci` selects it.
pub const UCCI_GAME: GameKind = GameKind::Xiangqi;

impl GameKind {
    /// The protocol names of [`GameKind::ALL`], in the same order (the `UCI_Variant` values).
    pub const NAMES: &'static [&'static str] = &{
        let mut names = [""; GameKind::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = GameKind::ALL[i].name();
            i += 1;
        }
        names
    };

    /// The protocol name (`UCI_Variant` value) of this game.
    pub const fn name(self) -> &'static str {
        with_kind!(self, G => G::NAME)
    }

    /// Reads a protocol name (case-insensitive, surrounding blanks ignored).
    pub fn from_name(name: &str) -> Option<GameKind> {
        let name = name.trim();
        Self::ALL
            .iter()
            .copied()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }

    /// The start position of this game in its setup from `configs`.
    pub fn startpos(self, configs: &GameConfigs) -> AnyGame {
        with_kind!(self, G => AnyGame::from(G::startpos(configs.get::<G>())))
    }

    /// Parses a position of this game in its setup from `configs`.
    pub fn from_fen(self, fen: &str, configs: &GameConfigs) -> Result<AnyGame, GameError> {
        with_kind!(self, G => G::from_fen(fen, configs.get::<G>()).map(AnyGame::from))
    }

    /// The game whose position strings have the board shape of `fen` (its number of ranks, see
    /// [`Notation::FEN_RANKS`]), if exactly one has.
    pub fn from_fen_shape(fen: &str) -> Option<GameKind> {
        let ranks = fen.split_whitespace().next()?.split('/').count();
        let mut found = Self::ALL.iter().copied().filter(|k| k.fen_ranks() == ranks);
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }

    /// [`Notation::FEN_RANKS`] of this game.
    pub const fn fen_ranks(self) -> usize {
        with_kind!(self, G => G::FEN_RANKS)
    }

    /// The game's setup options.
    pub fn setup(self) -> Vec<SetupInfo> {
        with_kind!(self, G => setup::infos::<G>())
    }

    /// The tunable weights of the game's evaluation (its search parameters, and every parameter
    /// of the engine, are collected where the search lives: `src/search/catalog.rs`).
    pub fn params(self) -> &'static [&'static Param] {
        with_kind!(self, G => G::PARAMS)
    }

    /// The game's network slot (`None` for a game without a network).
    pub fn nnue(self) -> Option<&'static NetSlot> {
        with_kind!(self, G => G::nnue())
    }

    /// The bench positions of the game and the depth they are searched to.
    pub fn bench(self) -> (&'static [&'static str], u32) {
        with_kind!(self, G => (G::BENCH_POSITIONS, G::BENCH_DEPTH))
    }
}

impl GameConfigs {
    /// Sets setup option number `index` of `kind` (see [`GameKind::setup`]); a value the option's
    /// type does not accept is an error and changes nothing.
    pub fn set(&mut self, kind: GameKind, index: usize, value: Option<&str>) -> Result<(), String> {
        with_kind!(kind, G => setup::set::<G>(self.get_mut::<G>(), index, value))
    }

    /// The value of every setup option of `kind` that is not at its default, as (option, value
    /// text): what a GUI sends an engine to play in this setup.
    pub fn non_default(&self, kind: GameKind) -> Vec<(SetupInfo, String)> {
        with_kind!(kind, G => setup::non_default::<G>(self.get::<G>()))
    }

    /// Finds the setup option named `name` (case-insensitive) in the dialect's names, among every
    /// game's options: (game, index, option).
    pub fn find_option(name: &str, ucci: bool) -> Option<(GameKind, usize, SetupInfo)> {
        GameKind::ALL.iter().find_map(|&kind| {
            with_kind!(kind, G => setup::find::<G>(name, ucci)).map(|(i, info)| (kind, i, info))
        })
    }

    /// Reads one setup flag of `kind` from command-line arguments: `args[*i]` is `--flag` (a
    /// check option) or `--flag VALUE`. Returns `Ok(false)` when `args[*i]` is no setup flag of
    /// `kind`; on success `*i` points at the last argument used.
    pub fn read_flag(
        &mut self,
        kind: GameKind,
        args: &[String],
        i: &mut usize,
    ) -> Result<bool, String> {
        with_kind!(kind, G => setup::read_flag::<G>(self.get_mut::<G>(), args, i))
    }

    /// The command-line flags of a game, for usage texts: `--flag` or `--flag VALUES`.
    pub fn flags_help(kind: GameKind) -> Vec<String> {
        with_kind!(kind, G => setup::flags_help::<G>())
    }
}

impl AnyGame {
    /// The position string.
    pub fn to_fen(&self) -> String {
        with_game!(self, g => g.to_fen())
    }

    /// The `d` drawing.
    pub fn display(&self) -> String {
        with_game!(self, g => g.display())
    }

    /// The `Outcome:` line of `d` when the game is over here (see [`Records::outcome_line`]).
    pub fn outcome_line(&self) -> Option<String> {
        with_game!(self, g => g.outcome_line())
    }

    /// What the endgame tables say of the position (see [`Evaluation::table_line`]).
    pub fn table_line(&self) -> Option<String> {
        with_game!(self, g => g.table_line())
    }

    /// Parses `text` as a legal move and plays it.
    pub fn play_text_move(&mut self, text: &str, configs: &GameConfigs) -> Result<(), GameError> {
        with_game!(self, configs, g, c => play_text_move(g, text, c))
    }

    /// Checks that `text` is a legal move here.
    pub fn check_move(&self, text: &str, configs: &GameConfigs) -> Result<(), GameError> {
        with_game!(self, configs, g, c => g.parse_move(text, c).map(|_| ()))
    }

    /// Checks that `text` is one of the legal moves generated here (for `searchmoves`): stricter
    /// than [`AnyGame::check_move`], which also accepts what `position ... moves` may play but a
    /// search never does (the null move `0000`).
    pub fn check_root_move(&self, text: &str, configs: &GameConfigs) -> Result<(), GameError> {
        with_game!(self, configs, g, c => check_root_move(g, text, c))
    }

    /// Perft with one line per root move (`move: count`) and the total.
    pub fn perft_divide(&mut self, depth: u32, configs: &GameConfigs) -> (Vec<(String, u64)>, u64) {
        with_game!(self, configs, g, c => crate::game::perft_divide(g, depth, c))
    }

    /// The terms of the static evaluation (`eval`).
    pub fn eval_terms(&self) -> Vec<(String, Value)> {
        with_game!(self, g => g.eval_terms())
    }

    /// What the `eval` command prints (see [`eval_lines`]).
    pub fn eval_lines(&self) -> Vec<(String, Value)> {
        with_game!(self, g => eval_lines(g))
    }

    /// The legal moves for `moves [filter]` (see [`Notation::list_moves`]).
    pub fn list_moves(
        &self,
        filter: Option<&str>,
        configs: &GameConfigs,
    ) -> Result<Vec<String>, GameError> {
        with_game!(self, configs, g, c => g.list_moves(filter, c))
    }

    /// Index of the player to move and the number of players.
    pub fn turn(&self) -> (usize, usize) {
        with_game!(self, g => (g.side_to_move(), g.num_players()))
    }
}

/// Parses `text` as a legal move of `game` and plays it.
pub fn play_text_move<G: Game>(
    game: &mut G,
    text: &str,
    config: &G::Config,
) -> Result<(), GameError> {
    let m = game.parse_move(text, config)?;
    game.make_move(m);
    Ok(())
}

/// Checks that `text` is one of the legal moves generated in `game` (for `searchmoves`): stricter
/// than [`Notation::parse_move`], which also accepts what `position ... moves` may play but a search
/// never does (the null move `0000`).
pub fn check_root_move<G: Game>(game: &G, text: &str, config: &G::Config) -> Result<(), GameError> {
    let m = game.parse_move(text, config)?;
    let mut list = G::MoveList::default();
    game.generate_moves(&mut list);
    if list.moves().contains(&m) {
        Ok(())
    } else {
        Err(GameError::new(format!(
            "'{text}' is not a legal move of the position"
        )))
    }
}

/// What the `eval` command prints: the hand-written evaluation's terms, then for a game with a
/// network its evaluation (`network (side to move)`) and the one the search uses (`used (side to
/// move)`, with `Use NNUE` on the network's).
pub fn eval_lines<G: Game>(game: &G) -> Vec<(String, Value)> {
    let mut lines = game.eval_terms();
    if let Some(v) = game.network_eval() {
        lines.push(("network (side to move)".to_string(), v));
        lines.push(("used (side to move)".to_string(), game.evaluate()));
    }
    lines
}

/// `EvalFile`: loads the network file at `path` into the slot of the game it names, or with
/// `<internal>` (or an empty path) puts every game's embedded network back. On error nothing
/// changes.
pub fn load_network(path: &str) -> Result<String, String> {
    let path = path.trim();
    if path.is_empty() || path.eq_ignore_ascii_case("<internal>") {
        for slot in GameKind::ALL.iter().filter_map(|k| k.nnue()) {
            slot.install(None)?;
        }
        return Ok("the embedded networks".to_string());
    }
    // Bounded and regular files only: `/dev/zero`, a FIFO or a huge sparse file must not hold
    // the command thread (`isready`, `stop`) or its memory.
    let bytes = crate::files::read_bounded(
        std::path::Path::new(path),
        crate::nnue::MAX_FILE_BYTES,
        "network file",
    )?;
    let net = crate::nnue::Network::from_bytes(&bytes)
        .map_err(|e| format!("network file '{path}': {e}"))?;
    let game = net.game.clone();
    let slot = GameKind::ALL
        .iter()
        .filter_map(|k| k.nnue())
        .find(|s| s.game == game)
        .ok_or_else(|| {
            format!("network file '{path}' is for '{game}', a game without a network")
        })?;
    slot.install(Some(net))
        .map_err(|e| format!("network file '{path}': {e}"))?;
    Ok(format!("{game} network {path}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setup_option_is_well_formed_and_its_default_is_the_config_default() {
        let configs = GameConfigs::default();
        for &kind in GameKind::ALL {
            assert!(configs.non_default(kind).is_empty(), "{}", kind.name());
            for (i, o) in kind.setup().into_iter().enumerate() {
                assert!(o.uci_name.is_some() || o.ucci_name.is_some());
                assert!(!o.flag.is_empty() && !o.flag.starts_with('-'));
                let mut c = configs;
                c.set(kind, i, Some(&o.kind.default_text())).unwrap();
                assert_eq!(c, configs, "{} {:?}", kind.name(), o);
            }
        }
    }

    #[test]
    fn names_round_trip_and_flags_are_read() {
        for &kind in GameKind::ALL {
            assert_eq!(GameKind::from_name(&kind.name().to_uppercase()), Some(kind));
        }
        assert_eq!(GameKind::from_name("shogi"), None);
        let mut c = GameConfigs::default();
        let args: Vec<String> = ["--players", "3", "--goal-lock", "--chess960"]
            .map(String::from)
            .to_vec();
        let mut i = 0;
        assert_eq!(
            c.read_flag(GameKind::ChineseCheckers, &args, &mut i),
            Ok(true)
        );
        assert_eq!(i, 1);
        i = 2;
        assert_eq!(
            c.read_flag(GameKind::ChineseCheckers, &args, &mut i),
            Ok(true)
        );
        i = 3;
        assert_eq!(
            c.read_flag(GameKind::ChineseCheckers, &args, &mut i),
            Ok(false)
        );
        assert_eq!(c.non_default(GameKind::ChineseCheckers).len(), 2);
        let bad: Vec<String> = ["--players", "5"].map(String::from).to_vec();
        assert!(c
            .read_flag(GameKind::ChineseCheckers, &bad, &mut 0)
            .is_err());
    }
}
