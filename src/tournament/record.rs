//! The record of one finished game: how it ended, who won, the points of each seat.

use super::openings::Opening;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the game (mate, stalemate, repetition, move rule, triangle filled).
    Rules,
    /// Adjudicated (ply cap, stall, draw or resign by score, UCCI resign).
    Adjudication,
    /// The offending seat played an illegal move.
    IllegalMove,
    /// The offending seat gave no move (`bestmove (none)`, `nobestmove`, an empty token) in a
    /// position with legal moves.
    NoMove,
    /// The offending seat exceeded its time.
    TimeForfeit,
    /// The offending seat's process crashed or failed to start.
    Crash,
    /// The offending seat hung and was killed.
    Hang,
}

impl Termination {
    /// The PGN `Termination` tag value.
    pub fn pgn_text(&self) -> &'static str {
        match self {
            Termination::Rules => "normal",
            Termination::Adjudication => "adjudication",
            Termination::IllegalMove => "illegal move",
            Termination::NoMove => "rules infraction",
            Termination::TimeForfeit => "time forfeit",
            Termination::Crash => "abandoned",
            Termination::Hang => "stalled connection",
        }
    }
}

/// The record of one finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Where the game started.
    pub opening: Opening,
    /// Engine index of each seat (turn order).
    pub seats: Vec<usize>,
    /// Moves played by the engines (canonical notation), after the opening moves.
    pub moves: Vec<String>,
    /// The winning seat, if any.
    pub winner: Option<usize>,
    /// Points per seat (summing to 1).
    pub points: Vec<f64>,
    /// How it ended.
    pub termination: Termination,
    /// The seat that lost by its own failure (illegal move, no move, time, crash, hang).
    pub offender: Option<usize>,
    /// Human-readable reason (`A wins by checkmate`, `B plays illegal move ...`).
    pub reason: String,
    /// The final position string.
    pub final_fen: String,
}

/// How a game ended, before it is written down: the winner or the offender (or neither: a draw
/// or stall), the kind of ending and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winning seat, if any.
    pub winner: Option<usize>,
    /// The seat that lost by its own failure.
    pub offender: Option<usize>,
    /// How it ended.
    pub termination: Termination,
    /// Human-readable reason.
    pub reason: String,
}

impl Ending {
    /// A win of seat `winner`.
    pub fn win(winner: usize, termination: Termination, reason: String) -> Self {
        Ending {
            winner: Some(winner),
            offender: None,
            termination,
            reason,
        }
    }

    /// A draw (two seats) or stall (more): the point is shared.
    pub fn shared(termination: Termination, reason: String) -> Self {
        Ending {
            winner: None,
            offender: None,
            termination,
            reason,
        }
    }

    /// A forfeit of seat `offender`.
    pub fn forfeit(offender: usize, termination: Termination, reason: String) -> Self {
        Ending {
            winner: None,
            offender: Some(offender),
            termination,
            reason,
        }
    }
}

impl GameRecord {
    /// The record of a game between `seats` from `opening` that ended so. Points: a game hands
    /// out exactly one point. The winner takes it; a draw or stall splits it among all seats; when
    /// a seat forfeits, the other seats split it (with two seats, a forfeit is a win of the other).
    pub fn new(
        opening: &Opening,
        seats: &[usize],
        moves: Vec<String>,
        final_fen: String,
        ending: Ending,
    ) -> Self {
        let n = seats.len();
        let Ending {
            winner,
            offender,
            termination,
            reason,
        } = ending;
        let winner = match (winner, offender) {
            (None, Some(o)) if n == 2 => Some(1 - o.min(1)),
            _ => winner,
        };
        let points = match (winner, offender) {
            (Some(w), _) => (0..n).map(|s| if s == w { 1.0 } else { 0.0 }).collect(),
            (None, Some(o)) if n > 1 => (0..n)
                .map(|s| if s == o { 0.0 } else { 1.0 / (n - 1) as f64 })
                .collect(),
            _ => vec![1.0 / n.max(1) as f64; n],
        };
        GameRecord {
            opening: opening.clone(),
            seats: seats.to_vec(),
            moves,
            winner,
            points,
            termination,
            offender,
            reason,
            final_fen,
        }
    }

    /// The two-player result string `1-0`, `0-1`, `1/2-1/2` (for more seats: the winner or
    /// `stall`).
    pub fn result_text(&self) -> String {
        if self.seats.len() == 2 {
            match self.winner {
                Some(0) => "1-0".into(),
                Some(_) => "0-1".into(),
                None => "1/2-1/2".into(),
            }
        } else {
            match self.winner {
                Some(w) => format!("seat {} wins", w + 1),
                None => "stall".into(),
            }
        }
    }
}
