//! [`Evaluation`]: how good a position is: the hand-written static evaluation and its tunable
//! weights, the network (NNUE) where a game has one, and the win/draw/loss model.

use super::{wdl, Rules, Value};
use crate::tune::Param;

/// The static evaluation of one game.
pub trait Evaluation: Rules {
    /// The tunable weights of the game's evaluation (UCI spin options, `spsa`).
    const PARAMS: &'static [&'static Param] = &[];
    /// The game's win/draw/loss model (`UCI_ShowWDL`), fitted to its self-play results; `None`:
    /// no `wdl` is printed. Used only with two players.
    const WDL: Option<&'static wdl::WdlModel> = None;

    /// Static evaluation from the point of view of the side to move.
    fn evaluate(&self) -> Value;

    /// Static evaluation from the point of view of `player` (for multi-player search).
    /// The default suits two-player zero-sum games.
    fn evaluate_for(&self, player: usize) -> Value {
        if player == self.side_to_move() {
            self.evaluate()
        } else {
            -self.evaluate()
        }
    }

    /// The terms of the hand-written static evaluation for the `eval` command, each as (name,
    /// value from the side to move's view); the last one is its total, which
    /// [`Evaluation::evaluate`] returns unless a network is used. Default: the total only.
    fn eval_terms(&self) -> Vec<(String, Value)> {
        vec![("total (side to move)".to_string(), self.evaluate())]
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

    /// Endgame tables inside the search: the position's value from the side to move when the
    /// tables in use know it and the game's probe conditions hold at a node of `depth`; ±2 a
    /// win or loss, ±1 a win or loss that a rule turns into a draw, 0 a draw. Default: none.
    fn probe_tables(&mut self, depth: i32) -> Option<i32> {
        let _ = depth;
        None
    }

    /// Endgame tables at the root: for each move of `moves` its rank (higher is better; the
    /// search keeps only the moves of the best rank) and the score to show for it, when the
    /// tables know the position; and whether the search should still probe below the root.
    /// `None` (the default) when they do not.
    fn rank_root_moves(
        &mut self,
        moves: &[Self::Move],
    ) -> Option<(Vec<(i32, super::TableScore)>, bool)> {
        let _ = moves;
        None
    }

    /// Whether endgame tables are in use for this game (the search then reports `tbhits`).
    fn tables_loaded() -> bool {
        false
    }

    /// What the endgame tables in use say about the position, for `d` and `eval`
    /// (`Tablebase: WDL 2 (Win), DTZ 13`); `None` (the default) without tables.
    fn table_line(&self) -> Option<String> {
        None
    }
}
