//! The referee of `sanqi match` against scripted fake engines (tests/fake_engines/fake.py) on the
//! toy games of `support::matches`: normal games, engine failures (illegal moves, hangs, crashes,
//! time losses, failed starts), what engines are sent, per-engine limits and setups.

mod support;

use std::time::{Duration, Instant};

use sanqi::game::Plain;
use sanqi::tournament::config::EngineSpec;
use sanqi::tournament::proto::Proto;
use sanqi::tournament::record::Termination;
use sanqi::tournament::report::summary;
use sanqi::tournament::timecontrol::TimeControl;
use sanqi::tournament::{run_game, OpeningSource};
use support::matches::*;

#[test]
fn normal_games_are_won_by_rule_and_colours_swap() {
    // Both engines play the first empty cell in the order a1 b1 c1 a2 b2 c2 a3:
    // X a1, O b1, X c1, O a2, X b2, O c2, X a3: X completes the diagonal a3-b2-c1 and wins.
    // Two games per opening with colours swapped: each engine wins once, as X.
    let c = config(vec![fake("A", &[CANDS]), fake("B", &[CANDS])], movetime());
    let report = run_game::<Plain<TicTacToe>>(&c, &TttConfig::default()).unwrap();
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
    let report = run_game::<Plain<TicTacToe>>(&c, &TttConfig::default()).unwrap();
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
    let report = run_game::<Plain<TicTacToe>>(&c, &TttConfig::default()).unwrap();
    let rec = &report.records[0];
    assert_eq!(rec.termination, Termination::IllegalMove);
    assert_eq!(rec.offender, Some(1));
    assert_eq!(rec.winner, Some(0));
    assert_eq!(rec.moves, ["a1"]);
    assert!(rec.reason.contains("illegal move `a1`"), "{}", rec.reason);
    assert_eq!(report.engines[1].illegal, 1);

    let c = config(
        vec![
            fake("A", &[CANDS]),
            fake("B", &[CANDS, "--illegal-at=1 zz99"]),
        ],
        movetime(),
    );
    let rec = &one_ttt_game(c);
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
    let report = run_game::<Plain<TicTacToe>>(&c, &TttConfig::default()).unwrap();
    let rec = &report.records[0];
    assert_eq!(rec.termination, Termination::NoMove);
    assert_eq!(rec.termination.pgn_text(), "rules infraction");
    assert_eq!(rec.offender, Some(0));
    assert_eq!(rec.result_text(), "0-1");
    assert_eq!(rec.moves, ["a1", "b1"]);
    assert!(rec.reason.contains("gave no move"), "{}", rec.reason);
    // Counted in its own column, not as an illegal move.
    assert_eq!(
        (report.engines[0].no_move, report.engines[0].illegal),
        (1, 0)
    );
    let table = summary(&c, &report);
    let header = table.lines().find(|l| l.starts_with("Rank")).unwrap();
    let row = table.lines().find(|l| l.contains(" A ")).unwrap();
    let cols: Vec<&str> = header.split_whitespace().collect();
    let vals: Vec<&str> = row.split_whitespace().collect();
    let at = |name: &str| vals[cols.iter().position(|c| *c == name).unwrap()];
    assert_eq!(
        (at("Illegal"), at("NoMove"), at("L")),
        ("0", "1", "1"),
        "{table}"
    );
}

#[test]
fn a_null_move_in_chess_is_an_illegal_move_not_a_pass() {
    // Chess has no pass: `bestmove 0000` (which `position ... moves` may carry) loses as an
    // illegal move; it once counted as a pass, and two of them drew the game.
    use sanqi::game::chess::{Chess, ChessConfig};
    let c = config(
        vec![fake("A", &["--always=0000"]), fake("B", &["--always=0000"])],
        movetime(),
    );
    let rec = &one_game::<Chess>(c, &ChessConfig::default());
    assert_eq!(
        (rec.termination.clone(), rec.offender),
        (Termination::IllegalMove, Some(0)),
        "{}",
        rec.reason
    );
}

#[test]
fn a_bare_bestmove_is_a_missing_move_not_a_hang() {
    // A `bestmove` line with no move ends the search at once: the referee scores a missing move
    // (it once waited for the clock and the hang grace, and killed the engine as hung).
    let mut c = config(
        vec![fake("A", &[CANDS, "--bare-at=2"]), fake("B", &[CANDS])],
        movetime(),
    );
    c.games_per_opening = Some(1);
    let report = run_game::<Plain<TicTacToe>>(&c, &TttConfig::default()).unwrap();
    let rec = &report.records[0];
    assert_eq!(
        (rec.termination.clone(), rec.offender),
        (Termination::NoMove, Some(0)),
        "{}",
        rec.reason
    );
    assert_eq!(rec.moves, ["a1", "b1"]);
    assert_eq!(report.engines[0].no_move, 1);
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
    let report = run_game::<Plain<TicTacToe>>(&c, &TttConfig::default()).unwrap();
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
    let report = run_game::<Plain<TicTacToe>>(&c, &TttConfig::default()).unwrap();
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
    let c = config(vec![fake("A", &[CANDS]), bad], movetime());
    let rec = &one_ttt_game(c);
    assert_eq!(rec.termination, Termination::Crash);
    assert_eq!(rec.offender, Some(1));
    assert_eq!(rec.winner, Some(0));

    let c = config(
        vec![fake("A", &[CANDS]), fake("B", &["--crash-on-start"])],
        movetime(),
    );
    let rec = &one_ttt_game(c);
    assert_eq!(
        (rec.termination.clone(), rec.offender),
        (Termination::Crash, Some(1))
    );

    let mut c = config(
        vec![fake("A", &["--no-uciok"]), fake("B", &[CANDS])],
        movetime(),
    );
    c.referee.ready_timeout = Duration::from_millis(500);
    let rec = &one_ttt_game(c);
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
    let rec = &one_ttt_game(c);
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
    let rec = &one_ttt_game(c);
    assert_eq!(rec.termination, Termination::TimeForfeit, "{}", rec.reason);
    assert_eq!(rec.offender, Some(0));
    assert_eq!(rec.moves.len(), 6);
}

#[test]
fn junk_output_is_survived() {
    // Non-UTF-8 bytes, a 100 kB line, a malformed info line and a misspelled bestmove precede
    // every real answer: the game is the same as without them.
    let c = config(
        vec![
            fake("A", &[CANDS, "--garbage"]),
            fake("B", &[CANDS, "--garbage"]),
        ],
        movetime(),
    );
    let rec = &one_ttt_game(c);
    assert_eq!(rec.termination, Termination::Rules);
    assert_eq!(rec.moves, ["a1", "b1", "c1", "a2", "b2", "c2", "a3"]);
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
    let c = config(
        vec![a, b],
        TimeControl::Clock {
            moves: None,
            base_ms: 5000,
            inc_ms: 100,
        },
    );
    let rec = &one_ttt_game(c);
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
    let rec = &one_ttt_game(c);
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
    let c = config(vec![a, b], movetime());
    let rec = &one_ttt_game(c);
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

#[test]
fn each_engine_reads_and_writes_moves_in_its_own_setup() {
    // B's own setup writes cells in capitals (`upper=true`): it is sent `A1`, answers `B1`, and is
    // told `TTT Upper true`; A and the record keep the match's notation. Same game as
    // `normal_games_are_won_by_rule_and_colours_swap`.
    let dir = std::env::temp_dir().join(format!("sanqi-match-setup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let _ = std::fs::remove_file(&log_a);
    let _ = std::fs::remove_file(&log_b);
    let a = fake("A", &[CANDS, &format!("--log={}", log_a.display())]);
    let mut b = fake(
        "B",
        &[
            "--cands=A1,B1,C1,A2,B2,C2,A3,B3,C3",
            &format!("--log={}", log_b.display()),
        ],
    );
    b.setup = vec![("upper".into(), "true".into())];
    let c = config(vec![a, b], movetime());
    let rec = &one_ttt_game(c);
    assert_eq!(rec.termination, Termination::Rules, "{}", rec.reason);
    assert_eq!(rec.moves, ["a1", "b1", "c1", "a2", "b2", "c2", "a3"]);
    assert_eq!(rec.reason, "A wins by rule");
    let la = std::fs::read_to_string(&log_a).unwrap();
    let lb = std::fs::read_to_string(&log_b).unwrap();
    assert!(!la.contains("TTT Upper"), "{la}");
    assert!(
        la.contains("position fen ---/---/--- x moves a1 b1\n"),
        "{la}"
    );
    assert!(lb.contains("setoption name TTT Upper value true\n"), "{lb}");
    assert!(lb.contains("position fen ---/---/--- x moves A1\n"), "{lb}");

    // An engine setup the game does not have is a configuration error.
    let mut c = config(vec![fake("A", &[CANDS]), fake("B", &[CANDS])], movetime());
    c.engines[1].setup = vec![("ranks".into(), "1-10".into())];
    let err = run_game::<Plain<TicTacToe>>(&c, &TttConfig::default()).unwrap_err();
    assert!(err.contains("ranks"), "{err}");
}

#[test]
fn xiangqi_ranks_are_a_per_engine_setup() {
    // ICCS ranks 0-9 against Fairy-Stockfish's 1-10, through the game's own notation:
    // h2e2 is h3e3, a9a8 is a10a9.
    use sanqi::game::prelude::*;
    use sanqi::game::xiangqi::Xiangqi;
    use sanqi::tournament::config::{engine_setup, non_default_setup};
    let base = Default::default();
    let fsf = engine_setup::<Xiangqi>(&base, &[("ranks".into(), "1-10".into())]).unwrap();
    let mut pos = Xiangqi::startpos(&base);
    let m = pos.parse_move("h3e3", &fsf).unwrap();
    assert_eq!(pos.format_move(m, &base), "h2e2");
    assert_eq!(pos.format_move(m, &fsf), "h3e3");
    pos.make_move(m);
    let m = pos.parse_move("a9a8", &base).unwrap();
    assert_eq!(pos.format_move(m, &fsf), "a10a9");
    assert!(pos.parse_move("a10a9", &base).is_err());
    let told: Vec<_> = non_default_setup::<Xiangqi>(&fsf)
        .into_iter()
        .map(|(info, v)| (info.uci_name, v))
        .collect();
    assert_eq!(told, [(Some("Xiangqi Ranks"), "1-10".to_owned())]);
    assert!(engine_setup::<Xiangqi>(&base, &[("ranks".into(), "2-11".into())]).is_err());
    assert!(engine_setup::<Xiangqi>(&base, &[("players".into(), "3".into())]).is_err());
}
