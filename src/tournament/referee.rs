//! The referee: plays one game between engine processes with sanqi's own rules code.
//!
//! Every engine move is checked against the legal moves of the position; the game ends
//! - by rule: checkmate, stalemate (a loss in xiangqi), repetition and perpetual check, move-count
//!   rules, a filled Chinese-checkers target triangle (`Game::outcome`);
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
//! Points: a game hands out exactly one point. The winner takes it; a draw or stall splits it
//! among all seats; when a seat forfeits, the other seats split it.

use std::time::Duration;

use super::engine::{Engine, EngineFailure};
use super::openings::Opening;
use super::timecontrol::{go_command, Clock, TimeControl};
use crate::game::{Game, Outcome};

/// Draw adjudication by score (cutechess semantics): from full move `move_number` on, when both
/// sides reported `|score| <= score` for `move_count` consecutive moves each, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// First full move at which adjudication may happen.
    pub move_number: u32,
    /// Consecutive moves per side.
    pub move_count: u32,
    /// Score bound (centipawns).
    pub score: i32,
}

/// Resign adjudication by score: a side that reported `score <= -score` for `move_count`
/// consecutive own moves loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignAdjudication {
    /// Consecutive own moves.
    pub move_count: u32,
    /// Score bound (centipawns).
    pub score: i32,
}

/// Referee settings of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct RefereeSettings {
    /// Time beyond the clock an engine may use before it loses on time.
    pub margin: Duration,
    /// Extra wait after the time limit (plus margin) before an engine counts as hung and is killed.
    pub hang_grace: Duration,
    /// The whole wait for a move under a node or depth limit before the engine counts as hung.
    pub unclocked_timeout: Duration,
    /// Time allowed for `uciok`/`readyok` at start and between games.
    pub ready_timeout: Duration,
    /// Ply cap counted from the start of the game (engine moves only). `None`: none.
    pub max_plies: Option<u32>,
    /// Plies in a row without a new position (or a threefold repetition) before a stall.
    pub stall_plies: Option<u32>,
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication.
    pub resign: Option<ResignAdjudication>,
}

impl Default for RefereeSettings {
    fn default() -> Self {
        RefereeSettings {
            margin: Duration::from_millis(100),
            hang_grace: Duration::from_secs(5),
            unclocked_timeout: Duration::from_secs(60),
            ready_timeout: Duration::from_secs(10),
            max_plies: None,
            stall_plies: None,
            draw: None,
            resign: None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the game (mate, stalemate, repetition, move rule, triangle filled).
    Rules,
    /// Adjudicated (ply cap, stall, draw or resign by score, UCCI resign).
    Adjudication,
    /// The offending seat played an illegal move (or none).
    IllegalMove,
    /// The offending seat exceeded its time.
    TimeForfeit,
    /// The offending seat's process crashed or failed to start.
    Crash,
    /// The offending seat hung and was killed.
    Hang,
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
    /// The seat that lost by its own failure (illegal move, time, crash, hang).
    pub offender: Option<usize>,
    /// Human-readable reason (`White mates`, `illegal move e2e5 by X`...).
    pub reason: String,
    /// The final position string.
    pub final_fen: String,
}

impl GameRecord {
    /// The two-player result string `1-0`, `0-1`, `1/2-1/2` (for more seats: the points).
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

/// Ranks 0-9 (ICCS) to ranks 1-10 (Fairy-Stockfish) in a xiangqi move token, or back.
pub fn translate_ranks(mv: &str, to_from_one: bool) -> Option<String> {
    let bytes = mv.as_bytes();
    let mut out = String::with_capacity(mv.len() + 2);
    let mut i = 0;
    let mut squares = 0;
    while i < bytes.len() && squares < 2 {
        let file = *bytes.get(i)?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        out.push(file as char);
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let rank: i32 = mv.get(start..i)?.parse().ok()?;
        let rank = if to_from_one { rank + 1 } else { rank - 1 };
        if rank < 0 {
            return None;
        }
        out.push_str(&rank.to_string());
        squares += 1;
    }
    if squares != 2 {
        return None;
    }
    out.push_str(mv.get(i..)?);
    Some(out)
}

fn fail_text(f: &EngineFailure) -> (Termination, String) {
    match f {
        EngineFailure::Spawn(e) => (Termination::Crash, format!("could not start ({e})")),
        EngineFailure::Crashed => (Termination::Crash, "crashed".into()),
        EngineFailure::Timeout(what) => (Termination::Hang, format!("hung (no {what})")),
    }
}

/// Builds a finished record.
#[allow(clippy::too_many_arguments)]
fn finish<G: Game>(
    opening: &Opening,
    seats: &[usize],
    moves: Vec<String>,
    pos: &G,
    winner: Option<usize>,
    offender: Option<usize>,
    termination: Termination,
    reason: String,
) -> GameRecord {
    let n = seats.len();
    // In a two-player game a forfeit is a win for the other side.
    let winner = match (winner, offender) {
        (None, Some(o)) if n == 2 => Some(1 - o.min(1)),
        _ => winner,
    };
    let points = match (winner, offender) {
        (Some(w), _) => (0..n).map(|s| if s == w { 1.0 } else { 0.0 }).collect(),
        (None, Some(o)) if n > 1 => (0..n)
            .map(|s| if s == o { 0.0 } else { 1.0 / (n - 1) as f64 })
            .collect(),
        _ => vec![1.0 / n as f64; n],
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
        final_fen: pos.to_fen(),
    }
}

/// Plays one game. `engines[s]` plays seat `s` (turn order of the position), `seat_engine[s]` is
/// its engine index for the record, `tcs[s]` its time control. Engines may be dead afterwards
/// (crash, hang): the caller restarts them.
///
/// # Errors
/// Only when the opening itself is invalid for the game (never because of engine behaviour).
pub fn play_game<G: Game>(
    engines: &mut [&mut Engine],
    seat_engine: &[usize],
    tcs: &[TimeControl],
    opening: &Opening,
    config: &G::Config,
    settings: &RefereeSettings,
) -> Result<GameRecord, String> {
    play_game_with_progress(
        engines,
        seat_engine,
        tcs,
        opening,
        config,
        settings,
        |_: &G| None,
    )
}

/// A measure of how far each seat still is from its goal (lower is better), for stall detection:
/// Chinese checkers uses each side's total distance to its target triangle.
pub type Progress<G> = fn(&G) -> Option<Vec<u32>>;

/// [`play_game`] with a progress measure: with `stall_plies = N`, the game is a stall when no seat
/// has reached a new best (lowest) value of `progress` for N plies.
///
/// # Errors
/// See [`play_game`].
#[allow(clippy::too_many_lines)]
pub fn play_game_with_progress<G: Game>(
    engines: &mut [&mut Engine],
    seat_engine: &[usize],
    tcs: &[TimeControl],
    opening: &Opening,
    config: &G::Config,
    settings: &RefereeSettings,
    progress: Progress<G>,
) -> Result<GameRecord, String> {
    let mut pos = G::from_fen(&opening.fen, config).map_err(|e| format!("opening: {e}"))?;
    for token in &opening.moves {
        let m = pos
            .parse_move(token, config)
            .map_err(|e| format!("opening move `{token}`: {e}"))?;
        pos.make_move(m);
    }
    let seats = pos.num_players();
    if engines.len() != seats || tcs.len() != seats || seat_engine.len() != seats {
        return Err(format!(
            "{} seats but {} engines / {} time controls",
            seats,
            engines.len(),
            tcs.len()
        ));
    }
    let name = |s: usize, engines: &[&mut Engine]| {
        engines
            .get(s)
            .map_or_else(|| format!("seat {}", s + 1), |e| e.spec.name.clone())
    };
    let mut moves: Vec<String> = Vec::new();
    let finish_fail = |pos: &G, moves: Vec<String>, seat: usize, term: Termination, why: String| {
        finish(
            opening,
            seat_engine,
            moves,
            pos,
            None,
            Some(seat),
            term,
            why,
        )
    };

    for s in 0..seats {
        if let Err(f) = engines[s].new_game(settings.ready_timeout) {
            let (term, why) = fail_text(&f);
            let why = format!("{} {why} before the game", name(s, engines));
            return Ok(finish_fail(&pos, moves, s, term, why));
        }
    }

    let mut clocks: Vec<Clock> = tcs.iter().map(|&tc| Clock::new(tc)).collect();
    let mut draw_run = 0u32;
    let mut resign_run = vec![0u32; seats];
    let mut passes_in_a_row = 0usize;
    let mut history: Vec<u64> = vec![pos.hash()];
    let mut best_progress = progress(&pos);
    let mut plies_since_progress = 0u32;

    loop {
        if let Some(outcome) = pos.outcome() {
            let rule = pos.rule_outcome().is_some();
            let h = pos.hash();
            let repeated = history.iter().filter(|&&x| x == h).count() >= 2;
            let (winner, reason) = match outcome {
                Outcome::Win(w) => {
                    let how = if !rule {
                        if pos.in_check() {
                            "by checkmate"
                        } else {
                            "(opponent has no legal move)"
                        }
                    } else if G::NAME == "chinesecheckers" {
                        "(target triangle filled)"
                    } else if repeated {
                        "by the repetition rule (perpetual check or chase)"
                    } else {
                        "by rule"
                    };
                    (Some(w), format!("{} wins {how}", name(w, engines)))
                }
                Outcome::Draw => {
                    let how = if !rule {
                        "by stalemate"
                    } else if repeated {
                        "by repetition"
                    } else if G::NAME == "chess" {
                        "by rule (fifty moves or insufficient material)"
                    } else {
                        "by rule"
                    };
                    (None, format!("draw {how}"))
                }
            };
            return Ok(finish(
                opening,
                seat_engine,
                moves,
                &pos,
                winner,
                None,
                Termination::Rules,
                reason,
            ));
        }
        if let Some(cap) = settings.max_plies {
            if moves.len() as u32 >= cap {
                let what = if seats > 2 { "stall" } else { "draw" };
                let reason = format!("{what}: ply cap {cap} reached");
                return Ok(finish(
                    opening,
                    seat_engine,
                    moves,
                    &pos,
                    None,
                    None,
                    Termination::Adjudication,
                    reason,
                ));
            }
        }
        // Stalls: a full round of passes (Chinese checkers), or with `stall_plies` a window of
        // plies that brought no position not seen before (the game circles) or a threefold
        // repetition the rules do not decide themselves. A draw with two seats.
        let what = if seats > 2 { "stall" } else { "draw" };
        let mut stall = None;
        if passes_in_a_row >= seats {
            stall = Some(format!("{what}: a full round of passes"));
        } else if let Some(n) = settings.stall_plies {
            let h = pos.hash();
            if history.iter().filter(|&&x| x == h).count() >= 3 {
                stall = Some(format!("{what}: position repeated three times"));
            } else if best_progress.is_some() {
                if plies_since_progress >= n {
                    stall = Some(format!("{what}: no side made progress in {n} plies"));
                }
            } else if stalled(&history, n as usize) {
                stall = Some(format!("{what}: no new position in {n} plies"));
            }
        }
        if let Some(reason) = stall {
            return Ok(finish(
                opening,
                seat_engine,
                moves,
                &pos,
                None,
                None,
                Termination::Adjudication,
                reason,
            ));
        }

        let mover = pos.side_to_move();
        let Some(engine) = engines.get_mut(mover) else {
            return Err(format!("side to move {mover} has no seat"));
        };
        let mut sent: Vec<String> = opening.moves.iter().chain(moves.iter()).cloned().collect();
        if engine.spec.ranks_from_one {
            for m in &mut sent {
                if let Some(t) = translate_ranks(m, true) {
                    *m = t;
                }
            }
        }
        let go = go_command(engine.spec.proto, &clocks, mover, engine.ucci_millis);
        let limit = clocks[mover].allowed();
        let wait = match limit {
            Some(l) => l + settings.margin + settings.hang_grace,
            None => settings.unclocked_timeout,
        };
        let reply = match engine.go(&opening.fen, &sent, &go, wait) {
            Ok(r) => r,
            Err(f) => {
                let (term, why) = fail_text(&f);
                let why = format!("{} {why}", engine.spec.name);
                return Ok(finish_fail(&pos, moves, mover, term, why));
            }
        };
        if !clocks[mover].charge(reply.elapsed, settings.margin) {
            let why = format!(
                "{} loses on time ({} ms used, {} ms allowed)",
                engine.spec.name,
                reply.elapsed.as_millis(),
                limit.map_or(0, |l| l.as_millis())
            );
            return Ok(finish_fail(
                &pos,
                moves,
                mover,
                Termination::TimeForfeit,
                why,
            ));
        }
        let Some(token) = reply.mv.clone() else {
            let why = format!(
                "{} gave no move in a position with legal moves",
                engine.spec.name
            );
            return Ok(finish_fail(
                &pos,
                moves,
                mover,
                Termination::IllegalMove,
                why,
            ));
        };
        let canonical = if engine.spec.ranks_from_one {
            translate_ranks(&token, false)
        } else {
            Some(token.clone())
        };
        let parsed = canonical
            .as_deref()
            .ok_or_else(|| "not a move".to_owned())
            .and_then(|t| pos.parse_move(t, config).map_err(|e| e.0));
        let m = match parsed {
            Ok(m) => m,
            Err(e) => {
                let shown: String = token.chars().take(40).collect();
                let why = format!("{} plays illegal move `{shown}` ({e})", engine.spec.name);
                return Ok(finish_fail(
                    &pos,
                    moves,
                    mover,
                    Termination::IllegalMove,
                    why,
                ));
            }
        };
        let text = pos.format_move(m, config);
        if text == "0000" {
            passes_in_a_row += 1;
        } else {
            passes_in_a_row = 0;
        }
        pos.make_move(m);
        moves.push(text);
        history.push(pos.hash());
        plies_since_progress += 1;
        if let (Some(best), Some(now)) = (best_progress.as_mut(), progress(&pos)) {
            for (b, v) in best.iter_mut().zip(now) {
                if v < *b {
                    *b = v;
                    plies_since_progress = 0;
                }
            }
        }

        if seats == 2 {
            let opponent = 1 - mover;
            let mut resigned = reply.resign.then_some("resigns");
            if let Some(r) = settings.resign {
                match reply.score {
                    Some(s) if s <= -r.score => resign_run[mover] += 1,
                    _ => resign_run[mover] = 0,
                }
                if resigned.is_none() && resign_run[mover] >= r.move_count {
                    resigned = Some("resigns by score adjudication");
                }
            }
            if let Some(how) = resigned {
                let why = format!("{} {how}", engines[mover].spec.name);
                return Ok(finish(
                    opening,
                    seat_engine,
                    moves,
                    &pos,
                    Some(opponent),
                    None,
                    Termination::Adjudication,
                    why,
                ));
            }
            if let Some(d) = settings.draw {
                let full_moves = (opening.moves.len() + moves.len()) as u32 / 2;
                match reply.score {
                    Some(s) if s.abs() <= d.score && full_moves >= d.move_number => draw_run += 1,
                    _ => draw_run = 0,
                }
                if draw_run >= 2 * d.move_count {
                    let why = "draw by score adjudication".to_owned();
                    return Ok(finish(
                        opening,
                        seat_engine,
                        moves,
                        &pos,
                        None,
                        None,
                        Termination::Adjudication,
                        why,
                    ));
                }
            }
        }
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
