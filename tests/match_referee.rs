//! The referee of `sanqi match` against scripted fake engines (tests/fake_engines/fake.py), on two
//! toy games implemented here through the `Game` trait: tic-tac-toe (two players) and a counting
//! race for 2 to 6 players (first to bring the total to 10 wins). The toy rules are simple enough
//! that every expected result below is worked out by hand in a comment.

use std::time::{Duration, Instant};

use sanqi::game::{Game, GameConfig, GameError, GameKind, GameMove, MoveList, Outcome, Value};
use sanqi::tournament::engine::{EngineSpec, Proto};
use sanqi::tournament::referee::{translate_ranks, ResignAdjudication, Termination};
use sanqi::tournament::timecontrol::TimeControl;
use sanqi::tournament::{run_game, run_game_with_progress, MatchConfig, OpeningSource};

// ---------------------------------------------------------------- tic-tac-toe

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cell(u16);

impl GameMove for Cell {
    fn to_bits(self) -> u16 {
        self.0
    }
    fn from_bits(bits: u16) -> Self {
        Cell(bits)
    }
}

/// Cells 0..9: `a1 b1 c1 a2 ... c3`; 0 empty, 1 X (player 0), 2 O (player 1).
#[derive(Clone, Debug)]
struct TicTacToe {
    board: [u8; 9],
    stm: usize,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn cell_name(c: usize) -> String {
    format!("{}{}", (b'a' + (c % 3) as u8) as char, c / 3 + 1)
}

impl Game for TicTacToe {
    type Move = Cell;
    type MoveList = MoveList<Cell, 9>;
    const NAME: &'static str = "tictactoe";

    fn startpos(_: &GameConfig) -> Self {
        TicTacToe {
            board: [0; 9],
            stm: 0,
        }
    }
    fn from_fen(fen: &str, _: &GameConfig) -> Result<Self, GameError> {
        let (b, s) = fen
            .split_once(' ')
            .ok_or_else(|| GameError::new("no side"))?;
        let chars: Vec<char> = b.chars().filter(|&c| c != '/').collect();
        if chars.len() != 9 {
            return Err(GameError::new("need 9 cells"));
        }
        let mut board = [0; 9];
        for (i, c) in chars.iter().enumerate() {
            board[i] = match c {
                '-' => 0,
                'x' => 1,
                'o' => 2,
                _ => return Err(GameError::new("bad cell")),
            };
        }
        let stm = match s {
            "x" => 0,
            "o" => 1,
            _ => return Err(GameError::new("bad side")),
        };
        Ok(TicTacToe { board, stm })
    }
    fn to_fen(&self) -> String {
        let mut s = String::new();
        for (i, v) in self.board.iter().enumerate() {
            if i > 0 && i % 3 == 0 {
                s.push('/');
            }
            s.push(['-', 'x', 'o'][*v as usize]);
        }
        s.push_str(if self.stm == 0 { " x" } else { " o" });
        s
    }
    fn display(&self) -> String {
        self.to_fen()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn side_to_move(&self) -> usize {
        self.stm
    }
    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear();
        if self.rule_outcome().is_none() {
            for c in 0..9 {
                if self.board[c] == 0 {
                    list.push(Cell(c as u16));
                }
            }
        }
    }
    fn generate_noisy(&self, list: &mut Self::MoveList) {
        list.clear();
    }
    fn is_noisy(&self, _: Cell) -> bool {
        false
    }
    fn noisy_order(&self, _: Cell) -> i32 {
        0
    }
    fn make_move(&mut self, m: Cell) {
        self.board[m.0 as usize] = self.stm as u8 + 1;
        self.stm ^= 1;
    }
    fn undo_move(&mut self, m: Cell) {
        self.board[m.0 as usize] = 0;
        self.stm ^= 1;
    }
    fn hash(&self) -> u64 {
        self.board
            .iter()
            .fold(self.stm as u64, |h, &v| h * 3 + u64::from(v))
    }
    fn in_check(&self) -> bool {
        false
    }
    fn rule_outcome(&self) -> Option<Outcome> {
        for l in LINES {
            let v = self.board[l[0]];
            if v != 0 && v == self.board[l[1]] && v == self.board[l[2]] {
                return Some(Outcome::Win(v as usize - 1));
            }
        }
        self.board.iter().all(|&v| v != 0).then_some(Outcome::Draw)
    }
    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Draw
    }
    fn parse_move(&self, text: &str, _: &GameConfig) -> Result<Cell, GameError> {
        let mut list = Self::MoveList::default();
        self.generate_moves(&mut list);
        list.iter()
            .copied()
            .find(|m| cell_name(m.0 as usize) == text)
            .ok_or_else(|| GameError::new(format!("`{text}` is not a legal move")))
    }
    fn format_move(&self, m: Cell, _: &GameConfig) -> String {
        cell_name(m.0 as usize)
    }
    fn evaluate(&self) -> Value {
        0
    }
}

// ---------------------------------------------------------------- counting race

/// Players in turn add `1` or `2` to a total, take 1 off with `-1`, or pass with `0000`; whoever
/// brings it to 10 or more wins. The player count comes from `GameConfig::cc_players`. The hash
/// includes the ply, so positions never repeat.
#[derive(Clone, Debug)]
struct Race {
    total: u32,
    players: usize,
    stm: usize,
    last: Vec<usize>,
}

impl Game for Race {
    type Move = Cell;
    type MoveList = MoveList<Cell, 4>;
    const NAME: &'static str = "race";

    fn startpos(c: &GameConfig) -> Self {
        Race {
            total: 0,
            players: c.cc_players as usize,
            stm: 0,
            last: Vec::new(),
        }
    }
    fn from_fen(fen: &str, c: &GameConfig) -> Result<Self, GameError> {
        let mut r = Race::startpos(c);
        r.total = fen.parse().map_err(|_| GameError::new("bad total"))?;
        Ok(r)
    }
    fn to_fen(&self) -> String {
        self.total.to_string()
    }
    fn display(&self) -> String {
        self.to_fen()
    }
    fn num_players(&self) -> usize {
        self.players
    }
    fn side_to_move(&self) -> usize {
        self.stm
    }
    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear();
        if self.total < 10 {
            list.extend([Cell(0), Cell(1), Cell(2), Cell(3)]);
        }
    }
    fn generate_noisy(&self, list: &mut Self::MoveList) {
        list.clear();
    }
    fn is_noisy(&self, _: Cell) -> bool {
        false
    }
    fn noisy_order(&self, _: Cell) -> i32 {
        0
    }
    fn make_move(&mut self, m: Cell) {
        self.total = match m.0 {
            3 => self.total.saturating_sub(1),
            n => self.total + u32::from(n),
        };
        self.last.push(self.stm);
        self.stm = (self.stm + 1) % self.players;
    }
    fn undo_move(&mut self, m: Cell) {
        // Only used by search, not by the referee (taking back `-1` at 0 is not exact).
        self.total = match m.0 {
            3 => self.total + 1,
            n => self.total - u32::from(n),
        };
        self.stm = self.last.pop().unwrap_or(0);
    }
    fn hash(&self) -> u64 {
        ((self.last.len() as u64) << 32) | (u64::from(self.total) * 8) | self.stm as u64
    }
    fn in_check(&self) -> bool {
        false
    }
    fn rule_outcome(&self) -> Option<Outcome> {
        (self.total >= 10).then(|| Outcome::Win(self.last.last().copied().unwrap_or(0)))
    }
    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Draw
    }
    fn parse_move(&self, text: &str, _: &GameConfig) -> Result<Cell, GameError> {
        match text {
            "0000" => Ok(Cell(0)),
            "1" => Ok(Cell(1)),
            "2" => Ok(Cell(2)),
            "-1" => Ok(Cell(3)),
            _ => Err(GameError::new(format!("`{text}` is not a legal move"))),
        }
    }
    fn format_move(&self, m: Cell, _: &GameConfig) -> String {
        match m.0 {
            0 => "0000".into(),
            3 => "-1".into(),
            n => n.to_string(),
        }
    }
    fn evaluate(&self) -> Value {
        0
    }
}

// ---------------------------------------------------------------- helpers

const CANDS: &str = "--cands=a1,b1,c1,a2,b2,c2,a3,b3,c3";

fn fake(name: &str, extra: &[&str]) -> EngineSpec {
    let mut spec = EngineSpec::new(name, "python3");
    spec.args
        .push(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines/fake.py").to_owned());
    for e in extra {
        // `--flag=value` is split into two arguments for the script.
        match e.split_once('=') {
            Some((k, v)) if k.starts_with("--") => {
                spec.args.push(k.to_owned());
                spec.args.extend(v.split(' ').map(str::to_owned));
            }
            _ => spec.args.push((*e).to_owned()),
        }
    }
    spec
}

fn config(engines: Vec<EngineSpec>, tc: TimeControl) -> MatchConfig {
    // Generous waits so that a loaded machine does not turn slow python start-ups into hangs;
    // the hang test sets its own short grace.
    let mut c = MatchConfig::new(GameKind::Chess, engines, tc);
    c.referee.hang_grace = Duration::from_secs(3);
    c.referee.margin = Duration::from_millis(100);
    c.referee.ready_timeout = Duration::from_secs(20);
    c
}

fn movetime() -> TimeControl {
    TimeControl::MoveTime(300)
}

// ---------------------------------------------------------------- tests

#[test]
fn normal_games_are_won_by_rule_and_colours_swap() {
    // Both engines play the first empty cell in the order a1 b1 c1 a2 b2 c2 a3:
    // X a1, O b1, X c1, O a2, X b2, O c2, X a3: X completes the diagonal a3-b2-c1 and wins.
    // Two games per opening with colours swapped: each engine wins once, as X.
    let c = config(vec![fake("A", &[CANDS]), fake("B", &[CANDS])], movetime());
    let report = run_game::<TicTacToe>(&c).unwrap();
    assert_eq!(report.records.len(), 2);
    for (g, rec) in report.records.iter().enumerate() {
        assert_eq!(rec.moves, ["a1", "b1", "c1", "a2", "b2", "c2", "a3"]);
        assert_eq!(rec.winner, Some(0));
        assert_eq!(rec.termination, Termination::Rules);
        assert_eq!(rec.result_text(), "1-0");
        assert_eq!(rec.seats, if g == 0 { vec![0, 1] } else { vec![1, 0] });
    }
    let w = report.pair(0, 1);
    assert_eq!((w.wins, w.draws, w.losses), (1, 0, 1));
    assert_eq!(report.engines[0].points, 1.0);
    assert_eq!(report.engines[1].points, 1.0);
}

#[test]
fn draw_by_rule_from_an_opening_file() {
    // Opening `xox/xoo/-x- o` (ranks 1, 2, 3): O to move, empty a3 and c3. Both engines play the
    // first of a3, c3 not yet played. O plays a3: no line for O (a1-a2-a3 is x x o, a3-b2-c1 is
    // o o x). X plays c3: c1-c2-c3 is x o x, a3-b3-c3 o x x, a1-b2-c3 x o x; the board is full: a draw.
    let dir = std::env::temp_dir().join(format!("sanqi-match-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("open.epd");
    std::fs::write(&file, "# comment\n\nxox/xoo/-x- o\n").unwrap();
    let cands = "--cands=a3,c3";
    let mut c = config(vec![fake("A", &[cands]), fake("B", &[cands])], movetime());
    c.openings = OpeningSource::File(file);
    c.games_per_opening = Some(1);
    let pgn = dir.join("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    c.pgn = Some(pgn.clone());
    let movelist = dir.join("games.txt");
    let _ = std::fs::remove_file(&movelist);
    c.movelist = Some(movelist.clone());
    let report = run_game::<TicTacToe>(&c).unwrap();
    assert_eq!(
        std::fs::read_to_string(&movelist).unwrap(),
        "1\tA,B\t1/2-1/2\t0.500,0.500\txox/xoo/-x- o\ta3 c3\tdraw by rule\n"
    );
    let rec = &report.records[0];
    assert_eq!(rec.moves, ["a3", "c3"], "{rec:?}");
    assert_eq!(rec.winner, None);
    assert_eq!(rec.result_text(), "1/2-1/2");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Result \"1/2-1/2\"]"), "{text}");
    assert!(text.contains("[FEN \"xox/xoo/-x- o\"]"), "{text}");
    assert!(text.contains("[White \"A\"]"), "{text}");
    assert!(
        text.contains("1... a3 2. c3 {draw by rule} 1/2-1/2"),
        "{text}"
    );
}

#[test]
fn illegal_moves_lose() {
    // B answers its first go with an occupied cell (a1, taken by A's first move), then with junk.
    let c = config(
        vec![
            fake("A", &[CANDS]),
            fake("B", &[CANDS, "--illegal-at=1 a1"]),
        ],
        movetime(),
    );
    let mut c = c;
    c.games_per_opening = Some(1);
    let report = run_game::<TicTacToe>(&c).unwrap();
    let rec = &report.records[0];
    assert_eq!(rec.termination, Termination::IllegalMove);
    assert_eq!(rec.offender, Some(1));
    assert_eq!(rec.winner, Some(0));
    assert_eq!(rec.moves, ["a1"]);
    assert!(rec.reason.contains("illegal move `a1`"), "{}", rec.reason);
    assert_eq!(report.engines[1].illegal, 1);

    let mut c = config(
        vec![
            fake("A", &[CANDS]),
            fake("B", &[CANDS, "--illegal-at=1 zz99"]),
        ],
        movetime(),
    );
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(
        (rec.termination.clone(), rec.offender),
        (Termination::IllegalMove, Some(1))
    );
}

#[test]
fn no_move_in_a_live_position_loses() {
    let mut c = config(
        vec![fake("A", &[CANDS, "--none-at=2"]), fake("B", &[CANDS])],
        movetime(),
    );
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::IllegalMove);
    assert_eq!(rec.offender, Some(0));
    assert_eq!(rec.result_text(), "0-1");
    assert_eq!(rec.moves, ["a1", "b1"]);
}

#[test]
fn a_silent_engine_is_killed_as_hung_and_replaced() {
    // B never answers its first go. Its limit is 300 ms movetime + 100 ms margin + 700 ms grace:
    // the referee waits about 1.1 s, kills it, and gives the game to A. In the second game a fresh
    // B process (whose first go is again silent) hangs again.
    let mut c = config(
        vec![fake("A", &[CANDS]), fake("B", &[CANDS, "--silent-at=1"])],
        movetime(),
    );
    c.referee.hang_grace = Duration::from_millis(700);
    let start = Instant::now();
    let report = run_game::<TicTacToe>(&c).unwrap();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(20), "took {took:?}");
    assert!(took >= Duration::from_millis(2 * 1100), "took {took:?}");
    for rec in &report.records {
        assert_eq!(rec.termination, Termination::Hang);
        assert_eq!(rec.seats[rec.offender.unwrap()], 1);
        assert!(rec.reason.contains("hung"), "{}", rec.reason);
    }
    assert_eq!(report.engines[1].hangs, 2);
    assert_eq!(report.pair(0, 1).wins, 2);
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    // A exits at its second go; in game 2 (A as O) a new A process plays on and crashes again at
    // its second go.
    let c = config(
        vec![fake("A", &[CANDS, "--crash-at=2"]), fake("B", &[CANDS])],
        movetime(),
    );
    let report = run_game::<TicTacToe>(&c).unwrap();
    assert_eq!(report.records.len(), 2);
    let first = &report.records[0];
    assert_eq!(first.termination, Termination::Crash);
    assert_eq!(first.offender, Some(0));
    assert_eq!(first.moves, ["a1", "b1"]);
    let second = &report.records[1];
    assert_eq!(second.termination, Termination::Crash);
    assert_eq!(second.seats[second.offender.unwrap()], 0);
    assert_eq!(report.engines[0].crashes, 2);
}

#[test]
fn engines_that_cannot_start_forfeit() {
    let mut bad = EngineSpec::new("missing", "/nonexistent/sanqi-no-such-engine");
    bad.proto = Proto::Uci;
    let mut c = config(vec![fake("A", &[CANDS]), bad], movetime());
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::Crash);
    assert_eq!(rec.offender, Some(1));
    assert_eq!(rec.winner, Some(0));

    let mut c = config(
        vec![fake("A", &[CANDS]), fake("B", &["--crash-on-start"])],
        movetime(),
    );
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(
        (rec.termination.clone(), rec.offender),
        (Termination::Crash, Some(1))
    );

    let mut c = config(
        vec![fake("A", &["--no-uciok"]), fake("B", &[CANDS])],
        movetime(),
    );
    c.games_per_opening = Some(1);
    c.referee.ready_timeout = Duration::from_millis(500);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(
        (rec.termination.clone(), rec.offender),
        (Termination::Hang, Some(0))
    );
    assert!(rec.reason.contains("uciok"), "{}", rec.reason);
}

#[test]
fn a_late_bestmove_loses_on_time_not_as_a_hang() {
    // movetime 300 ms + margin 100 ms: B answers its first go after 600 ms, within the 5 s grace.
    let mut c = config(
        vec![fake("A", &[CANDS]), fake("B", &[CANDS, "--late-at=1 600"])],
        movetime(),
    );
    c.referee.hang_grace = Duration::from_secs(5);
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::TimeForfeit, "{}", rec.reason);
    assert_eq!(rec.offender, Some(1));
    assert!(rec.reason.contains("loses on time"), "{}", rec.reason);
}

#[test]
fn the_clock_runs_down_across_moves() {
    // tc 1.5+0: A (X) thinks 500 ms a move and would win with a3 on its 4th move (a1 c1 b2 a3).
    // Moves 1-3 use 1500 ms (+ delays), within 1500 + 400 ms margin; the 4th ends at 2000 ms or
    // later (sleeps never end early), beyond it: a time loss after 6 plies.
    let mut c = config(
        vec![fake("A", &[CANDS, "--sleep-ms=500"]), fake("B", &[CANDS])],
        TimeControl::Clock {
            moves: None,
            base_ms: 1500,
            inc_ms: 0,
        },
    );
    c.referee.margin = Duration::from_millis(400);
    c.referee.hang_grace = Duration::from_secs(5);
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::TimeForfeit, "{}", rec.reason);
    assert_eq!(rec.offender, Some(0));
    assert_eq!(rec.moves.len(), 6);
}

#[test]
fn junk_output_is_survived() {
    // Non-UTF-8 bytes, a 100 kB line, a malformed info line and a misspelled bestmove precede
    // every real answer: the game is the same as without them.
    let mut c = config(
        vec![
            fake("A", &[CANDS, "--garbage"]),
            fake("B", &[CANDS, "--garbage"]),
        ],
        movetime(),
    );
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::Rules);
    assert_eq!(rec.moves, ["a1", "b1", "c1", "a2", "b2", "c2", "a3"]);
}

#[test]
fn resign_adjudication_by_score() {
    // B reports -700 on each move; with movecount 2 and score 600 it resigns after its 2nd move.
    let mut c = config(
        vec![fake("A", &[CANDS]), fake("B", &[CANDS, "--score=-700"])],
        movetime(),
    );
    c.referee.resign = Some(ResignAdjudication {
        move_count: 2,
        score: 600,
    });
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::Adjudication);
    assert_eq!(rec.winner, Some(0));
    assert_eq!(rec.moves, ["a1", "b1", "c1", "a2"]);
}

#[test]
fn options_and_variant_are_sent_and_ucci_gets_its_go() {
    let dir = std::env::temp_dir().join(format!("sanqi-match-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log_a = dir.join("a.log");
    let log_b = dir.join("b.log");
    let _ = std::fs::remove_file(&log_a);
    let _ = std::fs::remove_file(&log_b);
    let mut a = fake(
        "A",
        &[
            CANDS,
            "--declare-variant",
            &format!("--log={}", log_a.display()),
        ],
    );
    a.options.push(("Hash".into(), "16".into()));
    let mut b = fake(
        "B",
        &[CANDS, "--proto=ucci", &format!("--log={}", log_b.display())],
    );
    b.proto = Proto::Ucci;
    let mut c = config(
        vec![a, b],
        TimeControl::Clock {
            moves: None,
            base_ms: 5000,
            inc_ms: 100,
        },
    );
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::Rules);
    let la = std::fs::read_to_string(&log_a).unwrap();
    let lb = std::fs::read_to_string(&log_b).unwrap();
    assert!(la.starts_with("uci\n"), "{la}");
    assert!(
        la.contains("setoption name UCI_Variant value tictactoe\n"),
        "{la}"
    );
    assert!(la.contains("setoption name Hash value 16\n"), "{la}");
    assert!(la.contains("ucinewgame\n"), "{la}");
    assert!(
        la.contains("position fen --- /---/--- x\n") || la.contains("position fen ---/---/--- x\n"),
        "{la}"
    );
    assert!(
        la.contains("go wtime 5000 btime 5000 winc 100 binc 100\n"),
        "{la}"
    );
    assert!(lb.starts_with("ucci\n"), "{lb}");
    assert!(lb.contains("setoption usemillisec true\n"), "{lb}");
    assert!(!lb.contains("ucinewgame"), "{lb}");
    assert!(lb.contains("position fen ---/---/--- x moves a1\n"), "{lb}");
    // Black's first move: its own clock untouched, Red's after one move (about 5000 - used + 100).
    let go = lb.lines().find(|l| l.starts_with("go ")).unwrap();
    assert!(
        go.starts_with("go time 5000 increment 100 opptime "),
        "{go}"
    );
    assert!(go.ends_with(" oppincrement 100"), "{go}");
    assert!(lb.contains("quit\n"), "{lb}");
}

#[test]
fn multi_player_seats_rotate_and_points_are_shared() {
    // Race to 10 with 3 players who always add 1: the 10th move is made by seat (10 - 1) % 3 = 0, so
    // seat 0 always wins. Three games per opening rotate the seats: every engine wins once.
    let engines = vec![
        fake("A", &["--always=1"]),
        fake("B", &["--always=1"]),
        fake("C", &["--always=1"]),
    ];
    let mut c = config(engines, movetime());
    c.players = 3;
    let report = run_game::<Race>(&c).unwrap();
    assert_eq!(report.records.len(), 3);
    let seatings: Vec<Vec<usize>> = report.records.iter().map(|r| r.seats.clone()).collect();
    assert_eq!(seatings, [vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
    for rec in &report.records {
        assert_eq!(rec.winner, Some(0));
        assert_eq!(rec.points, [1.0, 0.0, 0.0]);
        assert_eq!(rec.moves.len(), 10);
    }
    for t in &report.engines {
        assert_eq!((t.points, t.games, t.wdl.wins), (1.0, 3, 1));
    }
}

#[test]
fn multi_player_stalls_and_forfeits() {
    // Everybody passes: after a full round of 3 passes the game is a stall, 1/3 point each.
    let engines = vec![
        fake("A", &["--always=0000"]),
        fake("B", &["--always=0000"]),
        fake("C", &["--always=0000"]),
    ];
    let mut c = config(engines, movetime());
    c.players = 3;
    c.games_per_opening = Some(1);
    let rec = &run_game::<Race>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::Adjudication);
    assert_eq!(rec.moves, ["0000", "0000", "0000"]);
    assert!(rec.reason.contains("stall"), "{}", rec.reason);
    assert_eq!(rec.points, [1.0 / 3.0; 3]);

    // A ply cap of 4 with players adding 1 each: a stall after 4 plies.
    let engines = vec![
        fake("A", &["--always=1"]),
        fake("B", &["--always=1"]),
        fake("C", &["--always=1"]),
    ];
    let mut c = config(engines, movetime());
    c.players = 3;
    c.games_per_opening = Some(1);
    c.referee.max_plies = Some(4);
    let rec = &run_game::<Race>(&c).unwrap().records[0];
    assert_eq!(rec.moves.len(), 4);
    assert!(rec.reason.contains("ply cap 4"), "{}", rec.reason);

    // Seat 1 plays an illegal token: it gets 0, the two others 1/2 each; no winner.
    let engines = vec![
        fake("A", &["--always=1"]),
        fake("B", &["--always=7"]),
        fake("C", &["--always=1"]),
    ];
    let mut c = config(engines, movetime());
    c.players = 3;
    c.games_per_opening = Some(1);
    let rec = &run_game::<Race>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::IllegalMove);
    assert_eq!(rec.winner, None);
    assert_eq!(rec.points, [0.5, 0.0, 0.5]);
}

#[test]
fn sprt_stops_the_match_when_decided() {
    // B plays an illegal move at once in every game, so A wins every game. With fishtest's
    // regularisation (empty categories count 1e-3 games) two wins give s = 2/2.002 and
    // var = (2*(1-s)^2 + 0.002*(0.5-s)^2 + ...) small, so the LLR passes ln(19) = 2.944 within a
    // few games, but the test may not stop before 16 games; the match stops long before its 200
    // scheduled games. Games already being played
    // when the test is decided still finish and count (A thinks 50 ms a move so that a busy
    // machine cannot squeeze many games in before the result is read).
    let mut c = config(
        vec![
            fake("A", &[CANDS, "--sleep-ms=50"]),
            fake("B", &["--always=zz"]),
        ],
        movetime(),
    );
    c.rounds = 100;
    c.concurrency = 2;
    c.sprt = Some(sanqi::tournament::stats::Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    });
    let report = run_game::<TicTacToe>(&c).unwrap();
    assert!(report.stopped_early);
    assert!(report.records.len() >= 16, "{} games", report.records.len());
    assert!(
        report.records.len() < 30,
        "{} games {:?} {:?} {:?}",
        report.records.len(),
        report.pair(0, 1),
        report.sprt,
        report
            .records
            .iter()
            .map(|r| r.reason.clone())
            .collect::<Vec<_>>()
    );
    let (llr, decision) = report.sprt.unwrap();
    assert!(llr >= (0.95f64 / 0.05).ln());
    assert_eq!(decision, sanqi::tournament::stats::SprtDecision::AcceptH1);
}

#[test]
fn xiangqi_ranks_translate_both_ways() {
    // ICCS ranks 0-9 against Fairy-Stockfish's 1-10: h2e2 is h3e3, a9a8 is a10a9, e0e1 is e1e2.
    assert_eq!(translate_ranks("h2e2", true).as_deref(), Some("h3e3"));
    assert_eq!(translate_ranks("a9a8", true).as_deref(), Some("a10a9"));
    assert_eq!(translate_ranks("e0e1", true).as_deref(), Some("e1e2"));
    assert_eq!(translate_ranks("h3e3", false).as_deref(), Some("h2e2"));
    assert_eq!(translate_ranks("a10a9", false).as_deref(), Some("a9a8"));
    assert_eq!(translate_ranks("i10i1", false).as_deref(), Some("i9i0"));
    assert_eq!(translate_ranks("e0e1", false), None);
    assert_eq!(translate_ranks("zz", false), None);
    assert_eq!(translate_ranks("", true), None);
    assert_eq!(translate_ranks("a99999999999999999999b1", true), None);
}

#[test]
fn draw_adjudication_by_score() {
    // Both report score 0; from move 1 on, 2 consecutive moves each within ±10 draw the game:
    // the run counts plies a1 (full moves 0: not yet counted), b1 (1), c1 (1), a2 (2), b2 (2):
    // plies 2-5 are four in a row, so the game is drawn after b2.
    let mut c = config(
        vec![
            fake("A", &[CANDS, "--score=0"]),
            fake("B", &[CANDS, "--score=0"]),
        ],
        movetime(),
    );
    c.referee.draw = Some(sanqi::tournament::referee::DrawAdjudication {
        move_number: 1,
        move_count: 2,
        score: 10,
    });
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::Adjudication);
    assert_eq!(rec.winner, None);
    assert_eq!(rec.moves, ["a1", "b1", "c1", "a2", "b2"]);
    assert!(rec.reason.contains("draw by score"), "{}", rec.reason);
}

#[test]
fn two_player_passes_are_a_draw() {
    // Race for 2 players where both pass: a full round of passes ends the game as a draw.
    let mut c = config(
        vec![fake("A", &["--always=0000"]), fake("B", &["--always=0000"])],
        movetime(),
    );
    c.games_per_opening = Some(1);
    let rec = &run_game::<Race>(&c).unwrap().records[0];
    assert_eq!(rec.moves, ["0000", "0000"]);
    assert_eq!(rec.result_text(), "1/2-1/2");
    assert!(
        rec.reason.starts_with("draw: a full round of passes"),
        "{}",
        rec.reason
    );
}

#[test]
fn stall_when_no_side_makes_progress() {
    // Race for 2 with progress = 10 - total for both seats. A adds 1, B takes it back: the totals
    // run 1 0 1 0 ..., the best distance 9 is reached at ply 1 and never beaten, so with
    // stall_plies 6 the game stalls 6 plies later, after 7 moves. Positions never repeat (the
    // hash holds the ply), so neither the repetition nor the new-position rule applies.
    let mut c = config(
        vec![fake("A", &["--always=1"]), fake("B", &["--always=-1"])],
        movetime(),
    );
    c.games_per_opening = Some(1);
    c.referee.stall_plies = Some(6);
    let report =
        run_game_with_progress::<Race>(&c, |r| Some(vec![10 - r.total.min(10); 2])).unwrap();
    let rec = &report.records[0];
    assert_eq!(rec.moves.len(), 7, "{rec:?}");
    assert!(
        rec.reason.contains("no side made progress in 6 plies"),
        "{}",
        rec.reason
    );
    assert_eq!(rec.result_text(), "1/2-1/2");

    // Without a progress measure the same game is not a stall (every position is new) until the
    // ply cap.
    c.referee.max_plies = Some(12);
    let rec = &run_game::<Race>(&c).unwrap().records[0];
    assert_eq!(rec.moves.len(), 12);
    assert!(rec.reason.contains("ply cap 12"), "{}", rec.reason);
}

#[cfg(target_os = "linux")]
#[test]
fn a_hung_engine_behind_a_wrapper_script_is_killed_with_its_children() {
    // B is `sh -c "python3 fake.py ...; true"`: the shell stays as the parent of the python engine,
    // which freezes (sleeps, reading nothing) at its first go. The referee kills the whole process
    // group, so the python process is gone too (killing only the shell would leave it sleeping).
    let dir = std::env::temp_dir().join(format!("sanqi-match-wrap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("b.pid");
    let _ = std::fs::remove_file(&pidfile);
    let script = format!(
        "python3 {} --cands a1,b1,c1,a2,b2,c2,a3,b3,c3 --freeze-at 1 --pidfile {}; true",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines/fake.py"),
        pidfile.display()
    );
    let mut b = EngineSpec::new("B", "sh");
    b.args = vec!["-c".into(), script];
    let mut c = config(vec![fake("A", &[CANDS]), b], movetime());
    c.referee.hang_grace = Duration::from_millis(500);
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::Hang, "{}", rec.reason);
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    // The killed process is reaped by init shortly after.
    let proc_dir = std::path::PathBuf::from(format!("/proc/{}", pid.trim()));
    let deadline = Instant::now() + Duration::from_secs(5);
    while proc_dir.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !proc_dir.exists(),
        "python engine {} still running",
        pid.trim()
    );
}

#[test]
fn per_engine_limits_override_the_match_limit() {
    // A searches 777 nodes, B 5 plies, the match default is movetime 300: each gets its own `go`.
    let dir = std::env::temp_dir().join(format!("sanqi-match-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let _ = std::fs::remove_file(&log_a);
    let _ = std::fs::remove_file(&log_b);
    let mut a = fake("A", &[CANDS, &format!("--log={}", log_a.display())]);
    a.tc = Some(TimeControl::Nodes(777));
    let mut b = fake("B", &[CANDS, &format!("--log={}", log_b.display())]);
    b.tc = Some(TimeControl::Depth(5));
    let mut c = config(vec![a, b], movetime());
    c.games_per_opening = Some(1);
    let rec = &run_game::<TicTacToe>(&c).unwrap().records[0];
    assert_eq!(rec.termination, Termination::Rules);
    let la = std::fs::read_to_string(&log_a).unwrap();
    let lb = std::fs::read_to_string(&log_b).unwrap();
    let gos = |log: &str| {
        log.lines()
            .filter(|l| l.starts_with("go"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(gos(&la), vec!["go nodes 777"; 4]);
    assert_eq!(gos(&lb), vec!["go depth 5"; 3]);
}
