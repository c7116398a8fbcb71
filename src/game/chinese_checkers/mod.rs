//! ChineseCheckers (placeholder until its issue lands: every method panics with todo!).

use crate::game::{Game, GameConfig, GameError, GameMove, MoveList, Outcome, Score};

/// A move (placeholder encoding).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Move(u16);

impl GameMove for Move {
    fn to_bits(self) -> u16 {
        self.0
    }
    fn from_bits(bits: u16) -> Self {
        Move(bits)
    }
}

/// A position (placeholder).
#[derive(Clone, Debug)]
pub struct ChineseCheckers;

impl Game for ChineseCheckers {
    type Move = Move;
    type MoveList = MoveList<Move, 256>;
    const NAME: &'static str = "chinesecheckers";

    fn startpos(_config: &GameConfig) -> Self {
        todo!()
    }
    fn from_fen(_fen: &str, _config: &GameConfig) -> Result<Self, GameError> {
        todo!()
    }
    fn to_fen(&self) -> String {
        todo!()
    }
    fn display(&self) -> String {
        todo!()
    }
    fn num_players(&self) -> usize {
        todo!()
    }
    fn side_to_move(&self) -> usize {
        todo!()
    }
    fn generate_moves(&self, _list: &mut Self::MoveList) {
        todo!()
    }
    fn generate_noisy(&self, _list: &mut Self::MoveList) {
        todo!()
    }
    fn is_noisy(&self, _m: Move) -> bool {
        todo!()
    }
    fn noisy_order(&self, _m: Move) -> i32 {
        todo!()
    }
    fn make_move(&mut self, _m: Move) {
        todo!()
    }
    fn undo_move(&mut self, _m: Move) {
        todo!()
    }
    fn hash(&self) -> u64 {
        todo!()
    }
    fn in_check(&self) -> bool {
        todo!()
    }
    fn rule_outcome(&self) -> Option<Outcome> {
        todo!()
    }
    fn no_moves_outcome(&self) -> Outcome {
        todo!()
    }
    fn parse_move(&self, _text: &str, _config: &GameConfig) -> Result<Move, GameError> {
        todo!()
    }
    fn format_move(&self, _m: Move, _config: &GameConfig) -> String {
        todo!()
    }
    fn evaluate(&self) -> Score {
        todo!()
    }
}
