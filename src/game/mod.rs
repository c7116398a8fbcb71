//! The ground floor: the game traits, one per concern, and one folder per game ([`chess`],
//! [`xiangqi`], [`chinese_checkers`]), reached through the one list of games, [`registry`], which
//! makes [`AnyGame`] (a position of any game, picked once per command), [`GameKind`] and
//! [`GameConfigs`] (every game's setup) from it. Nothing here imports the search, the protocol
//! front end or the match runner.
//!
//! The traits, each in its own file:
//! - [`Rules`] (rules.rs): setup, start position, players, legal moves, make/undo, hash, game end;
//! - [`Notation`] (notation.rs): position strings, move tokens, the `d` drawing, player names;
//! - [`Evaluation`] (evaluation.rs): static evaluation, tunable weights, network, WDL model;
//! - [`SearchHints`] (hints.rs): noisy moves, exchange test, null moves, bench positions...;
//! - [`Records`] (records.rs): end reasons, record notation, PGN tags, progress.
//!
//! The search asks for [`Searchable`] (rules, evaluation, hints), the match referee for
//! [`Records`] (rules, notation, records), the protocol front end for all of them, [`Game`]. A
//! game with rules and notation alone plays and searches as [`Plain`]`<G>`.

use std::fmt;

use arrayvec::ArrayVec;

pub mod book;
pub mod chess;
pub mod chinese_checkers;
mod evaluation;
mod hints;
mod notation;
mod plain;
mod records;
pub mod registry;
mod rules;
pub mod setup;
pub mod wdl;
pub mod xiangqi;

pub use evaluation::Evaluation;
pub use hints::{mix_key, SearchHints, MAX_POLICY_TIES};
pub use notation::{legal_move_texts, perft_divide, Notation};
pub use plain::Plain;
pub use records::Records;
pub(crate) use registry::{with_game, with_kind};
pub use registry::{AnyGame, GameConfigs, GameKind};
pub use rules::Rules;
pub use setup::{SetupInfo, SetupOption};

/// An evaluation in centipawn-like units, always from the point of view of the side to move
/// (for more than two players: of the player named). The protocols' score (centipawns or mate)
/// is `sanqi_protocol::Score`; the search has its own (mate distances).
pub type Value = i32;

/// What endgame tables say a root move leads to, for the score the search shows
/// ([`Evaluation::rank_root_moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableScore {
    /// A win for the side to move.
    Win,
    /// A loss for the side to move.
    Loss,
    /// A draw or a result a rule spoils, as centipawns near 0.
    Value(Value),
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

/// Every game trait, for code that works with concrete games (`use sanqi::game::prelude::*`).
pub mod prelude {
    pub use super::{Evaluation, Game, Notation, Records, Rules, SearchHints};
}

/// What the generic search asks of a game: its rules, its evaluation and its search hints.
pub trait Searchable: Evaluation + SearchHints {}

impl<G: Evaluation + SearchHints> Searchable for G {}

/// A game with every concern: what the protocol front end, `bench` and the registry ask for.
/// Implemented for every type that implements the five traits.
pub trait Game: Searchable + Records {}

impl<G: Searchable + Records> Game for G {}
