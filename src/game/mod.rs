//! The `Game` trait that search, perft, the protocol loop and the match referee are written
//! against. Everything game-specific lives in one folder per game ([`chess`], [`xiangqi`],
//! [`chinese_checkers`]) and is reached through this trait; the one list of games is
//! [`registry`], which makes [`AnyGame`] (a position of any game, picked once per command),
//! [`GameKind`] and [`GameConfigs`] (every game's setup) from it.

use std::fmt;

use arrayvec::ArrayVec;

use crate::tune::Param;

pub mod chess;
pub mod chinese_checkers;
pub mod registry;
pub mod setup;
pub mod wdl;
pub mod xiangqi;

pub(crate) use registry::{with_game, with_kind};
pub use registry::{AnyGame, GameConfigs, GameKind};
pub use setup::{SetupInfo, SetupOption};

/// An evaluation in centipawn-like units, always from the point of view of the side to move
/// (for more than two players: of the player named). The protocols' score (centipawns or mate)
/// is `sanqi_protocol::Score`; the search's is [`crate::search::SearchScore`].
pub type Value = i32;

/// Why a position string or a move token was rejected. The message names the problem and is
/// printed to the GUI as `info string error: <message>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError(pub String);

impl GameError {
    /// Builds an error from anything printable.
    pub fn new(message: impl Into<String>) -> Self {
        GameError(message.into())
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameError {}

/// How a game ended (or stands ended by rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player with this index (0-based, in turn order) has won.
    Win(usize),
    /// Draw by rule (stalemate in chess, repetition, move limit, insufficient material...).
    Draw,
}

/// A compact move that fits a transposition-table slot.
pub trait GameMove: Copy + Eq + Default + fmt::Debug + Send + Sync + 'static {
    /// 16 bits that [`GameMove::from_bits`] turns back into the same move.
    fn to_bits(self) -> u16;
    /// The inverse of [`GameMove::to_bits`]. May give a move that is not legal in a position:
    /// callers check it against the legal moves before use.
    fn from_bits(bits: u16) -> Self;
}

/// A fixed-capacity move list; every game picks its `N` and justifies it in a comment.
pub type MoveList<M, const N: usize> = ArrayVec<M, N>;

/// The minimal list interface the generic code needs, implemented for every `ArrayVec`.
pub trait MoveBuffer<M>: Default {
    /// Appends a move (the capacity is a proven bound on the legal move count).
    fn push_move(&mut self, m: M);
    /// The moves as a slice.
    fn moves(&self) -> &[M];
    /// The moves as a mutable slice (for ordering).
    fn moves_mut(&mut self) -> &mut [M];
    /// Empties the list.
    fn clear_moves(&mut self);
}

impl<M, const N: usize> MoveBuffer<M> for ArrayVec<M, N> {
    #[inline]
    fn push_move(&mut self, m: M) {
        self.push(m);
    }
    #[inline]
    fn moves(&self) -> &[M] {
        self.as_slice()
    }
    #[inline]
    fn moves_mut(&mut self) -> &mut [M] {
        self.as_mut_slice()
    }
    #[inline]
    fn clear_moves(&mut self) {
        self.clear();
    }
}

/// One board game as search, perft and the protocol loop see it.
///
/// Positions keep their own history stack (make/undo), so repetition rules can be decided
/// from inside the position.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move of this game.
    type Move: GameMove;
    /// The fixed-size list legal moves are generated into.
    type MoveList: MoveBuffer<Self::Move>;

    /// The game's setup: the settings its options change (see [`setup`]).
    type Config: Clone + Copy + fmt::Debug + Default + PartialEq + Eq + Send + Sync + 'static;

    /// The protocol name of the game (`chess`, `xiangqi`, `chinesecheckers`), the value of
    /// `UCI_Variant` and of `--game`.
    const NAME: &'static str;
    /// The game's setup options, declared once (engine options, `setoption`, command-line flags).
    const SETUP: &'static [SetupOption<Self::Config>] = &[];
    /// The tunable weights of the game's evaluation (UCI spin options, `spsa`).
    const PARAMS: &'static [&'static Param] = &[];
    /// The word that names the game in its search options (`Search <label> RFP Margin`, see
    /// [`crate::search::params`]); empty for a game without options of its own.
    const SEARCH_LABEL: &'static str = "";
    /// The game's own defaults of search parameters, as `(suffix, value)` pairs over the generic
    /// table ([`crate::search::params::TEMPLATE`]); measured per game (docs/search.md).
    const SEARCH_DEFAULTS: &'static [(&'static str, i32)] = &[];
    /// The positions `sanqi bench` searches for this game (in the default setup).
    const BENCH_POSITIONS: &'static [&'static str] = &[];
    /// The depth `sanqi bench` searches them to (picked so the whole bench takes seconds).
    const BENCH_DEPTH: u32 = 1;
    /// The number of `/`-separated ranks in the board field of the game's position string (8 for
    /// chess, 10 for xiangqi, 17 for Chinese checkers; 0: not known). A UCI `position fen` of
    /// another game's shape switches to that game ([`crate::game::GameKind::from_fen_shape`]),
    /// as GUIs that drive xiangqi engines over plain UCI expect.
    const FEN_RANKS: usize = 0;
    /// The game's win/draw/loss model (`UCI_ShowWDL`), fitted to its self-play results; `None`:
    /// no `wdl` is printed. Used only with two players.
    const WDL: Option<&'static wdl::WdlModel> = None;

    /// The start position for this configuration.
    fn startpos(config: &Self::Config) -> Self;
    /// Parses a position string (FEN, or the Chinese-checkers position string).
    fn from_fen(fen: &str, config: &Self::Config) -> Result<Self, GameError>;
    /// Writes the position string (canonical form).
    fn to_fen(&self) -> String;
    /// A human-readable drawing for the `d` command (board, FEN, hash key, extras), lines joined by `\n`.
    fn display(&self) -> String;

    /// Number of players (2 for chess and xiangqi).
    fn num_players(&self) -> usize;
    /// Index (0-based, in turn order) of the player to move.
    fn side_to_move(&self) -> usize;

    /// Generates every legal move into `list` (which is cleared first).
    fn generate_moves(&self, list: &mut Self::MoveList);
    /// Generates the legal "noisy" moves quiescence search looks at (captures and promotions; for
    /// Chinese checkers a game-appropriate subset). Cleared first.
    fn generate_noisy(&self, list: &mut Self::MoveList);
    /// Whether `m` is noisy (a capture or promotion) in this position.
    fn is_noisy(&self, m: Self::Move) -> bool;
    /// An ordering hint for noisy moves (MVV-LVA or similar); larger is searched first.
    fn noisy_order(&self, m: Self::Move) -> i32;
    /// Whether the noisy move `m` wins at least `threshold` (in evaluation units) by static
    /// exchange evaluation; quiescence search skips noisy moves that lose material this way.
    /// Default: always true (no pruning), for games without such a test.
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool {
        let _ = (m, threshold);
        true
    }
    /// How many plies quiescence search may go past the nominal depth before it only stands
    /// pat (a side in check still searches its evasions). Default: no bound, for games whose
    /// noisy moves run out by themselves (captures). A game whose noisy moves do not run out
    /// (Chinese-checkers forward jumps: depth 1 of the start position takes millions of nodes
    /// without a bound) returns a small number such as 2.
    fn quiescence_plies(&self) -> u32 {
        u32::MAX
    }

    /// Plays a legal move. Must be undone with [`Game::undo_move`] in reverse order.
    fn make_move(&mut self, m: Self::Move);
    /// Takes back the last move made (the same `m` is passed back).
    fn undo_move(&mut self, m: Self::Move);
    /// A key of the position's slowly changing structure (chess: the pawns; xiangqi: the
    /// soldiers), under which the search learns how far the static evaluation is off
    /// (correction history). Default: none (no correction).
    fn structure_key(&self) -> Option<u64> {
        None
    }
    /// Whether a null move may be tried by null-move pruning here. Default: never.
    fn can_null_move(&self) -> bool {
        false
    }
    /// Whether a side may pass its turn in this game (Chinese checkers: a side without a move
    /// passes), so that [`Game::make_null_move`] hands the move to the next player. Best-reply
    /// search for more than two players needs it. Default: no.
    fn can_pass(&self) -> bool {
        false
    }
    /// Passes the turn (only called when [`Game::can_null_move`] or [`Game::can_pass`] is true).
    fn make_null_move(&mut self) {}
    /// Takes back [`Game::make_null_move`].
    fn undo_null_move(&mut self) {}

    /// Zobrist hash of the position (side to move included).
    fn hash(&self) -> u64;
    /// Whether the side to move is in check (always false where there is no check).
    fn in_check(&self) -> bool;
    /// Game end decided by rule from the history alone, without looking at legal moves:
    /// repetition (xiangqi: perpetual check and chase), move-count rules, insufficient material,
    /// a completed target triangle. `None` while the game goes on by these rules.
    fn rule_outcome(&self) -> Option<Outcome>;
    /// [`Game::rule_outcome`] as the search sees it: the last `plies_from_root` plies were
    /// played inside the search, and with `twofold` a position that repeats one of those
    /// (inside the search path) already counts as the repetition the rules would end the game
    /// with, as strong engines do (the side to move could repeat it again). Default: the rules.
    fn search_outcome(&self, plies_from_root: usize, twofold: bool) -> Option<Outcome> {
        let _ = (plies_from_root, twofold);
        self.rule_outcome()
    }
    /// The result when the side to move has no legal move (checkmate, stalemate).
    fn no_moves_outcome(&self) -> Outcome;
    /// Full game end test: rule outcome, then no legal moves.
    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.rule_outcome() {
            return Some(o);
        }
        let mut list = Self::MoveList::default();
        self.generate_moves(&mut list);
        if list.moves().is_empty() {
            Some(self.no_moves_outcome())
        } else {
            None
        }
    }

    /// Why the game stands ended with `outcome` (from [`Game::outcome`] of this position), as
    /// the words after "wins" or "draw" in a game record: `by checkmate`, `by repetition`,
    /// `(target triangle filled)`. Default: from the rule and check state alone.
    fn outcome_reason(&self, outcome: Outcome) -> String {
        let by_rule = self.rule_outcome().is_some();
        match (outcome, by_rule) {
            (Outcome::Win(_), false) if self.in_check() => "by checkmate".into(),
            (Outcome::Win(_), false) => "(opponent has no legal move)".into(),
            (Outcome::Draw, false) => "by stalemate".into(),
            (_, true) => "by rule".into(),
        }
    }

    /// The name of player `player` (0-based, in turn order) in the words of the game's records
    /// and of the `d` command's `Outcome:` line (`white`, `red`). Default: `player 1`, `player 2`...
    fn player_name(&self, player: usize) -> String {
        format!("player {}", player + 1)
    }

    /// The game-end line of the `d` command when the game is over here (by its rules or for
    /// want of a legal move): `Outcome: black wins by perpetual chase`, `Outcome: draw by
    /// threefold repetition`. `None` while the game goes on.
    fn outcome_line(&self) -> Option<String> {
        let outcome = self.outcome()?;
        let reason = self.outcome_reason(outcome);
        Some(match outcome {
            Outcome::Win(w) => format!("Outcome: {} wins {reason}", self.player_name(w)),
            Outcome::Draw => format!("Outcome: draw {reason}"),
        })
    }

    /// How many numbered start positions this setup plays from (Chess960: 960), for match
    /// schedules that draw one per round. Default: 1, the start position alone.
    fn start_positions(config: &Self::Config) -> usize {
        let _ = config;
        1
    }
    /// Start position number `n` (`0..start_positions`; Chess960: Scharnagl's numbering).
    /// Default: [`Game::startpos`].
    fn numbered_startpos(n: usize, config: &Self::Config) -> Result<Self, GameError> {
        let _ = n;
        Ok(Self::startpos(config))
    }

    /// How far each player still has to go, lower is better (Chinese checkers: each player's
    /// distance to its target), for the match referee's stall adjudication: a game in which no
    /// player improves for a while is a stall. Default: no measure.
    fn progress(&self) -> Option<Vec<u32>> {
        None
    }

    /// Reads a move token and matches it against the legal moves (so an illegal token never
    /// reaches [`Game::make_move`]).
    fn parse_move(&self, text: &str, config: &Self::Config) -> Result<Self::Move, GameError>;
    /// Writes a move in protocol form.
    fn format_move(&self, m: Self::Move, config: &Self::Config) -> String;
    /// Extra text the engine prints as `info string <text>` before `bestmove` (Chinese checkers:
    /// `path k3 k5 k7`, the cells of the jump chain). Default: none.
    fn annotate_move(&self, m: Self::Move) -> Option<String> {
        let _ = m;
        None
    }
    /// The legal moves for the `moves [filter]` command, one text each (`e2e4`, or for Chinese
    /// checkers `k3k5 path k3 k5`). `filter` names a piece by its square or cell; a filter the
    /// game cannot read is an error. Default: every legal move whose text starts with `filter`.
    fn list_moves(
        &self,
        filter: Option<&str>,
        config: &Self::Config,
    ) -> Result<Vec<String>, GameError> {
        let mut list = Self::MoveList::default();
        self.generate_moves(&mut list);
        Ok(list
            .moves()
            .iter()
            .map(|&m| self.format_move(m, config))
            .filter(|t| filter.is_none_or(|f| t.starts_with(f)))
            .collect())
    }
    /// A move as a game record writes it (chess: SAN; xiangqi: `H2-E2`). Default: protocol form.
    fn record_move(&self, m: Self::Move, config: &Self::Config) -> String {
        self.format_move(m, config)
    }
    /// The PGN tags that name the game and its notation (`Variant`, `Format`). Default: the
    /// `Variant` tag with [`Game::NAME`].
    fn record_tags(config: &Self::Config) -> Vec<(&'static str, String)> {
        let _ = config;
        vec![("Variant", Self::NAME.to_string())]
    }
    /// Whether a record from `start` must carry its position (`SetUp`/`FEN` tags). Default: always.
    fn record_needs_fen(start: &str, config: &Self::Config) -> bool {
        let _ = (start, config);
        true
    }

    /// A move chosen by a fixed rule instead of the search (a reference player selected by a
    /// setup option, e.g. Chinese checkers' greedy player with `CC Player` `greedy`): when it
    /// returns a move, `go` plays it at once without searching. Default: `None`, always search.
    fn rule_move(&self, config: &Self::Config) -> Option<Self::Move> {
        let _ = config;
        None
    }

    /// A cheap guess at the move the side to move will play, for multi-player search that
    /// models its opponents (`Search Multiplayer Opponents` 2 and 3): Chinese checkers' greedy move.
    /// Default: `None` (the modelled player passes).
    fn policy_move(&self) -> Option<Self::Move> {
        None
    }

    /// Whether `m` is a move the policy of [`Game::policy_move`] would play here: the policy
    /// move itself, or a move tied with it by the policy's own rule (Chinese checkers: a move of
    /// the same gain and the same rearness, whatever the tie seed). Used to judge from a game's
    /// history which players play by the policy. Default: `m` is the policy move.
    fn is_policy_move(&self, m: Self::Move) -> bool {
        self.policy_move() == Some(m)
    }

    /// The game's network (NNUE), `None` for a game without one. The search, `EvalFile` and
    /// the trainer reach it through here.
    fn nnue() -> Option<&'static crate::nnue::NetSlot> {
        None
    }
    /// The network's input features of the position, one per piece (its index from each
    /// perspective), appended to `out`. Default: none.
    fn nnue_features(&self, out: &mut Vec<crate::nnue::Feature>) {
        let _ = out;
    }
    /// Called on each search thread's copy of the root position before it searches: a game
    /// with a network builds its accumulator stack here (when `Use NNUE` is on), so that
    /// make/undo keep it up to date. Default: nothing.
    fn prepare_search(&mut self) {}
    /// The network's evaluation of the position from the side to move's view, whether or not
    /// `Use NNUE` is on (for the `eval` command), from scratch; `None` for a game without a network.
    fn network_eval(&self) -> Option<Value> {
        let net = Self::nnue()?.get()?;
        let mut features = Vec::with_capacity(32);
        self.nnue_features(&mut features);
        Some(crate::nnue::evaluate_from_scratch(
            &net,
            features.into_iter(),
            self.side_to_move(),
        ))
    }

    /// Static evaluation from the point of view of the side to move.
    fn evaluate(&self) -> Value;

    /// The terms of the hand-written static evaluation for the `eval` command, each as (name,
    /// value from the side to move's view); the last one is its total, which
    /// [`Game::evaluate`] returns unless a network is used.
    /// Default: the total only.
    fn eval_terms(&self) -> Vec<(String, Value)> {
        vec![("total (side to move)".to_string(), self.evaluate())]
    }

    /// Static evaluation from the point of view of `player` (for multi-player search).
    /// The default suits two-player zero-sum games.
    fn evaluate_for(&self, player: usize) -> Value {
        if player == self.side_to_move() {
            self.evaluate()
        } else {
            -self.evaluate()
        }
    }

    /// Number of leaf nodes of the legal move tree of `depth` plies (bulk-counted at depth 1).
    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = Self::MoveList::default();
        self.generate_moves(&mut list);
        if depth == 1 {
            return list.moves().len() as u64;
        }
        let mut nodes = 0;
        for &m in list.moves() {
            self.make_move(m);
            nodes += self.perft(depth - 1);
            self.undo_move(m);
        }
        nodes
    }
}

/// Perft split by root move, as `go perft` prints it.
pub fn perft_divide<G: Game>(
    game: &mut G,
    depth: u32,
    config: &G::Config,
) -> (Vec<(String, u64)>, u64) {
    let mut lines = Vec::new();
    if depth == 0 {
        return (lines, 1);
    }
    let mut list = G::MoveList::default();
    game.generate_moves(&mut list);
    let mut total = 0;
    for &m in list.moves() {
        let text = game.format_move(m, config);
        game.make_move(m);
        let n = game.perft(depth - 1);
        game.undo_move(m);
        total += n;
        lines.push((text, n));
    }
    (lines, total)
}

/// Every legal move of `game` in protocol form.
pub fn legal_move_texts<G: Game>(game: &G, config: &G::Config) -> Vec<String> {
    let mut list = G::MoveList::default();
    game.generate_moves(&mut list);
    list.moves()
        .iter()
        .map(|&m| game.format_move(m, config))
        .collect()
}
