//! [`Records`]: what game records and the match referee say about a game: why it ended, moves in
//! the record's notation (SAN for chess), the PGN tags, and a progress measure for stall
//! adjudication. Every method has a default.

use super::{Notation, Outcome};

/// Game records of one game.
pub trait Records: Notation {
    /// Why the game stands ended with `outcome` (from [`super::Rules::outcome`] of this
    /// position), as the words after "wins" or "draw" in a game record: `by checkmate`, `by
    /// repetition`, `(target triangle filled)`. Default: from the rule and check state alone.
    fn outcome_reason(&self, outcome: Outcome) -> String {
        let by_rule = self.rule_outcome().is_some();
        match (outcome, by_rule) {
            (Outcome::Win(_), false) if self.in_check() => "by checkmate".into(),
            (Outcome::Win(_), false) => "(opponent has no legal move)".into(),
            (Outcome::Draw, false) => "by stalemate".into(),
            (_, true) => "by rule".into(),
        }
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

    /// A move as a game record writes it (chess: SAN; xiangqi: `H2-E2`). Default: protocol form.
    fn record_move(&self, m: Self::Move, config: &Self::Config) -> String {
        self.format_move(m, config)
    }
    /// The PGN tags that name the game and its notation (`Variant`, `Format`). Default: the
    /// `Variant` tag with [`super::Rules::NAME`].
    fn record_tags(config: &Self::Config) -> Vec<(&'static str, String)> {
        let _ = config;
        vec![("Variant", Self::NAME.to_string())]
    }
    /// Whether a record from `start` must carry its position (`SetUp`/`FEN` tags). Default: always.
    fn record_needs_fen(start: &str, config: &Self::Config) -> bool {
        let _ = (start, config);
        true
    }

    /// How far each player still has to go, lower is better (Chinese checkers: each player's
    /// distance to its target), for the match referee's stall adjudication: a game in which no
    /// player improves for a while is a stall. Default: no measure.
    fn progress(&self) -> Option<Vec<u32>> {
        None
    }

    /// The position's key in opening books of the Polyglot format ([`super::book`]); `None`
    /// (the default) for a game without such books.
    fn book_key(&self) -> Option<u64> {
        None
    }

    /// The legal move that a book entry's 16-bit move field stands for here, if any. Default:
    /// none.
    fn book_move(&self, raw: u16) -> Option<Self::Move> {
        let _ = raw;
        None
    }

    /// The result the endgame tables in use give this position, for a referee: `None` when
    /// there are none for the game, the position has more than `max_pieces` pieces (0: no
    /// limit) or they do not know it. With `ignore_move_rule` wins and losses that a move-count
    /// rule spoils are wins and losses, else draws. Default: none.
    fn table_outcome(&self, max_pieces: usize, ignore_move_rule: bool) -> Option<Outcome> {
        let _ = (max_pieces, ignore_move_rule);
        None
    }
}
