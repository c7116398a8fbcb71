//! The one list of games. Everything that depends on which games exist is made here from it:
//! [`AnyGame`] (a position of any game), [`GameKind`] (a game without a position: names,
//! `UCI_Variant` values, bench positions, tunable weights), [`GameConfigs`] (every game's setup,
//! with the setup options of all games), and the `with_game!`/`with_kind!` macros that call
//! generic code (`search<G: Game>`, perft, the match referee) with the concrete game.
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

/// Access to the setup of game `G` inside a registry's `GameConfigs` (implemented by
/// [`register_games!`] for every game it registers).
pub trait ConfigOf<G: super::Game> {
    /// The setup of `G`.
    fn config_of(&self) -> &G::Config;
    /// The setup of `G`, to change.
    fn config_of_mut(&mut self) -> &mut G::Config;
}

/// Declares the registry of games: `AnyGame`, `GameKind`, `GameConfigs` and the `with_game!` /
/// `with_kind!` macros, in the module it is called in (`in` names that module's path, so the
/// macros can name the types from anywhere). One line per game:
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

        /// Every registered game's setup (its `Game::Config`), one field per game, so that a
        /// setting made while another game is chosen is kept for when it is chosen again.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct GameConfigs {
            $(
                #[doc = concat!("The setup of `", stringify!($variant), "`.")]
                pub $field: <$ty as $crate::game::Game>::Config,
            )+
        }

        /// Calls generic code with the concrete game inside an `AnyGame`:
        /// `with_game!(any, g => body)`, or with its setup too:
        /// `with_game!(any, configs, g, c => body)` (`c` is `&G::Config`).
        #[allow(unused_macros)]
        macro_rules! with_game {
            ($d any:expr, $d g:ident => $d body:expr) => {{
                use $($path)::+::AnyGame as RegisteredGame;
                match $d any {
                    $( RegisteredGame::$variant($d g) => $d body, )+
                }
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

        impl GameKind {
            /// Every registered game, in registry order.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),+];
            /// Their protocol names, in the same order (the `UCI_Variant` values).
            pub const NAMES: &'static [&'static str] = &[$(<$ty as $crate::game::Game>::NAME),+];

            /// The protocol name (`UCI_Variant` value) of this game.
            pub const fn name(self) -> &'static str {
                match self {
                    $( GameKind::$variant => <$ty as $crate::game::Game>::NAME, )+
                }
            }

            /// Reads a protocol name (case-insensitive, surrounding blanks ignored).
            pub fn from_name(name: &str) -> Option<GameKind> {
                Self::ALL.iter().copied().find(|k| k.name().eq_ignore_ascii_case(name.trim()))
            }

            /// The start position of this game in its setup from `configs`.
            pub fn startpos(self, configs: &GameConfigs) -> AnyGame {
                match self {
                    $( GameKind::$variant => AnyGame::$variant(
                        <$ty as $crate::game::Game>::startpos(&configs.$field)
                    ), )+
                }
            }

            /// Parses a position of this game in its setup from `configs`.
            pub fn from_fen(
                self,
                fen: &str,
                configs: &GameConfigs,
            ) -> Result<AnyGame, $crate::game::GameError> {
                Ok(match self {
                    $( GameKind::$variant => AnyGame::$variant(
                        <$ty as $crate::game::Game>::from_fen(fen, &configs.$field)?
                    ), )+
                })
            }

            /// The game whose position strings have the board shape of `fen` (its number of
            /// ranks, see [`Game::FEN_RANKS`](crate::game::Game::FEN_RANKS)), if exactly one has.
            pub fn from_fen_shape(fen: &str) -> Option<GameKind> {
                let ranks = fen.split_whitespace().next()?.split('/').count();
                let mut found = Self::ALL.iter().copied().filter(|k| k.fen_ranks() == ranks);
                let first = found.next()?;
                found.next().is_none().then_some(first)
            }

            /// [`Game::FEN_RANKS`](crate::game::Game::FEN_RANKS) of this game.
            pub const fn fen_ranks(self) -> usize {
                match self {
                    $( GameKind::$variant => <$ty as $crate::game::Game>::FEN_RANKS, )+
                }
            }

            /// The game's setup options.
            pub fn setup(self) -> Vec<$crate::game::SetupInfo> {
                match self {
                    $( GameKind::$variant => <$ty as $crate::game::Game>::SETUP
                        .iter()
                        .map(|o| o.info)
                        .collect(), )+
                }
            }

            /// The tunable weights of the game's evaluation (its search parameters, and every
            /// parameter of the engine, are collected where the search lives:
            /// `src/search/catalog.rs`).
            pub fn params(self) -> &'static [&'static $crate::tune::Param] {
                match self {
                    $( GameKind::$variant => <$ty as $crate::game::Game>::PARAMS, )+
                }
            }

            /// The game's network slot (`None` for a game without a network).
            pub fn nnue(self) -> Option<&'static $crate::nnue::NetSlot> {
                match self {
                    $( GameKind::$variant => <$ty as $crate::game::Game>::nnue(), )+
                }
            }

            /// The bench positions of the game and the depth they are searched to.
            pub fn bench(self) -> (&'static [&'static str], u32) {
                match self {
                    $( GameKind::$variant => (
                        <$ty as $crate::game::Game>::BENCH_POSITIONS,
                        <$ty as $crate::game::Game>::BENCH_DEPTH,
                    ), )+
                }
            }
        }

        impl GameConfigs {
            /// Sets setup option number `index` of `kind` (see [`GameKind::setup`]); a value the
            /// option's type does not accept is an error and changes nothing.
            pub fn set(
                &mut self,
                kind: GameKind,
                index: usize,
                value: Option<&str>,
            ) -> Result<(), String> {
                match kind {
                    $( GameKind::$variant => match <$ty as $crate::game::Game>::SETUP.get(index) {
                        Some(o) => o.set(&mut self.$field, value),
                        None => Err(format!("{} has no setup option {index}", kind.name())),
                    }, )+
                }
            }

            /// The value of every setup option of `kind` that is not at its default, as
            /// (option, value text): what a GUI sends an engine to play in this setup.
            pub fn non_default(&self, kind: GameKind) -> Vec<($crate::game::SetupInfo, String)> {
                match kind {
                    $( GameKind::$variant => <$ty as $crate::game::Game>::SETUP
                        .iter()
                        .filter(|o| !o.is_default(&self.$field))
                        .map(|o| (o.info, (o.value)(&self.$field)))
                        .collect(), )+
                }
            }
        }

        $(
            impl $crate::game::registry::ConfigOf<$ty> for GameConfigs {
                fn config_of(&self) -> &<$ty as $crate::game::Game>::Config {
                    &self.$field
                }
                fn config_of_mut(&mut self) -> &mut <$ty as $crate::game::Game>::Config {
                    &mut self.$field
                }
            }
        )+

        impl GameConfigs {
            /// The setup of game `G`: `configs.get::<Chess>()`.
            pub fn get<G: $crate::game::Game>(&self) -> &G::Config
            where
                Self: $crate::game::registry::ConfigOf<G>,
            {
                $crate::game::registry::ConfigOf::<G>::config_of(self)
            }

            /// The setup of game `G`, to change.
            pub fn get_mut<G: $crate::game::Game>(&mut self) -> &mut G::Config
            where
                Self: $crate::game::registry::ConfigOf<G>,
            {
                $crate::game::registry::ConfigOf::<G>::config_of_mut(self)
            }
        }

        impl GameConfigs {
            /// Finds the setup option named `name` (case-insensitive) in the dialect's names, among
            /// every game's options: (game, index, option).
            pub fn find_option(name: &str, ucci: bool) -> Option<(GameKind, usize, $crate::game::SetupInfo)> {
                let name = name.trim();
                GameKind::ALL.iter().find_map(|&kind| {
                    kind.setup().into_iter().enumerate().find_map(|(i, info)| {
                        let n = if ucci { info.ucci_name } else { info.uci_name };
                        n.is_some_and(|n| n.eq_ignore_ascii_case(name))
                            .then_some((kind, i, info))
                    })
                })
            }

            /// Reads one setup flag of `kind` from command-line arguments: `args[*i]` is `--flag`
            /// (a check option) or `--flag VALUE`. Returns `Ok(false)` when `args[*i]` is no setup flag
            /// of `kind`; on success `*i` points at the last argument used.
            pub fn read_flag(
                &mut self,
                kind: GameKind,
                args: &[String],
                i: &mut usize,
            ) -> Result<bool, String> {
                let Some(flag) = args.get(*i).and_then(|a| a.strip_prefix("--")) else {
                    return Ok(false);
                };
                let Some((index, info)) = kind
                    .setup()
                    .into_iter()
                    .enumerate()
                    .find(|(_, o)| o.flag == flag)
                else {
                    return Ok(false);
                };
                let value = match info.kind {
                    $crate::tune::OptionType::Check { .. } => "true".to_string(),
                    _ => {
                        *i += 1;
                        args.get(*i)
                            .cloned()
                            .ok_or_else(|| format!("--{flag} needs a value"))?
                    }
                };
                self.set(kind, index, Some(&value))
                    .map_err(|e| format!("--{flag}: {e}"))?;
                Ok(true)
            }

            /// The command-line flags of every game, for usage texts: `--flag` or `--flag VALUES`.
            pub fn flags_help(kind: GameKind) -> Vec<String> {
                kind.setup()
                    .into_iter()
                    .map(|o| match o.kind {
                        $crate::tune::OptionType::Check { .. } => format!("--{}", o.flag),
                        $crate::tune::OptionType::Combo { vars, .. } => {
                            format!("--{} {}", o.flag, vars.join("|"))
                        }
                        _ => format!("--{} N", o.flag),
                    })
                    .collect()
            }
        }

        impl AnyGame {
            /// The position string.
            pub fn to_fen(&self) -> String {
                with_game!(self, g => $crate::game::Game::to_fen(g))
            }

            /// The `d` drawing.
            pub fn display(&self) -> String {
                with_game!(self, g => $crate::game::Game::display(g))
            }

            /// The `Outcome:` line of `d` when the game is over here (see
            /// [`$crate::game::Game::outcome_line`]).
            pub fn outcome_line(&self) -> Option<String> {
                with_game!(self, g => $crate::game::Game::outcome_line(g))
            }

            /// Parses `text` as a legal move and plays it.
            pub fn play_text_move(
                &mut self,
                text: &str,
                configs: &GameConfigs,
            ) -> Result<(), $crate::game::GameError> {
                with_game!(self, configs, g, c => {
                    let m = $crate::game::Game::parse_move(g, text, c)?;
                    $crate::game::Game::make_move(g, m);
                    Ok(())
                })
            }

            /// Checks that `text` is a legal move here.
            pub fn check_move(&self, text: &str, configs: &GameConfigs) -> Result<(), $crate::game::GameError> {
                with_game!(self, configs, g, c => $crate::game::Game::parse_move(g, text, c).map(|_| ()))
            }

            /// Checks that `text` is one of the legal moves generated here (for `searchmoves`):
            /// stricter than [`AnyGame::check_move`], which also accepts what `position ...
            /// moves` may play but a search never does (the null move `0000`).
            pub fn check_root_move(&self, text: &str, configs: &GameConfigs) -> Result<(), $crate::game::GameError> {
                with_game!(self, configs, g, c => {
                    let m = $crate::game::Game::parse_move(g, text, c)?;
                    let mut list = <_ as ::core::default::Default>::default();
                    $crate::game::Game::generate_moves(g, &mut list);
                    if $crate::game::MoveBuffer::moves(&list).contains(&m) {
                        Ok(())
                    } else {
                        Err($crate::game::GameError::new(format!("'{text}' is not a legal move of the position")))
                    }
                })
            }

            /// Perft with one line per root move (`move: count`) and the total.
            pub fn perft_divide(&mut self, depth: u32, configs: &GameConfigs) -> (Vec<(String, u64)>, u64) {
                with_game!(self, configs, g, c => $crate::game::perft_divide(g, depth, c))
            }

            /// The terms of the static evaluation (`eval`).
            pub fn eval_terms(&self) -> Vec<(String, $crate::game::Value)> {
                with_game!(self, g => $crate::game::Game::eval_terms(g))
            }

            /// What the `eval` command prints: the hand-written evaluation's terms, then for a
            /// game with a network its evaluation (`network (side to move)`) and the one the
            /// search uses (`used (side to move)`, with `Use NNUE` on the network's).
            pub fn eval_lines(&self) -> Vec<(String, $crate::game::Value)> {
                with_game!(self, g => {
                    let mut lines = $crate::game::Game::eval_terms(g);
                    if let Some(v) = $crate::game::Game::network_eval(g) {
                        lines.push(("network (side to move)".to_string(), v));
                        lines.push(("used (side to move)".to_string(), $crate::game::Game::evaluate(g)));
                    }
                    lines
                })
            }

            /// The legal moves for `moves [filter]` (see [`$crate::game::Game::list_moves`]).
            pub fn list_moves(
                &self,
                filter: Option<&str>,
                configs: &GameConfigs,
            ) -> Result<Vec<String>, $crate::game::GameError> {
                with_game!(self, configs, g, c => $crate::game::Game::list_moves(g, filter, c))
            }

            /// Index of the player to move and the number of players.
            pub fn turn(&self) -> (usize, usize) {
                with_game!(self, g => ($crate::game::Game::side_to_move(g), $crate::game::Game::num_players(g)))
            }
        }

        impl AnyGame {
            /// Which game this is.
            pub fn kind(&self) -> GameKind {
                match self {
                    $( AnyGame::$variant(_) => GameKind::$variant, )+
                }
            }
        }
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
