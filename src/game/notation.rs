//! [`Notation`]: how a game's positions and moves are written and read: position strings (FEN),
//! move tokens in protocol form, the `d` drawing, the `moves` listing, the players' names.

use super::{GameError, MoveBuffer, Rules};

/// The protocol notation of one game.
pub trait Notation: Rules {
    /// The number of `/`-separated ranks in the board field of the game's position string (8 for
    /// chess, 10 for xiangqi, 17 for Chinese checkers; 0: not known). A UCI `position fen` of
    /// another game's shape switches to that game (`GameKind::from_fen_shape` in
    /// [`super::registry`]), as GUIs that drive xiangqi engines over plain UCI expect.
    const FEN_RANKS: usize = 0;

    /// Parses a position string (FEN, or the Chinese-checkers position string).
    fn from_fen(fen: &str, config: &Self::Config) -> Result<Self, GameError>;
    /// Writes the position string (canonical form).
    fn to_fen(&self) -> String;
    /// A human-readable drawing for the `d` command (board, FEN, hash key, extras), lines joined
    /// by `\n`.
    fn display(&self) -> String;

    /// Reads a move token and matches it against the legal moves (so an illegal token never
    /// reaches [`Rules::make_move`]).
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
        Ok(legal_move_texts(self, config)
            .into_iter()
            .filter(|t| filter.is_none_or(|f| t.starts_with(f)))
            .collect())
    }
    /// The name of player `player` (0-based, in turn order) in the words of the game's records
    /// and of the `d` command's `Outcome:` line (`white`, `red`). Default: `player 1`, `player 2`...
    fn player_name(&self, player: usize) -> String {
        format!("player {}", player + 1)
    }
}

/// Every legal move of `game` in protocol form.
pub fn legal_move_texts<G: Notation>(game: &G, config: &G::Config) -> Vec<String> {
    let mut list = G::MoveList::default();
    game.generate_moves(&mut list);
    list.moves()
        .iter()
        .map(|&m| game.format_move(m, config))
        .collect()
}

/// Perft split by root move, as `go perft` prints it.
pub fn perft_divide<G: Notation>(
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
