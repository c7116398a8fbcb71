//! The referee: plays one game between engine processes with sanqi's own rules code.
//!
//! Every engine move is checked against the legal moves of the position; the game ends
//! - by rule: checkmate, stalemate (a loss in xiangqi), repetition and perpetual check, move-count
//!   rules, a filled Chinese-checkers target triangle (`Rules::outcome`);
//! - against an offender: an illegal or missing move, a time loss (beyond the margin), a crash
//!   (output closed or input refused), a hang (no `bestmove` by the time limit plus the hang grace:
//!   the process is killed), a UCCI `resign`;
//! - by adjudication: the ply cap (a draw, or a stall with more than two players); a stall (a full
//!   round of passes; with `stall_plies = N`, a threefold repetition the rules leave undecided, or
//!   N plies in a row in which no seat got closer to its goal than ever before in the game (Chinese
//!   checkers: the sum of its pieces' distances to its target tip), or, for games without such a
//!   measure, N plies in a row that reach no position not seen before); and the optional draw and
//!   resign adjudication by the engines' scores (two-player games only). A stall hands every seat
//!   an equal share of the point. Chinese checkers defaults to a cap of 200 plies per seat and
//!   `stall_plies` of 40 per seat.
//!
//! Points: a game hands out exactly one point (see [`GameRecord::new`]).
//!
//! Each seat has its own setup ([`Seat::setup`]): the referee reads the seat's moves and writes the
//! moves it sends the seat in that setup (xiangqi ranks 1-10 for Fairy-Stockfish), while the
//! record keeps the match's notation.

use super::config::RefereeSettings;
use super::engine::{EngineFailure, EngineProcess, GoReply};
use super::openings::Opening;
use super::record::{Ending, GameRecord, Termination};
use super::timecontrol::{go_params, Clock, TimeControl};
use crate::game::{MoveBuffer, Outcome, Records};

/// A measure of how far each seat still is from its goal (lower is better), for stall detection:
/// [`Records::progress`], or another for tests.
pub type Progress<G> = fn(&G) -> Option<Vec<u32>>;

/// One seat of a game: who plays it and how.
pub struct Seat<'a, G: Records> {
    /// The engine process playing the seat.
    pub engine: &'a mut EngineProcess,
    /// Its engine index in the match (for the record).
    pub index: usize,
    /// Its time control.
    pub tc: TimeControl,
    /// Its setup: the notation of the moves it reads and writes.
    pub setup: G::Config,
}

/// Plays one game. `seats[s]` plays seat `s` (turn order of the position); `config` is the
/// match's setup (the rules and the record's notation); with `stall_plies = N` in `settings`, the
/// game is a stall when no seat has reached a new best (lowest) value of `progress` for N plies.
/// Engines may be dead afterwards (crash, hang): the caller restarts them.
///
/// # Errors
/// Only when the opening itself is invalid for the game (never because of engine behaviour).
pub fn play_game<G: Records>(
    seats: &mut [Seat<'_, G>],
    opening: &Opening,
    config: &G::Config,
    settings: &RefereeSettings,
    progress: Progress<G>,
) -> Result<GameRecord, String> {
    let mut game = GameState::new(seats, opening, config, settings, progress)?;
    for (s, seat) in seats.iter_mut().enumerate() {
        if let Err(f) = seat.engine.new_game(settings.ready_timeout) {
            let (term, why) = fail_text(&f);
            let why = format!("{} {why} before the game", seat.engine.spec.name);
            return Ok(game.record(Ending::forfeit(s, term, why)));
        }
    }
    loop {
        if let Some(ending) = game.rules_ending(seats).or_else(|| game.adjudication()) {
            return Ok(game.record(ending));
        }
        let mover = game.pos.side_to_move();
        let Some(seat) = seats.get_mut(mover) else {
            return Err(format!("side to move {mover} has no seat"));
        };
        let (m, reply) = match game.ask(mover, seat) {
            Ok(answer) => answer,
            Err(ending) => return Ok(game.record(ending)),
        };
        game.apply(m, seats);
        if let Some(ending) = game.score_adjudication(mover, &reply, seats) {
            return Ok(game.record(ending));
        }
    }
}

fn fail_text(f: &EngineFailure) -> (Termination, String) {
    match f {
        EngineFailure::Spawn(e) => (Termination::Crash, format!("could not start ({e})")),
        EngineFailure::Crashed => (Termination::Crash, "crashed".into()),
        EngineFailure::Timeout(what) => (Termination::Hang, format!("hung (no {what})")),
    }
}

fn seat_name<G: Records>(seats: &[Seat<'_, G>], s: usize) -> String {
    seats.get(s).map_or_else(
        || format!("seat {}", s + 1),
        |seat| seat.engine.spec.name.clone(),
    )
}

/// A game in progress: the position, the moves, the clocks and the counters of adjudication.
struct GameState<'a, G: Records> {
    pos: G,
    config: &'a G::Config,
    settings: &'a RefereeSettings,
    opening: &'a Opening,
    progress: Progress<G>,
    /// Engine index of each seat.
    seat_engine: Vec<usize>,
    /// The moves played by the engines, in the match's notation.
    moves: Vec<String>,
    /// Every move from the opening position, in each seat's notation (what it is sent).
    sent: Vec<Vec<String>>,
    clocks: Vec<Clock>,
    /// Plies in a row within the draw-adjudication score bound.
    draw_run: u32,
    /// Own moves in a row below the resign score bound, per seat.
    resign_run: Vec<u32>,
    passes_in_a_row: usize,
    /// Hash keys of every position since the opening's last move.
    history: Vec<u64>,
    /// The best (lowest) progress value of each seat so far.
    best_progress: Option<Vec<u32>>,
    plies_since_progress: u32,
}

impl<'a, G: Records> GameState<'a, G> {
    /// The position after the opening, with the seats' clocks.
    fn new(
        seats: &[Seat<'_, G>],
        opening: &'a Opening,
        config: &'a G::Config,
        settings: &'a RefereeSettings,
        progress: Progress<G>,
    ) -> Result<Self, String> {
        let mut pos = G::from_fen(&opening.fen, config).map_err(|e| format!("opening: {e}"))?;
        let mut sent = vec![Vec::new(); seats.len()];
        for token in &opening.moves {
            let m = pos
                .parse_move(token, config)
                .map_err(|e| format!("opening move `{token}`: {e}"))?;
            for (list, seat) in sent.iter_mut().zip(seats) {
                list.push(pos.format_move(m, &seat.setup));
            }
            pos.make_move(m);
        }
        if seats.len() != pos.num_players() {
            return Err(format!(
                "{} seats but {} engines",
                pos.num_players(),
                seats.len()
            ));
        }
        Ok(GameState {
            history: vec![pos.hash()],
            best_progress: progress(&pos),
            pos,
            config,
            settings,
            opening,
            progress,
            seat_engine: seats.iter().map(|s| s.index).collect(),
            moves: Vec::new(),
            sent,
            clocks: seats.iter().map(|s| Clock::new(s.tc)).collect(),
            draw_run: 0,
            resign_run: vec![0; seats.len()],
            passes_in_a_row: 0,
            plies_since_progress: 0,
        })
    }

    /// The record of the game ended so.
    fn record(self, ending: Ending) -> GameRecord {
        GameRecord::new(
            self.opening,
            &self.seat_engine,
            self.moves,
            self.pos.to_fen(),
            ending,
        )
    }

    /// The end of the game by its rules, with the game's own words for it.
    fn rules_ending(&self, seats: &[Seat<'_, G>]) -> Option<Ending> {
        let outcome = self.pos.outcome()?;
        let how = self.pos.outcome_reason(outcome);
        Some(match outcome {
            Outcome::Win(w) => Ending::win(
                w,
                Termination::Rules,
                format!("{} wins {how}", seat_name(seats, w)),
            ),
            Outcome::Draw => Ending::shared(Termination::Rules, format!("draw {how}")),
        })
    }

    /// The ply cap and the stalls: a full round of passes, or with `stall_plies` a threefold
    /// repetition the rules leave undecided, a window of plies without progress (or, for games
    /// without a progress measure, without a new position). A draw with two seats.
    fn adjudication(&self) -> Option<Ending> {
        let seats = self.clocks.len();
        if let Some(tb) = &self.settings.tablebase {
            if let Some(outcome) = self
                .pos
                .table_outcome(tb.max_pieces, tb.ignore_50_move_rule)
            {
                return Some(match outcome {
                    Outcome::Win(w) => Ending::win(
                        w,
                        Termination::Adjudication,
                        format!("{} wins: tablebase", self.pos.player_name(w)),
                    ),
                    Outcome::Draw => {
                        Ending::shared(Termination::Adjudication, "draw: tablebase".into())
                    }
                });
            }
        }
        let what = if seats > 2 { "stall" } else { "draw" };
        if let Some(cap) = self.settings.max_plies {
            if self.moves.len() as u32 >= cap {
                let reason = format!("{what}: ply cap {cap} reached");
                return Some(Ending::shared(Termination::Adjudication, reason));
            }
        }
        let reason = if self.passes_in_a_row >= seats {
            format!("{what}: a full round of passes")
        } else {
            let n = self.settings.stall_plies?;
            let h = self.pos.hash();
            if self.history.iter().filter(|&&x| x == h).count() >= 3 {
                format!("{what}: position repeated three times")
            } else if self.best_progress.is_some() {
                if self.plies_since_progress < n {
                    return None;
                }
                format!("{what}: no side made progress in {n} plies")
            } else if stalled(&self.history, n as usize) {
                format!("{what}: no new position in {n} plies")
            } else {
                return None;
            }
        };
        Some(Ending::shared(Termination::Adjudication, reason))
    }

    /// Asks the seat to move for its move: the move and the engine's reply, or how the seat
    /// lost (crash, hang, time, an illegal or missing move).
    fn ask(&mut self, mover: usize, seat: &mut Seat<'_, G>) -> Result<(G::Move, GoReply), Ending> {
        let engine = &mut *seat.engine;
        let name = engine.spec.name.clone();
        let clock = self
            .clocks
            .get(mover)
            .copied()
            .unwrap_or(Clock::new(seat.tc));
        let go = go_params(engine.spec.proto, &self.clocks, mover, engine.ucci_millis);
        let limit = clock.allowed();
        let wait = match limit {
            Some(l) => l + self.settings.margin + self.settings.hang_grace,
            None => self.settings.unclocked_timeout,
        };
        let sent = self.sent.get(mover).map_or(&[][..], Vec::as_slice);
        let reply = engine.go(&self.opening.fen, sent, go, wait).map_err(|f| {
            let (term, why) = fail_text(&f);
            Ending::forfeit(mover, term, format!("{name} {why}"))
        })?;
        let in_time = self
            .clocks
            .get_mut(mover)
            .is_none_or(|c| c.charge(reply.elapsed, self.settings.margin));
        if !in_time {
            let why = format!(
                "{name} loses on time ({} ms used, {} ms allowed)",
                reply.elapsed.as_millis(),
                limit.map_or(0, |l| l.as_millis())
            );
            return Err(Ending::forfeit(mover, Termination::TimeForfeit, why));
        }
        let Some(token) = reply.mv.as_deref() else {
            let why = format!("{name} gave no move in a position with legal moves");
            return Err(Ending::forfeit(mover, Termination::NoMove, why));
        };
        // Parsed, then found among the legal moves: the parsers of some games read more than
        // the side to move may play (chess reads the null move `0000` of `position ... moves`).
        let mut legal = G::MoveList::default();
        self.pos.generate_moves(&mut legal);
        let parsed = self.pos.parse_move(token, &seat.setup).and_then(|m| {
            if legal.moves().contains(&m) {
                Ok(m)
            } else {
                Err(crate::game::GameError::new("not a legal move here"))
            }
        });
        match parsed {
            Ok(m) => Ok((m, reply)),
            Err(e) => {
                let shown: String = token.chars().take(40).collect();
                let why = format!("{name} plays illegal move `{shown}` ({e})");
                Err(Ending::forfeit(mover, Termination::IllegalMove, why))
            }
        }
    }

    /// Plays a legal move: the record, every seat's move list, the history and the progress.
    fn apply(&mut self, m: G::Move, seats: &[Seat<'_, G>]) {
        let text = self.pos.format_move(m, self.config);
        if text == "0000" {
            self.passes_in_a_row += 1;
        } else {
            self.passes_in_a_row = 0;
        }
        for (list, seat) in self.sent.iter_mut().zip(seats) {
            list.push(self.pos.format_move(m, &seat.setup));
        }
        self.pos.make_move(m);
        self.moves.push(text);
        self.history.push(self.pos.hash());
        self.plies_since_progress += 1;
        if let (Some(best), Some(now)) = (self.best_progress.as_mut(), (self.progress)(&self.pos)) {
            for (b, v) in best.iter_mut().zip(now) {
                if v < *b {
                    *b = v;
                    self.plies_since_progress = 0;
                }
            }
        }
    }

    /// Two-player games: a UCCI `resign`, and the resign and draw adjudication by the scores
    /// the engines report.
    fn score_adjudication(
        &mut self,
        mover: usize,
        reply: &GoReply,
        seats: &[Seat<'_, G>],
    ) -> Option<Ending> {
        if seats.len() != 2 {
            return None;
        }
        let opponent = 1 - mover.min(1);
        let mut resigned = reply.resign.then_some("resigns");
        if let (Some(r), Some(run)) = (self.settings.resign, self.resign_run.get_mut(mover)) {
            match reply.score {
                Some(s) if s <= -r.score => *run += 1,
                _ => *run = 0,
            }
            if resigned.is_none() && *run >= r.move_count {
                resigned = Some("resigns by score adjudication");
            }
        }
        if let Some(how) = resigned {
            let why = format!("{} {how}", seat_name(seats, mover));
            return Some(Ending::win(opponent, Termination::Adjudication, why));
        }
        let d = self.settings.draw?;
        let full_moves = (self.opening.moves.len() + self.moves.len()) as u32 / 2;
        match reply.score {
            Some(s) if s.abs() <= d.score && full_moves >= d.move_number => self.draw_run += 1,
            _ => self.draw_run = 0,
        }
        (self.draw_run >= 2 * d.move_count).then(|| {
            Ending::shared(
                Termination::Adjudication,
                "draw by score adjudication".to_owned(),
            )
        })
    }
}

/// Whether the last `n` positions brought nothing new: every one of them already occurred before
/// the window (the game circles).
fn stalled(history: &[u64], n: usize) -> bool {
    if n == 0 || history.len() <= n {
        return false;
    }
    let (before, window) = history.split_at(history.len() - n);
    window.iter().all(|h| before.contains(h))
}
