//! `sanqi datagen`: the lines it writes are legal positions by an independent reference
//! (python-chess for chess and Chess960, pyffish for xiangqi), not in check, with results in
//! {1.0, 0.5, 0.0} that agree with how each game ended; scores are from the first player's
//! point of view; a seed gives the same games whatever the thread count; bad flags are errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::datagen::{analyse, play_game, Ending, PlaySettings};
use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::xiangqi::{Xiangqi, XiangqiConfig};
use sanqi::search::{SearchLimits, Searcher};
use support::{assert_tool_error, python_oracle, run_python, run_sanqi as sanqi, run_sanqi_ok};

/// A fresh path `name` in the folder of these tests (removed first).
fn temp_file(name: &str) -> String {
    support::temp_path("datagen-tests", name)
}

/// The lines of a datagen file as (fen, score, result), checking the shape of each.
fn read_lines(path: &str) -> Vec<(String, i32, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| {
            let parts: Vec<&str> = l.split(" | ").collect();
            assert_eq!(parts.len(), 3, "line {l:?}");
            let score: i32 = parts[1]
                .parse()
                .unwrap_or_else(|_| panic!("score in {l:?}"));
            assert!(score.abs() < 20_000, "a mate score was kept: {l:?}");
            assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "result in {l:?}");
            (parts[0].to_string(), score, parts[2].to_string())
        })
        .collect()
}

/// Runs `sanqi` with `args`, which must succeed; gives its stderr, where datagen reports.
fn run_ok(args: &[&str]) -> String {
    run_sanqi_ok(args).1
}

/// python-chess: every position is valid and the side to move is not in check. Prints one line
/// per position: `ok` or the problem.
const CHESS_CHECK: &str = r#"
import sys, chess
for line in sys.stdin:
    fen = line.strip()
    try:
        b = chess.Board(fen, chess960=True)
    except ValueError as e:
        print("bad fen: " + str(e)); continue
    if not b.is_valid():
        print("invalid: " + str(b.status()))
    elif b.is_check():
        print("in check")
    elif b.is_game_over(claim_draw=False):
        print("game over")
    else:
        print("ok")
"#;

/// Runs the python `script` on `fens` (one a line) and checks that it answers `ok` for each.
fn check_fens(script: &str, fens: &[String]) {
    let (status, out) = run_python(script, fens.join("\n") + "\n");
    assert!(status.success());
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), fens.len());
    for (fen, a) in fens.iter().zip(answers) {
        assert_eq!(a, "ok", "{fen}");
    }
}

#[test]
fn chess_lines_are_legal_quiet_positions_by_python_chess() {
    let path = temp_file("chess.txt");
    let stderr = run_ok(&[
        "datagen", "--game", "chess", "--nodes", "300", "--games", "6", "--seed", "3", "--out",
        &path,
    ]);
    assert!(stderr.contains("datagen: 6 games"), "{stderr}");
    let lines = read_lines(&path);
    assert!(lines.len() >= 60, "only {} positions", lines.len());
    if !python_oracle("chess") {
        return;
    }
    let fens: Vec<String> = lines.iter().map(|l| l.0.clone()).collect();
    check_fens(CHESS_CHECK, &fens);
}

#[test]
fn chess960_lines_are_legal_positions_by_python_chess() {
    let path = temp_file("chess960.txt");
    run_ok(&[
        "datagen",
        "--game",
        "chess",
        "--chess960",
        "--nodes",
        "300",
        "--games",
        "4",
        "--seed",
        "4",
        "--out",
        &path,
    ]);
    let lines = read_lines(&path);
    // Chess960 starts: the back ranks differ from game to game.
    let backs: std::collections::HashSet<&str> = lines
        .iter()
        .map(|l| l.0.split('/').next().unwrap())
        .collect();
    assert!(backs.len() > 1);
    if !python_oracle("chess") {
        return;
    }
    let fens: Vec<String> = lines.iter().map(|l| l.0.clone()).collect();
    check_fens(CHESS_CHECK, &fens);
}

/// Replays each game in python-chess from its start: every move legal, every kept position on
/// the way, and for games ended by the rules python-chess's outcome is the game's result.
const CHESS_REPLAY: &str = r#"
import sys, chess
for line in sys.stdin:
    start, moves, kept, result, by_rules = line.rstrip("\n").split("|")
    b = chess.Board(start)
    key = lambda fen: " ".join(fen.split()[:3])
    seen = {key(b.fen())}
    for m in moves.split():
        mv = chess.Move.from_uci(m)
        if mv not in b.legal_moves:
            print("illegal " + m + " in " + b.fen()); break
        b.push(mv)
        seen.add(key(b.fen()))
    else:
        missing = [k for k in kept.split(";") if k and key(k) not in seen]
        if missing:
            print("kept position not in the game: " + missing[0]); continue
        if by_rules == "1":
            o = b.outcome(claim_draw=True)
            if o is None:
                print("python-chess sees no game end: " + b.fen()); continue
            want = {True: "1.0", False: "0.0", None: "0.5"}[o.winner]
            if want != result:
                print("result " + result + " but python-chess says " + str(o)); continue
        print("ok")
"#;

#[test]
fn chess_games_replay_in_python_chess_with_consistent_results() {
    let settings = PlaySettings {
        nodes: Some(400),
        ..PlaySettings::default()
    };
    let mut searcher = Searcher::new(4);
    let mut input = String::new();
    let mut by_rules = 0;
    for game in 0..10 {
        let r = play_game::<Chess>(
            &ChessConfig::default(),
            &settings,
            &mut searcher,
            11,
            game,
            &|| false,
        )
        .unwrap();
        // Every line of a game carries the game's result.
        let result = sanqi::datagen::selfplay::result_text(r.result);
        for line in r.lines().lines() {
            assert!(line.ends_with(&format!(" | {result}")), "{line}");
        }
        by_rules += usize::from(r.ending == Ending::Rules);
        let kept: Vec<&str> = r.positions.iter().map(|(f, _)| f.as_str()).collect();
        input.push_str(&format!(
            "{}|{}|{}|{}|{}\n",
            r.start,
            r.moves.join(" "),
            kept.join(";"),
            result,
            u8::from(r.ending == Ending::Rules)
        ));
    }
    assert!(by_rules > 0, "no game ended by the rules");
    if !python_oracle("chess") {
        return;
    }
    let (status, out) = run_python(CHESS_REPLAY, input);
    assert!(status.success());
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), 10);
    for a in answers {
        assert_eq!(a, "ok");
    }
}

#[test]
fn xiangqi_lines_are_legal_positions_not_in_check_by_pyffish() {
    let path = temp_file("xiangqi.txt");
    run_ok(&[
        "datagen", "--game", "xiangqi", "--nodes", "300", "--games", "4", "--seed", "5", "--out",
        &path,
    ]);
    let lines = read_lines(&path);
    assert!(lines.len() >= 40, "only {} positions", lines.len());
    if !python_oracle("pyffish") {
        return;
    }
    let script = r#"
import sys, pyffish
for line in sys.stdin:
    fen = line.strip()
    if pyffish.validate_fen(fen, "xiangqi") != 1:
        print("invalid"); continue
    if pyffish.gives_check("xiangqi", fen, []):
        print("in check"); continue
    if not pyffish.legal_moves("xiangqi", fen, []):
        print("no moves"); continue
    print("ok")
"#;
    let fens: Vec<String> = lines.iter().map(|l| l.0.clone()).collect();
    check_fens(script, &fens);
}

#[test]
fn scores_are_from_the_first_players_view() {
    let limits = SearchLimits {
        nodes: Some(2000),
        ..SearchLimits::default()
    };
    let mut searcher = Searcher::new(4);
    // White a queen up, with either side to move: positive for white.
    for fen in [
        "4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1",
        "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 1",
    ] {
        let pos: Chess = support::pos(fen);
        let a = analyse(&pos, &mut searcher, &limits).unwrap();
        assert!(a.first > 500, "{fen}: {}", a.first);
    }
    // In check: not kept.
    let pos: Chess = support::pos("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
    assert!(!analyse(&pos, &mut searcher, &limits).unwrap().keep);
    // Black a queen up: negative.
    let pos: Chess = support::pos("3qk3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
    assert!(analyse(&pos, &mut searcher, &limits).unwrap().first < -500);
    // Xiangqi: red two chariots up, black to move: positive for red.
    let pos: Xiangqi = support::pos_with(
        "3akab2/9/9/p1p1p1p1p/9/9/P1P1P1P1P/9/9/R2AKAB1R b - - 0 1",
        &XiangqiConfig::default(),
    );
    assert!(analyse(&pos, &mut searcher, &limits).unwrap().first > 300);
}

#[test]
fn a_seed_gives_the_same_games_with_one_thread_or_two() {
    let one = temp_file("one.txt");
    let two = temp_file("two.txt");
    for (path, threads) in [(&one, "1"), (&two, "2")] {
        run_ok(&[
            "datagen",
            "--game",
            "chess",
            "--nodes",
            "200",
            "--games",
            "6",
            "--seed",
            "9",
            "--threads",
            threads,
            "--out",
            path,
        ]);
    }
    let sorted = |p: &str| {
        let mut l: Vec<String> = std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        l.sort();
        l
    };
    let a = sorted(&one);
    assert!(!a.is_empty());
    assert_eq!(a, sorted(&two));
}

fn sorted_lines(p: &str) -> Vec<String> {
    let mut l: Vec<String> = std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    l.sort();
    l
}

#[test]
fn append_continues_with_new_games_and_drops_a_game_cut_short() {
    let dg = |path: &str, games: &str, extra: &[&str]| {
        let mut args = vec![
            "datagen", "--game", "chess", "--nodes", "200", "--games", games, "--seed", "5",
            "--out", path,
        ];
        args.extend_from_slice(extra);
        run_ok(&args)
    };
    // The reference: six games of seed 5 in one run.
    let whole = temp_file("whole.txt");
    dg(&whole, "6", &[]);
    // Three games, then an interrupt that left one game's lines unrecorded and half a line.
    let part = temp_file("part.txt");
    let _ = std::fs::remove_file(format!("{part}.games"));
    dg(&part, "3", &[]);
    let first = sorted_lines(&part);
    assert!(!first.is_empty());
    let record = std::fs::read_to_string(format!("{part}.games")).unwrap();
    assert_eq!(record.lines().count(), 3, "{record}");
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&part)
            .unwrap();
        f.write_all(b"8/8/8/8/8/8/8/K6k w - - 0 1 | 0 | 0.5\nrnbqkbnr/pp")
            .unwrap();
    }
    // Resumed with the same seed: three new games (3, 4, 5), not the first three again.
    let said = dg(&part, "3", &["--append"]);
    assert!(said.contains("3 games of seed 5"), "{said}");
    assert!(
        said.contains("removed 2 lines of a game cut short"),
        "{said}"
    );
    assert_eq!(sorted_lines(&part), sorted_lines(&whole));
    let indices: std::collections::BTreeSet<String> =
        std::fs::read_to_string(format!("{part}.games"))
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().nth(1).unwrap().to_string())
            .collect();
    assert_eq!(indices.len(), 6);
    // A data file without its record: appending needs a seed chosen for it.
    std::fs::remove_file(format!("{part}.games")).unwrap();
    let out = sanqi(&[
        "datagen", "--game", "chess", "--nodes", "200", "--games", "1", "--out", &part, "--append",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no record of its games"));
    assert_eq!(sorted_lines(&part), sorted_lines(&whole), "nothing written");
}

#[test]
fn positions_limit_cuts_the_output_exactly() {
    let path = temp_file("limit.txt");
    run_ok(&[
        "datagen",
        "--game",
        "chess",
        "--nodes",
        "200",
        "--positions",
        "37",
        "--threads",
        "2",
        "--out",
        &path,
    ]);
    assert_eq!(read_lines(&path).len(), 37);
}

#[test]
fn chinese_checkers_two_players_work_and_more_players_are_refused() {
    let path = temp_file("cc.txt");
    run_ok(&[
        "datagen",
        "--game",
        "chinesecheckers",
        "--nodes",
        "300",
        "--games",
        "2",
        "--out",
        &path,
    ]);
    let lines = read_lines(&path);
    assert!(!lines.is_empty());
    // A Chinese-checkers position string of the first seat's game parses back.
    for (fen, _, _) in &lines {
        assert!(sanqi::game::GameKind::ChineseCheckers
            .from_fen(fen, &Default::default())
            .is_ok());
    }
    let out = sanqi(&[
        "datagen",
        "--game",
        "chinesecheckers",
        "--players",
        "3",
        "--out",
        &temp_file("cc3.txt"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("two-player games only"));
}

#[test]
fn bad_flags_are_clear_errors() {
    let existing = temp_file("existing.txt");
    std::fs::write(&existing, "x\n").unwrap();
    let fresh = temp_file("fresh.txt");
    for (args, want) in [
        (
            vec!["--out", &fresh, "--nodes", "x"],
            "--nodes takes a number",
        ),
        (
            vec!["--out", &fresh, "--nodes", "0"],
            "--nodes must be positive",
        ),
        (
            vec!["--out", &fresh, "--threads"],
            "--threads needs a value",
        ),
        (vec!["--game", "shogi", "--out", &fresh], "--game takes"),
        (vec!["--nodes", "100"], "--out FILE is required"),
        (
            vec!["--out", &fresh, "--frobnicate"],
            "unknown option '--frobnicate'",
        ),
        (
            vec!["--out", &fresh, "--report", "-1"],
            "--report takes a positive",
        ),
        (vec!["--out", &existing, "--games", "1"], "use --append"),
    ] {
        assert_tool_error("datagen", &args, want);
    }
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "x\n");
    let help = sanqi(&["datagen", "--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("<fen> | <score> | <result>"));
}
