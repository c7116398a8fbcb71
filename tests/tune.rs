//! `sanqi tune`: on a synthetic data set labelled from the default weights (each result is the
//! win probability `sigmoid(K * eval)` with K = 1), K is fitted back to 1, and weights moved away
//! from their defaults are tuned back toward them; datagen files of every game are read; bad
//! flags and bad files are clear errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::chess::Chess;
use sanqi::game::prelude::*;
use support::{assert_tool_error, run_sanqi as sanqi, run_sanqi_ok as run_ok, Rng};

/// A fresh path `name` in the folder of these tests (removed first).
fn temp_file(name: &str) -> String {
    support::temp_path("tune-tests", name)
}

fn sigmoid(k: f64, x: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * x / 400.0))
}

/// Quiet-ish positions from random games (not in check), labelled with the default weights:
/// `<fen> | <eval> | sigmoid(eval)` from white's point of view (the hand-written evaluation).
fn synthetic_chess(path: &str, count: usize) {
    // Labelled by the hand-written evaluation, the one `sanqi tune` fits.
    sanqi::nnue::set_enabled(false);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = String::new();
    let mut n = 0;
    while n < count {
        let mut pos = Chess::startpos(&Default::default());
        let plies = 10 + rng.below(60);
        for _ in 0..plies {
            let moves = support::legal(&pos);
            if moves.is_empty() || pos.rule_outcome().is_some() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
        }
        if pos.in_check() || pos.outcome().is_some() {
            continue;
        }
        let v = f64::from(pos.evaluate());
        let white = if pos.side_to_move() == 0 { v } else { -v };
        out.push_str(&format!(
            "{} | {} | {:.6}\n",
            pos.to_fen(),
            white,
            sigmoid(1.0, white)
        ));
        n += 1;
    }
    std::fs::write(path, out).unwrap();
}

/// The value of `name` in the `name, value` lines of the report.
fn tuned(stdout: &str, name: &str) -> i32 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}, ")))
        .unwrap_or_else(|| panic!("no {name} in {stdout}"))
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn k_is_fitted_back_and_moved_weights_return_toward_their_defaults() {
    let path = temp_file("synthetic.txt");
    synthetic_chess(&path, 3000);
    // K alone: the labels were made with K = 1.
    let (stdout, _) = run_ok(&["tune", "--game", "chess", "--data", &path, "--passes", "0"]);
    let k: f64 = stdout
        .split("K ")
        .nth(1)
        .and_then(|t| t.split(',').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!((k - 1.0).abs() < 0.02, "K = {k}\n{stdout}");
    // With no pass, the report gives the starting (default) values.
    assert!(stdout.contains("setoption name Chess_Knight_MG value 337"));

    // A knight's middlegame value zeroed and a rook's endgame value doubled: both go back.
    let (stdout, stderr) = run_ok(&[
        "tune",
        "--game",
        "chess",
        "--data",
        &path,
        "--k",
        "1",
        "--threads",
        "2",
        "--set",
        "Chess Knight MG=0",
        "--set",
        "Chess Rook EG=1024",
        "--param",
        "Chess Knight MG",
        "--param",
        "Chess Rook EG",
    ]);
    let knight = tuned(&stdout, "Chess_Knight_MG");
    let rook = tuned(&stdout, "Chess_Rook_EG");
    assert!((knight - 337).abs() <= 25, "knight {knight}\n{stderr}");
    assert!((rook - 512).abs() <= 40, "rook {rook}\n{stderr}");
    assert!(stdout.contains(&format!("setoption name Chess_Knight_MG value {knight}")));
    // Only the weights asked for are tuned.
    assert!(!stdout.contains("Chess_Pawn_MG"));
}

#[test]
fn datagen_files_of_every_two_player_game_are_tuned() {
    for (game, weight) in [
        ("chess", "Chess_Tempo"),
        ("xiangqi", "Xiangqi_Tempo"),
        ("chinesecheckers", "CC_Distance_Weight"),
    ] {
        let data = temp_file(&format!("{game}.txt"));
        run_ok(&[
            "datagen", "--game", game, "--nodes", "300", "--games", "3", "--out", &data,
        ]);
        let (stdout, stderr) = run_ok(&[
            "tune",
            "--game",
            game,
            "--data",
            &data,
            "--passes",
            "1",
            "--threads",
            "2",
        ]);
        assert!(stdout.contains(&format!("{weight}, ")), "{game}: {stdout}");
        assert!(stderr.contains("pass 1: error"), "{game}: {stderr}");
    }
}

#[test]
fn bad_flags_and_files_are_clear_errors() {
    let good = temp_file("good.txt");
    std::fs::write(
        &good,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 10 | 0.5\n",
    )
    .unwrap();
    let bad_line = temp_file("bad_line.txt");
    std::fs::write(
        &bad_line,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 10 | 0.5\n\nfen only\n",
    )
    .unwrap();
    let bad_fen = temp_file("bad_fen.txt");
    std::fs::write(&bad_fen, "rnbqkbnr/ppp w KQkq - 0 1 | 10 | 0.5\n").unwrap();
    let bad_result = temp_file("bad_result.txt");
    std::fs::write(
        &bad_result,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 10 | 1-0\n",
    )
    .unwrap();
    let missing = temp_file("missing.txt");
    for (args, want) in [
        (vec!["--game", "chess"], "--data FILE is required"),
        (vec!["--data", &missing], "cannot open"),
        (
            vec!["--data", &bad_line],
            "line 3: expected `<fen> | <score> | <result>`",
        ),
        (vec!["--data", &bad_fen], "line 1: bad position"),
        (vec!["--data", &bad_result], "line 1: bad result '1-0'"),
        (
            vec!["--data", &good, "--param", "Chess Nothing"],
            "no parameter named 'Chess Nothing'",
        ),
        (
            vec!["--data", &good, "--param", "Xiangqi Tempo"],
            "not a weight of chess",
        ),
        (
            vec!["--data", &good, "--set", "Chess Pawn MG=99999"],
            "out of range",
        ),
        (
            vec!["--data", &good, "--set", "Chess Pawn MG"],
            "--set takes NAME=VALUE",
        ),
        (
            vec!["--data", &good, "--lambda", "2"],
            "--lambda takes a number from 0 to 1",
        ),
        (
            vec!["--data", &good, "--k", "0"],
            "--k must be a positive number",
        ),
        (
            vec!["--data", &good, "--threads", "0"],
            "--threads must be positive",
        ),
        (
            vec!["--data", &good, "--passes", "many"],
            "--passes takes a number",
        ),
        (vec!["--data", &good, "--bogus"], "unknown option '--bogus'"),
        (vec!["--game", "go", "--data", &good], "--game takes"),
    ] {
        assert_tool_error("tune", &args, want);
    }
    let help = sanqi(&["tune", "--help"]);
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("--set NAME=VALUE") && text.contains("setoption name"));
    // The good file is read.
    let (stdout, _) = run_ok(&["tune", "--data", &good, "--passes", "0"]);
    assert!(stdout.starts_with("# 1 positions"), "{stdout}");
}
