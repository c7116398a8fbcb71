//! [`Rules`]: what a game is, with no notation, evaluation or search in it: its setup, the start
//! position, the players and whose turn it is, legal move generation, make and undo, the hash key,
//! and how a game ends. Perft needs nothing else.

use std::fmt;

use super::setup::SetupOption;
use super::{GameError, GameMove, MoveBuffer, Outcome};

/// The rules of one board game.
///
/// Positions keep their own history stack (make/undo), so repetition rules can be decided
/// from inside the position.
pub trait Rules: Clone + Send + Sync + 'static {
    /// A move of this game.
    type Move: GameMove;
    /// The fixed-size list legal moves are generated into.
    type MoveList: MoveBuffer<Self::Move>;
    /// The game's setup: the settings its options change (see [`super::setup`]).
    type Config: Clone + Copy + fmt::Debug + Default + PartialEq + Eq + Send + Sync + 'static;

    /// The protocol name of the game (`chess`, `xiangqi`, `chinesecheckers`), the value of
    /// `UCI_Variant` and of `--game`.
    const NAME: &'static str;
    /// The game's setup options, declared once (engine options, `setoption`, command-line flags).
    const SETUP: &'static [SetupOption<Self::Config>] = &[];

    /// The start position for this configuration.
    fn startpos(config: &Self::Config) -> Self;
    /// How many numbered start positions this setup plays from (Chess960: 960), for match
    /// schedules that draw one per round. Default: 1, the start position alone.
    fn start_positions(config: &Self::Config) -> usize {
        let _ = config;
        1
    }
    /// Start position number `n` (`0..start_positions`; Chess960: Scharnagl's numbering).
    /// Default: [`Rules::startpos`].
    fn numbered_startpos(n: usize, config: &Self::Config) -> Result<Self, GameError> {
        let _ = n;
        Ok(Self::startpos(config))
    }

    /// Number of players (2 for chess and xiangqi).
    fn num_players(&self) -> usize;
    /// Index (0-based, in turn order) of the player to move.
    fn side_to_move(&self) -> usize;

    /// Generates every legal move into `list` (which is cleared first).
    fn generate_moves(&self, list: &mut Self::MoveList);
    /// Plays a legal move. Must be undone with [`Rules::undo_move`] in reverse order.
    fn make_move(&mut self, m: Self::Move);
    /// Takes back the last move made (the same `m` is passed back).
    fn undo_move(&mut self, m: Self::Move);
    /// Whether a side may pass its turn in this game (Chinese checkers: a side without a move
    /// passes), so that [`Rules::make_null_move`] hands the move to the next player. Best-reply
    /// search for more than two players needs it. Default: no.
    fn can_pass(&self) -> bool {
        false
    }
    /// Passes the turn (only called when [`Rules::can_pass`] or the search hint
    /// [`super::SearchHints::can_null_move`] is true).
    fn make_null_move(&mut self) {}
    /// Takes back [`Rules::make_null_move`].
    fn undo_null_move(&mut self) {}

    /// Zobrist hash of the position (side to move included).
    fn hash(&self) -> u64;
    /// Whether the side to move is in check (always false where there is no check).
    fn in_check(&self) -> bool;
    /// Game end decided by rule from the history alone, without looking at legal moves:
    /// repetition (xiangqi: perpetual check and chase), move-count rules, insufficient material,
    /// a completed target triangle. `None` while the game goes on by these rules.
    fn rule_outcome(&self) -> Option<Outcome>;
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
