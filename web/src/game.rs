//! One game of one browser tab: its seats, its moves, and the engine process that plays it.
//!
//! The move list is the game: the engine is only asked about positions (`position startpos moves
//! ...` before each question), so an engine that crashes or hangs is replaced by a new one and the
//! game goes on from the same list, with a notice for the user.

use crate::engine::{Engine, EngineError, PathMove};
use serde_json::{json, Value};
use std::time::Instant;

/// The seatings of the brief, by number of players.
pub fn seats_for(players: usize) -> Option<&'static str> {
    match players {
        2 => Some("AD"),
        3 => Some("ACE"),
        4 => Some("ABDE"),
        6 => Some("ABCDEF"),
        _ => None,
    }
}

/// The ten cells of each triangle, A..F (the brief's table).
pub const TRIANGLES: [[&str; 10]; 6] = [
    ["m1", "l2", "m2", "k3", "l3", "m3", "j4", "k4", "l4", "m4"],
    ["e5", "f5", "g5", "h5", "e6", "f6", "g6", "e7", "f7", "e8"],
    [
        "d10", "c11", "d11", "b12", "c12", "d12", "a13", "b13", "c13", "d13",
    ],
    [
        "e14", "f14", "g14", "h14", "e15", "f15", "g15", "e16", "f16", "e17",
    ],
    [
        "m10", "l11", "m11", "k12", "l12", "m12", "j13", "k13", "l13", "m13",
    ],
    ["n5", "o5", "p5", "q5", "n6", "o6", "p6", "n7", "o7", "n8"],
];

/// The target of a player: the opposite triangle.
pub fn target_of(player: char) -> Option<char> {
    let i = "ABCDEF".find(player)?;
    "ABCDEF".chars().nth((i + 3) % 6)
}

/// The star's cells of one rank (1..=17), west to east.
pub fn rank_cells(rank: i32) -> Vec<String> {
    let r = rank - 9;
    (-8..=8)
        .filter(|&f: &i32| {
            let (x, y, z) = (f, r, -f - r);
            x.max(y).max(z) <= 4 || x.min(y).min(z) >= -4
        })
        .filter_map(|f| {
            let file = char::from_u32(('i' as i32 + f) as u32)?;
            Some(format!("{file}{rank}"))
        })
        .collect()
}

/// The board part of a position string -> (cell, player) for each piece.
pub fn parse_board(fen: &str) -> Result<Vec<(String, char)>, String> {
    let board = fen.split_whitespace().next().unwrap_or("");
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 17 {
        return Err(format!("{} ranks in `{board}`", ranks.len()));
    }
    let mut pieces = Vec::new();
    for (i, text) in ranks.iter().enumerate() {
        let rank = 17 - i as i32;
        let cells = rank_cells(rank);
        let mut at = 0usize;
        let mut run = String::new();
        let flush = |run: &mut String, at: &mut usize| -> Result<(), String> {
            if !run.is_empty() {
                *at += run.parse::<usize>().map_err(|e| format!("`{run}`: {e}"))?;
                run.clear();
            }
            Ok(())
        };
        for c in text.chars() {
            if c.is_ascii_digit() {
                run.push(c);
            } else if ('A'..='F').contains(&c) {
                flush(&mut run, &mut at)?;
                let cell = cells
                    .get(at)
                    .ok_or_else(|| format!("rank {rank} too long in `{text}`"))?;
                pieces.push((cell.clone(), c));
                at += 1;
            } else {
                return Err(format!("`{c}` in rank {rank}"));
            }
        }
        flush(&mut run, &mut at)?;
        if at != cells.len() {
            return Err(format!("rank {rank} has {at} cells, not {}", cells.len()));
        }
    }
    Ok(pieces)
}

/// Why `winner` won, in words: its target is full, and when other players' pieces fill part of it
/// the anti-spoiling rule decided.
pub fn win_reason(winner: char, pieces: &[(String, char)]) -> String {
    let Some(target) = target_of(winner) else {
        return format!("{winner} wins");
    };
    let Some(cells) = "ABCDEF".find(target).and_then(|i| TRIANGLES.get(i)) else {
        return format!("{winner} wins");
    };
    let foreign = cells
        .iter()
        .filter(|c| pieces.iter().any(|(p, who)| p == *c && *who != winner))
        .count();
    if foreign == 0 {
        format!("{winner} filled its target triangle {target}")
    } else {
        format!(
            "{winner} wins by the anti-spoiling rule: triangle {target} is full, {foreign} of its cells \
             held by other players' pieces and the rest by {winner}'s"
        )
    }
}

/// One seat: a person or the engine at a strength and a time per move (for a person, the time of a hint).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seat {
    pub player: char,
    pub human: bool,
    pub skill: u32,
    pub movetime: u64,
}

/// A played move: who, what, and the path the pieces took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    pub player: char,
    pub mv: String,
    pub path: Vec<String>,
}

pub type Spawner = Box<dyn Fn() -> Result<Engine, EngineError> + Send>;

pub struct Game {
    pub seats: Vec<Seat>,
    pub goal_lock: bool,
    pub no_foreign_stop: bool,
    pub moves: Vec<Played>,
    engine: Option<Engine>,
    spawn: Spawner,
    /// Told to the user with the next answer (an engine restart).
    notice: Option<String>,
    pub restarts: u32,
    pub last_used: Instant,
}

/// The answer to a bad request or a failed engine: an HTTP status and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub status: u16,
    pub message: String,
}

impl Failure {
    pub fn bad(message: impl Into<String>) -> Failure {
        Failure {
            status: 400,
            message: message.into(),
        }
    }
    pub fn conflict(message: impl Into<String>) -> Failure {
        Failure {
            status: 409,
            message: message.into(),
        }
    }
}

impl Game {
    pub fn new(seats: Vec<Seat>, goal_lock: bool, no_foreign_stop: bool, spawn: Spawner) -> Game {
        Game {
            seats,
            goal_lock,
            no_foreign_stop,
            moves: Vec::new(),
            engine: None,
            spawn,
            notice: None,
            restarts: 0,
            last_used: Instant::now(),
        }
    }

    fn move_strings(&self) -> Vec<String> {
        self.moves.iter().map(|p| p.mv.clone()).collect()
    }

    /// A started engine, handshaken, with the game's position set.
    fn ready_engine(&mut self) -> Result<&mut Engine, EngineError> {
        let moves = self.move_strings();
        if self.engine.is_none() {
            let mut e = (self.spawn)()?;
            e.handshake(self.seats.len(), self.goal_lock, self.no_foreign_stop)?;
            self.engine = Some(e);
        }
        match self.engine.as_mut() {
            Some(e) => {
                e.position(&moves)?;
                Ok(e)
            }
            None => Err(EngineError::Crashed("no engine".into())),
        }
    }

    /// Runs `ask` on the engine at the game's position; an engine that crashed or hung is replaced
    /// and asked once more, and the user is told.
    fn ask<T>(
        &mut self,
        ask: impl Fn(&mut Engine) -> Result<T, EngineError>,
    ) -> Result<T, Failure> {
        let first = self.ready_engine().and_then(&ask);
        match first {
            Ok(v) => Ok(v),
            Err(EngineError::Protocol(m)) => Err(Failure {
                status: 502,
                message: format!("the engine answered badly: {m}"),
            }),
            Err(EngineError::Busy(m)) => Err(Failure {
                status: 503,
                message: m,
            }),
            Err(e) => {
                self.engine = None; // Drop kills the process.
                self.restarts += 1;
                self.notice = Some(format!(
                    "{e}. It was restarted and the game replayed from the move list ({} moves).",
                    self.moves.len()
                ));
                self.ready_engine().and_then(&ask).map_err(|e| {
                    self.engine = None;
                    Failure {
                        status: 503,
                        message: format!("{e} (after a restart)"),
                    }
                })
            }
        }
    }

    /// Takes the engine away (the server ends it to start another game's); the game stays, and
    /// its next question starts a new engine at the game's position.
    pub fn release_engine(&mut self) -> Option<Engine> {
        self.engine.take()
    }

    /// The process id of the game's engine, when one is running.
    pub fn engine_pid(&self) -> Option<u32> {
        self.engine.as_ref().and_then(Engine::pid)
    }

    pub fn to_move(&self) -> Option<Seat> {
        if self.seats.is_empty() {
            return None;
        }
        self.seats.get(self.moves.len() % self.seats.len()).copied()
    }

    /// The legal moves of the piece on `cell` (all moves when `None`).
    pub fn legal(&mut self, cell: Option<&str>) -> Result<Vec<PathMove>, Failure> {
        if let Some(c) = cell {
            if c.len() > 3
                || rank_cells(c.get(1..).and_then(|r| r.parse().ok()).unwrap_or(0))
                    .iter()
                    .all(|x| x != c)
            {
                return Err(Failure::bad(format!("`{c}` is not a cell (a1..q17)")));
            }
        }
        let cell = cell.map(str::to_string);
        self.ask(|e| e.moves(cell.as_deref()))
    }

    /// Plays a person's move after checking it against the engine's legal moves.
    pub fn play(&mut self, mv: &str) -> Result<(), Failure> {
        let seat = self.to_move().ok_or_else(|| Failure::bad("no seats"))?;
        if !seat.human {
            return Err(Failure::conflict(format!(
                "{} is a computer seat",
                seat.player
            )));
        }
        let legal = self.legal(None)?;
        if legal.is_empty() {
            return Err(Failure::conflict("the game is over"));
        }
        let found = legal.into_iter().find(|m| m.mv == mv).ok_or_else(|| {
            Failure::bad(format!("`{mv}` is not a legal move for {}", seat.player))
        })?;
        self.moves.push(Played {
            player: seat.player,
            mv: found.mv,
            path: found.path,
        });
        Ok(())
    }

    /// The engine's move for a computer seat, played.
    pub fn computer_move(&mut self) -> Result<Played, Failure> {
        let seat = self.to_move().ok_or_else(|| Failure::bad("no seats"))?;
        if !seat.human {
            let d = self.ask(|e| e.display())?;
            if d.winner.is_some() {
                return Err(Failure::conflict("the game is over"));
            }
            let pm = self.ask(|e| e.go(seat.skill, seat.movetime))?;
            let played = Played {
                player: seat.player,
                mv: pm.mv,
                path: pm.path,
            };
            self.moves.push(played.clone());
            Ok(played)
        } else {
            Err(Failure::conflict(format!(
                "{} is a human seat",
                seat.player
            )))
        }
    }

    /// The engine's best move for the person to move, at full strength and the seat's time.
    pub fn hint(&mut self) -> Result<PathMove, Failure> {
        let seat = self.to_move().ok_or_else(|| Failure::bad("no seats"))?;
        let d = self.ask(|e| e.display())?;
        if d.winner.is_some() {
            return Err(Failure::conflict("the game is over"));
        }
        self.ask(|e| e.go(20, seat.movetime))
    }

    /// Takes back the last person's move and the computer moves after it (one move if no person
    /// has moved).
    pub fn undo(&mut self) -> Result<(), Failure> {
        if self.moves.is_empty() {
            return Err(Failure::conflict("no move to undo"));
        }
        let human = |g: &Game, p: char| g.seats.iter().any(|s| s.player == p && s.human);
        if self.moves.iter().any(|m| human(self, m.player)) {
            while let Some(last) = self.moves.last() {
                if human(self, last.player) {
                    break;
                }
                self.moves.pop();
            }
        }
        self.moves.pop();
        Ok(())
    }

    /// The whole state for the page.
    pub fn state(&mut self, id: &str) -> Result<Value, Failure> {
        let d = self.ask(|e| e.display())?;
        let legal = if d.winner.is_some() {
            Vec::new()
        } else {
            self.legal(None)?
        };
        let pieces = parse_board(&d.fen).map_err(|m| Failure {
            status: 502,
            message: format!("the engine's position string: {m}"),
        })?;
        let board: serde_json::Map<String, Value> = pieces
            .iter()
            .map(|(c, p)| (c.clone(), Value::String(p.to_string())))
            .collect();
        let mut movable: Vec<String> = legal
            .iter()
            .filter_map(|m| m.path.first().cloned())
            .collect();
        movable.sort();
        movable.dedup();
        let must_pass = legal.len() == 1 && legal.iter().all(|m| m.mv == "0000");
        let seat = self.to_move();
        Ok(json!({
            "game": id,
            "seats": self.seats.iter().map(|s| json!({
                "player": s.player.to_string(), "human": s.human, "skill": s.skill, "movetime": s.movetime,
            })).collect::<Vec<_>>(),
            "rules": {"goalLock": self.goal_lock, "noForeignStop": self.no_foreign_stop},
            "fen": d.fen,
            "board": board,
            "toMove": seat.map(|s| s.player.to_string()),
            "humanToMove": seat.is_some_and(|s| s.human) && d.winner.is_none(),
            "movable": movable,
            "mustPass": must_pass,
            "winner": d.winner.map(|w| w.to_string()),
            "reason": d.winner.map(|w| win_reason(w, &pieces)),
            "moves": self.moves.iter().map(|p| json!({
                "player": p.player.to_string(), "move": p.mv, "path": p.path,
            })).collect::<Vec<_>>(),
            "restarts": self.restarts,
            "notice": self.notice.take(),
        }))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        let lengths: Vec<usize> = (1..=17).rev().map(|r| rank_cells(r).len()).collect();
        assert_eq!(
            lengths,
            [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
        );
        assert_eq!(rank_cells(1), ["m1"]);
        assert_eq!(rank_cells(17), ["e17"]);
        for tri in TRIANGLES {
            for c in tri {
                let rank: i32 = c[1..].parse().unwrap();
                assert!(rank_cells(rank).iter().any(|x| x == c), "{c}");
            }
        }
        assert_eq!(target_of('A'), Some('D'));
        assert_eq!(target_of('E'), Some('B'));
    }

    #[test]
    fn board_of_a_position_string() {
        let pieces = parse_board("D/DD/DDD/DDDD/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/B8F/BB7FF/BBB6FFF/BBBB5FFFF/AAAA/AAA/AA/A ABCDEF A 0").unwrap();
        assert_eq!(pieces.len(), 60);
        for (i, tri) in TRIANGLES.iter().enumerate() {
            let letter = "ABCDEF".chars().nth(i).unwrap();
            for c in tri {
                assert!(pieces.contains(&(c.to_string(), letter)), "{c} {letter}");
            }
        }
        assert!(parse_board("D/DD AD A").is_err());
        assert!(
            parse_board("D/DD/DDD/DDDD/14/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0").is_err()
        );
        assert!(
            parse_board("X/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0").is_err()
        );
    }

    #[test]
    fn reasons() {
        let mut pieces: Vec<(String, char)> =
            TRIANGLES[3].iter().map(|c| (c.to_string(), 'A')).collect();
        assert_eq!(win_reason('A', &pieces), "A filled its target triangle D");
        pieces[0].1 = 'D';
        pieces[1].1 = 'C';
        let r = win_reason('A', &pieces);
        assert!(
            r.contains("anti-spoiling") && r.contains("2 of its cells"),
            "{r}"
        );
    }

    #[cfg(unix)]
    mod with_fake_engine {
        use super::super::*;
        use crate::fake::{fake_engine, Fault};

        fn game(fault: Fault, human_a: bool) -> Game {
            let path = fake_engine(fault);
            let seats = vec![
                Seat {
                    player: 'A',
                    human: human_a,
                    skill: 20,
                    movetime: 50,
                },
                Seat {
                    player: 'D',
                    human: false,
                    skill: 3,
                    movetime: 50,
                },
            ];
            Game::new(seats, false, false, Box::new(move || Engine::spawn(&path)))
        }

        #[test]
        fn state_move_reply_undo() {
            let mut g = game(Fault::None, true);
            let s = g.state("g1").unwrap();
            assert_eq!(s["toMove"], "A");
            assert_eq!(s["humanToMove"], true);
            assert_eq!(s["board"]["m1"], "A");
            assert_eq!(s["movable"], serde_json::json!(["k3", "m1"]));
            assert_eq!(g.play("zz").unwrap_err().status, 400);
            assert_eq!(g.computer_move().unwrap_err().status, 409);
            g.play("k3k5").unwrap();
            let p = g.computer_move().unwrap();
            assert_eq!((p.player, p.mv.as_str()), ('D', "e15e13"));
            assert_eq!(p.path, ["e15", "e13"]);
            assert_eq!(g.moves.len(), 2);
            g.undo().unwrap();
            assert!(g.moves.is_empty());
            assert_eq!(g.undo().unwrap_err().status, 409);
            assert!(g.legal(Some("q1")).is_err());
        }

        #[test]
        fn forced_pass() {
            let mut g = game(Fault::PassOnly, true);
            let s = g.state("g").unwrap();
            assert_eq!(s["mustPass"], true);
            assert_eq!(s["movable"], serde_json::json!([]));
            assert_eq!(g.play("k3k5").unwrap_err().status, 400);
            g.play("0000").unwrap();
            assert_eq!(g.moves[0].mv, "0000");
            assert!(g.moves[0].path.is_empty());
        }

        /// A game whose engine fails with `fault` at its first `go`: the computer's move still
        /// comes, from one restarted engine. Gives the game and the notice its state tells.
        fn restarted_after(fault: Fault) -> (Game, String) {
            let mut g = game(fault, false);
            let p = g.computer_move().unwrap();
            assert_eq!(p.mv, "e15e13");
            assert_eq!(g.restarts, 1);
            let notice = g.state("g").unwrap()["notice"]
                .as_str()
                .unwrap()
                .to_string();
            (g, notice)
        }

        #[test]
        fn crash_restarts_and_keeps_the_game() {
            let (mut g, notice) = restarted_after(Fault::CrashOnGo);
            assert!(
                notice.contains("restarted") && notice.contains("stopped"),
                "{notice}"
            );
            // Told once.
            assert!(g.state("g").unwrap()["notice"].is_null());
        }

        #[test]
        fn hang_restarts() {
            let (_, notice) = restarted_after(Fault::HangOnGo);
            assert!(notice.contains("did not answer"), "{notice}");
        }

        #[test]
        fn missing_engine_is_a_5xx() {
            let seats = vec![Seat {
                player: 'A',
                human: true,
                skill: 20,
                movetime: 50,
            }];
            let mut g = Game::new(
                seats,
                false,
                false,
                Box::new(|| Engine::spawn(Path::new("/nonexistent/sanqi"))),
            );
            assert_eq!(g.state("g").unwrap_err().status, 503);
        }
        use std::path::Path;
    }
}
