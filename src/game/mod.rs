//! The `Game` trait that search, perft and the protocol loop are written against, and the
//! `AnyGame` enum that picks one game at the edge (once per command).
//!
//! Every game lives in its own folder: [`chess`], [`xiangqi`], [`chinese_checkers`].

use std::fmt;

use arrayvec::ArrayVec;

pub mod chess;
pub mod chinese_checkers;
pub mod xiangqi;

/// A score in centipawn-like units, always from the point of view of the side to move
/// (for more than two players: of the player named).
pub type Score = i32;

/// Settings that change how a game's positions are set up or how its moves are written.
/// Filled from engine options (`UCI_Chess960`, the xiangqi rank convention, Chinese-checkers
/// player count and rule variants); each game reads only its own fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// Chess: write castling as king-takes-rook (`e1h1`) instead of `e1g1`. Both are read.
    pub chess960: bool,
    /// Xiangqi: read and write ranks 1-10 (Fairy-Stockfish convention) instead of ICCS 0-9.
    pub xiangqi_ranks_from_one: bool,
    /// Chinese checkers: number of players of `startpos` (2, 3, 4 or 6).
    pub cc_players: u8,
    /// Chinese checkers rule variant `goal-lock`.
    pub cc_goal_lock: bool,
    /// Chinese checkers rule variant `no-foreign-stop`.
    pub cc_no_foreign_stop: bool,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            chess960: false,
            xiangqi_ranks_from_one: false,
            cc_players: 2,
            cc_goal_lock: false,
            cc_no_foreign_stop: false,
        }
    }
}

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

    /// The protocol name of the game (`chess`, `xiangqi`, `chinesecheckers`).
    const NAME: &'static str;

    /// The start position for this configuration.
    fn startpos(config: &GameConfig) -> Self;
    /// Parses a position string (FEN, or the Chinese-checkers position string).
    fn from_fen(fen: &str, config: &GameConfig) -> Result<Self, GameError>;
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
    /// Whether a null move (pass) may be tried in search here. Default: never.
    fn can_null_move(&self) -> bool {
        false
    }
    /// Passes the turn (only called when [`Game::can_null_move`] is true).
    fn make_null_move(&mut self) {}
    /// Takes back [`Game::make_null_move`].
    fn undo_null_move(&mut self) {}

    /// Zobrist hash of the position (side to move included).
    fn hash(&self) -> u64;
    /// Whether the side to move is in check (always false where there is no check).
    fn in_check(&self) -> bool;
    /// Game end decided by rule from the history alone, without looking at legal moves:
    /// repetition (xiangqi: perpetual check), move-count rules, insufficient material,
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

    /// Reads a move token and matches it against the legal moves (so an illegal token never
    /// reaches [`Game::make_move`]).
    fn parse_move(&self, text: &str, config: &GameConfig) -> Result<Self::Move, GameError>;
    /// Writes a move in protocol form.
    fn format_move(&self, m: Self::Move, config: &GameConfig) -> String;

    /// Static evaluation from the point of view of the side to move.
    fn evaluate(&self) -> Score;

    /// The terms of the static evaluation for the `eval` command, each as (name, value from the
    /// side to move's view); the last one is the total that [`Game::evaluate`] returns.
    /// Default: the total only.
    fn eval_terms(&self) -> Vec<(String, Score)> {
        vec![("total (side to move)".to_string(), self.evaluate())]
    }

    /// Static evaluation from the point of view of `player` (for multi-player search).
    /// The default suits two-player zero-sum games.
    fn evaluate_for(&self, player: usize) -> Score {
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

/// The game chosen by `UCI_Variant` (or by the UCCI dialect), holding the current position.
///
/// Positions differ in size from game to game; the engine holds one of these at a time and
/// clones it once per `go`, so the variants are not boxed.
#[derive(Clone)]
#[allow(clippy::large_enum_variant)]
pub enum AnyGame {
    /// Chess, standard or Chess960.
    Chess(chess::Chess),
    /// Xiangqi.
    Xiangqi(xiangqi::Xiangqi),
    /// Chinese checkers with 2 to 6 players.
    ChineseCheckers(chinese_checkers::ChineseCheckers),
}

/// Which game, without a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// Chess.
    Chess,
    /// Xiangqi.
    Xiangqi,
    /// Chinese checkers.
    ChineseCheckers,
}

impl GameKind {
    /// The `UCI_Variant` value naming this game.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Chess => chess::Chess::NAME,
            GameKind::Xiangqi => xiangqi::Xiangqi::NAME,
            GameKind::ChineseCheckers => chinese_checkers::ChineseCheckers::NAME,
        }
    }

    /// Reads a `UCI_Variant` value (case-insensitive).
    pub fn from_name(name: &str) -> Option<GameKind> {
        [
            GameKind::Chess,
            GameKind::Xiangqi,
            GameKind::ChineseCheckers,
        ]
        .into_iter()
        .find(|k| k.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The start position of this game.
    pub fn startpos(self, config: &GameConfig) -> AnyGame {
        match self {
            GameKind::Chess => AnyGame::Chess(chess::Chess::startpos(config)),
            GameKind::Xiangqi => AnyGame::Xiangqi(xiangqi::Xiangqi::startpos(config)),
            GameKind::ChineseCheckers => {
                AnyGame::ChineseCheckers(chinese_checkers::ChineseCheckers::startpos(config))
            }
        }
    }

    /// Parses a position of this game.
    pub fn from_fen(self, fen: &str, config: &GameConfig) -> Result<AnyGame, GameError> {
        Ok(match self {
            GameKind::Chess => AnyGame::Chess(chess::Chess::from_fen(fen, config)?),
            GameKind::Xiangqi => AnyGame::Xiangqi(xiangqi::Xiangqi::from_fen(fen, config)?),
            GameKind::ChineseCheckers => {
                AnyGame::ChineseCheckers(chinese_checkers::ChineseCheckers::from_fen(fen, config)?)
            }
        })
    }
}

/// Calls `$body` with `$g` bound to the concrete game inside an `AnyGame` (compiled once per game).
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::game::AnyGame::Chess($g) => $body,
            $crate::game::AnyGame::Xiangqi($g) => $body,
            $crate::game::AnyGame::ChineseCheckers($g) => $body,
        }
    };
}

impl AnyGame {
    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Chess(_) => GameKind::Chess,
            AnyGame::Xiangqi(_) => GameKind::Xiangqi,
            AnyGame::ChineseCheckers(_) => GameKind::ChineseCheckers,
        }
    }

    /// The position string.
    pub fn to_fen(&self) -> String {
        with_game!(self, g => g.to_fen())
    }

    /// Parses `text` as a legal move and plays it.
    pub fn play_text_move(&mut self, text: &str, config: &GameConfig) -> Result<(), GameError> {
        with_game!(self, g => {
            let m = g.parse_move(text, config)?;
            g.make_move(m);
            Ok(())
        })
    }

    /// Perft with one line per root move (`move: count`) and the total.
    pub fn perft_divide(&mut self, depth: u32, config: &GameConfig) -> (Vec<(String, u64)>, u64) {
        with_game!(self, g => perft_divide(g, depth, config))
    }

    /// The `d` drawing.
    pub fn display(&self) -> String {
        with_game!(self, g => g.display())
    }
}

/// Perft split by root move, as `go perft` prints it.
pub fn perft_divide<G: Game>(
    game: &mut G,
    depth: u32,
    config: &GameConfig,
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
