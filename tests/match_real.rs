//! Real matches: sanqi against itself in each game, sanqi against Stockfish (chess, with
//! `UCI_LimitStrength`) and against Fairy-Stockfish (xiangqi, ranks 1-10), at tiny time controls.
//!
//! These are normal tests: the ones that need `/usr/games/stockfish` or
//! `/usr/games/fairy-stockfish` print a note and pass when the program is missing; the games are
//! checked independently with python-chess and pyffish (tests/fake_engines/check_games.py) when
//! the tests' Python (`support::python`: the `.venv` or `python3`) has them.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] functions

mod support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use sanqi::game::GameKind;
use sanqi::tournament::config::EngineSpec;
use sanqi::tournament::proto::Proto;
use sanqi::tournament::record::{GameRecord, Termination};
use sanqi::tournament::timecontrol::TimeControl;
use sanqi::tournament::{run, summary, MatchConfig, MatchReport, OpeningSource};

const SANQI: &str = env!("CARGO_BIN_EXE_sanqi");
const STOCKFISH: &str = "/usr/games/stockfish";
const FAIRY: &str = "/usr/games/fairy-stockfish";

fn sanqi(name: &str) -> EngineSpec {
    let mut e = EngineSpec::new(name, SANQI);
    e.options.push(("Hash".into(), "8".into()));
    e
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sanqi-match-real-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A match of `engines` at `tc` with a ply cap of `max_plies` and a margin of one second on
/// the clock.
fn real_match(
    kind: GameKind,
    engines: Vec<EngineSpec>,
    tc: TimeControl,
    max_plies: u32,
) -> MatchConfig {
    let mut c = MatchConfig::new(kind, engines, tc);
    c.referee.max_plies = Some(max_plies);
    c.referee.margin = Duration::from_millis(1000);
    c
}

/// The PGN file `name` for the match `c`, emptied and set as its `--pgn`.
fn pgn_file(c: &mut MatchConfig, name: &str) -> std::path::PathBuf {
    let pgn = tmp(name);
    let _ = std::fs::remove_file(&pgn);
    c.pgn = Some(pgn.clone());
    pgn
}

/// Plays the match `c` and shows its summary and each game's result on stderr.
fn run_and_show(c: &MatchConfig) -> MatchReport {
    let report = run(c).unwrap();
    eprintln!("{}", summary(c, &report));
    for r in &report.records {
        eprintln!("  {} {{{}}}", r.result_text(), r.reason);
    }
    report
}

/// Whether the engine `path` is installed; a missing one skips its test, except in CI.
fn installed(path: &str) -> bool {
    if Path::new(path).exists() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the oracle is required in CI (.ci/run installs it)"
    );
    eprintln!("note: {path} missing, test skipped");
    false
}

fn term_word(t: &Termination) -> &'static str {
    match t {
        Termination::Rules => "rules",
        Termination::Adjudication => "adjudication",
        Termination::IllegalMove => "illegal",
        Termination::NoMove => "no move",
        Termination::TimeForfeit => "time",
        Termination::Crash => "crash",
        Termination::Hang => "hang",
    }
}

/// Checks every game with the python oracle (skipped when `module` is missing).
fn oracle_check(
    tag: &str,
    variant: &str,
    module: &str,
    records: &[GameRecord],
    pgn: Option<&Path>,
) {
    if !support::python_oracle(module) {
        return;
    }
    let mut lines = String::new();
    for r in records {
        let moves: Vec<&str> = r
            .opening
            .moves
            .iter()
            .chain(r.moves.iter())
            .map(String::as_str)
            .collect();
        lines.push_str(&format!(
            "{variant}|{}|{}|{}|{}\n",
            r.opening.fen,
            moves.join(" "),
            term_word(&r.termination),
            r.result_text()
        ));
    }
    let file = tmp(&format!("{tag}.records"));
    std::fs::write(&file, lines).unwrap();
    let mut cmd = Command::new(support::python());
    cmd.arg(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fake_engines/check_games.py"
    ))
    .arg(&file);
    if let Some(p) = pgn {
        cmd.arg(p);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "oracle check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn assert_clean(report: &MatchReport, expected_games: usize) {
    assert_eq!(report.records.len(), expected_games);
    for r in &report.records {
        assert!(
            matches!(
                r.termination,
                Termination::Rules | Termination::Adjudication
            ),
            "game ended by a failure: {} ({:?})",
            r.reason,
            r.termination
        );
        let total: f64 = r.points.iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
    }
    let games: u64 = report.engines.iter().map(|e| e.games).sum();
    assert_eq!(
        games as usize,
        expected_games * report.records[0].seats.len()
    );
}

#[test]
fn sanqi_self_play_chess_with_pgn() {
    // 2 rounds x 2 games from random 6-ply openings, 30 ms a move, ply cap 160.
    let mut c = real_match(
        GameKind::Chess,
        vec![sanqi("sanqi-a"), sanqi("sanqi-b")],
        TimeControl::MoveTime(30),
        160,
    );
    c.rounds = 2;
    c.openings = OpeningSource::Random(6);
    let pgn = pgn_file(&mut c, "chess.pgn");
    let report = run_and_show(&c);
    assert_clean(&report, 4);
    // Colours swap within each opening.
    assert_eq!(report.records[0].opening, report.records[1].opening);
    assert_eq!(report.records[0].seats, [0, 1]);
    assert_eq!(report.records[1].seats, [1, 0]);
    assert_eq!(report.records[0].opening.moves.len(), 6);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 4);
    oracle_check("self-chess", "chess", "chess", &report.records, Some(&pgn));
}

#[test]
fn sanqi_self_play_chess960() {
    // One round of two games from a random Chess960 start position, 30 ms a move, ply cap 120.
    let mut c = real_match(
        GameKind::Chess,
        vec![sanqi("sanqi-a"), sanqi("sanqi-b")],
        TimeControl::MoveTime(30),
        120,
    );
    c.setup.chess.chess960 = true;
    c.seed = 5;
    let pgn = pgn_file(&mut c, "chess960.pgn");
    let report = run_and_show(&c);
    assert_clean(&report, 2);
    let fen = &report.records[0].opening.fen;
    assert_ne!(
        fen.split(' ').next(),
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
    oracle_check("self-960", "chess960", "chess", &report.records, Some(&pgn));
}

#[test]
fn sanqi_self_play_xiangqi_uci_against_ucci_and_ranks_from_one() {
    // Engine A speaks UCCI; engine B speaks UCI with ranks 1-10 (its own setup: the referee reads
    // and writes its moves so and tells it `Xiangqi Ranks 1-10`). Every move is checked with pyffish.
    let mut a = sanqi("sanqi-ucci");
    a.proto = Proto::Ucci;
    a.options = vec![("hashsize".into(), "8".into())];
    let mut b = sanqi("sanqi-uci-1-10");
    b.setup = vec![("ranks".into(), "1-10".into())];
    let mut c = real_match(
        GameKind::Xiangqi,
        vec![a, b],
        TimeControl::MoveTime(30),
        160,
    );
    c.openings = OpeningSource::Random(4);
    let report = run_and_show(&c);
    assert_clean(&report, 2);
    oracle_check("self-xiangqi", "xiangqi", "pyffish", &report.records, None);
}

#[test]
fn sanqi_self_play_chinese_checkers_three_players() {
    // Three sanqi processes, seats rotating over 3 games, 300 nodes a move (sanqi's Chinese-checkers
    // search does not stop at `movetime` yet, see the report), ply cap 90 (30 each).
    let engines = vec![sanqi("cc-a"), sanqi("cc-b"), sanqi("cc-c")];
    let mut c = MatchConfig::new(GameKind::ChineseCheckers, engines, TimeControl::Nodes(300));
    c.setup.chinese_checkers.players = 3;
    c.concurrency = 2;
    c.referee.max_plies = Some(90);
    // Progress stall (distance to target, through `run`): 45 plies without a new best.
    c.referee.stall_plies = Some(45);
    let report = run_and_show(&c);
    assert_clean(&report, 3);
    let seatings: Vec<Vec<usize>> = report.records.iter().map(|r| r.seats.clone()).collect();
    assert_eq!(seatings, [vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
    let points: f64 = report.engines.iter().map(|e| e.points).sum();
    assert!((points - 3.0).abs() < 1e-9);
}

#[test]
fn sanqi_against_stockfish_limit_strength() {
    if !installed(STOCKFISH) {
        return;
    }
    let mut sf = EngineSpec::new("stockfish-1350", STOCKFISH);
    sf.options = vec![
        ("UCI_LimitStrength".into(), "true".into()),
        ("UCI_Elo".into(), "1350".into()),
        ("Hash".into(), "8".into()),
        ("Threads".into(), "1".into()),
    ];
    let mut c = real_match(
        GameKind::Chess,
        vec![sanqi("sanqi"), sf],
        TimeControl::Clock {
            moves: None,
            base_ms: 2000,
            inc_ms: 50,
        },
        200,
    );
    let pgn = pgn_file(&mut c, "stockfish.pgn");
    let report = run_and_show(&c);
    assert_clean(&report, 2);
    oracle_check("stockfish", "chess", "chess", &report.records, Some(&pgn));
}

#[test]
fn sanqi_against_fairy_stockfish_xiangqi() {
    if !installed(FAIRY) {
        return;
    }
    let mut fsf = EngineSpec::new("fairy-stockfish", FAIRY);
    fsf.proto = Proto::UciFsf;
    fsf.setup = vec![("ranks".into(), "1-10".into())];
    fsf.options = vec![("Hash".into(), "8".into()), ("Threads".into(), "1".into())];
    let c = real_match(
        GameKind::Xiangqi,
        vec![sanqi("sanqi"), fsf],
        TimeControl::MoveTime(30),
        200,
    );
    let report = run_and_show(&c);
    assert_clean(&report, 2);
    oracle_check("fairy", "xiangqi", "pyffish", &report.records, None);
}
