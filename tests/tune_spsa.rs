//! `sanqi tune-spsa` end to end with the real engine: it checks the option names against the
//! engine's `uci` list before playing, plays the iterations through `sanqi match`, keeps a
//! state file a later run resumes from, and prints the tuned values in OpenBench's format.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

fn sanqi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sanqi"))
}

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("sanqi-tune-spsa-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

const PARAMS: &str = "Search_Chess_RFP_Margin, int, 80, 10, 400, 19.5, 0.002\n\
                      Search_Time_Moves_Left, int, 40, 15, 80, 3.25, 0.002\n";

fn tune(
    params: &std::path::Path,
    state: &std::path::Path,
    iterations: &str,
) -> (bool, String, String) {
    tune_logged(params, state, iterations, None)
}

/// The run, with every engine's input and output appended to `log` (`Debug Log File`).
fn tune_logged(
    params: &std::path::Path,
    state: &std::path::Path,
    iterations: &str,
    log: Option<&std::path::Path>,
) -> (bool, String, String) {
    let out = sanqi()
        .args(["tune-spsa", "--params"])
        .arg(params)
        .args(["--iterations", iterations, "--state"])
        .arg(state)
        .args([
            "--game",
            "chess",
            "--nodes",
            "200",
            "--random-plies",
            "4",
            "--concurrency",
            "2",
            "--max-plies",
            "60",
            "--engine",
        ])
        .arg(format!("cmd={}", env!("CARGO_BIN_EXE_sanqi")))
        .args(log.map(|l| format!("option.Debug Log File={}", l.display())))
        .output()
        .expect("sanqi runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn iterations_are_played_saved_resumed_and_reported() {
    let d = dir("run");
    let params = d.join("params.txt");
    let state = d.join("state.txt");
    std::fs::write(&params, PARAMS).expect("write");
    let (ok, out, err) = tune(&params, &state, "2");
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("iteration 1/2: dev +"), "{out}");
    assert!(out.contains("iteration 2/2: dev +"), "{out}");
    let saved = std::fs::read_to_string(&state).expect("a state file");
    assert!(
        saved.contains("iterations 2\niterations-done 2\n"),
        "{saved}"
    );
    // The final lines: OpenBench's format, the same names, values in range.
    for (name, lo, hi) in [
        ("Search_Chess_RFP_Margin", 10, 400),
        ("Search_Time_Moves_Left", 15, 80),
    ] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{name}, int, ")))
            .unwrap_or_else(|| panic!("no final line for {name}: {out}"));
        let v: i64 = line
            .split(", ")
            .nth(2)
            .and_then(|v| v.parse().ok())
            .expect("a value");
        assert!((lo..=hi).contains(&v), "{line}");
        assert!(out.contains(&format!("option.{name}={v}")), "{out}");
    }

    // A run of 3 iterations stopped after 2: the next run plays only the third.
    std::fs::write(&state, saved.replace("iterations 2\n", "iterations 3\n")).expect("write");
    let (ok, out, err) = tune(&params, &state, "3");
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("resuming after iteration 2"), "{out}");
    assert!(!out.contains("iteration 1/3"), "{out}");
    assert!(out.contains("iteration 3/3: dev +"), "{out}");
    // Another schedule than the state's is refused.
    let (ok, _, err) = tune(&params, &state, "5");
    assert!(!ok && err.contains("not 5"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn dev_and_base_are_told_the_perturbed_values_by_their_exact_names() {
    // One iteration of a one-iteration run: c_1 = c_end, so dev and base get value +- c_end
    // (rounded down the same way after adding one random number), each parameter by its exact
    // name; `Debug Log File` records what the engines (both write the log) were told.
    let d = dir("told");
    let params = d.join("params.txt");
    std::fs::write(&params, PARAMS).expect("write");
    let log = d.join("engines.log");
    let (ok, out, err) = tune_logged(&params, &d.join("state.txt"), "1", Some(&log));
    assert!(ok, "{out}\n{err}");
    let told = std::fs::read_to_string(&log).expect("the engines' log");
    for (name, value, c_end) in [
        ("Search_Chess_RFP_Margin", 80, 19.5),
        ("Search_Time_Moves_Left", 40, 3.25),
    ] {
        let prefix = format!(">> setoption name {name} value ");
        let values: std::collections::BTreeSet<i64> = told
            .lines()
            .filter_map(|l| {
                l.split_once(&prefix)
                    .map(|(_, v)| v.trim().parse().expect("a number"))
            })
            .collect();
        let v: Vec<i64> = values.into_iter().collect();
        assert_eq!(v.len(), 2, "{name}: dev's and base's values, {v:?}");
        assert!((v[0] + v[1] - 2 * value).abs() <= 1, "{name}: {v:?}");
        let gap = (v[1] - v[0]) as f64;
        assert!((gap - 2.0 * c_end).abs() <= 1.0, "{name}: {v:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn names_the_engine_does_not_offer_exactly_are_refused_before_any_game() {
    let d = dir("names");
    let state = d.join("state.txt");
    for (line, want) in [
        (
            "search_chess_rfp_margin, int, 80, 10, 400, 19.5, 0.002",
            "(it offers `Search_Chess_RFP_Margin`)",
        ),
        (
            "Search_Chess_RFP_Margn, int, 80, 10, 400, 19.5, 0.002",
            "has no option",
        ),
        (
            "Search_Chess_RFP_Margin, int, 80, 0, 400, 19.5, 0.002",
            "not inside the engine's 10..400",
        ),
        ("Search_Chess_RFP_Margin, int, 80, 10, 400", "line 1"),
    ] {
        let params = d.join("params.txt");
        std::fs::write(&params, line).expect("write");
        let (ok, out, err) = tune(&params, &state, "2");
        assert!(!ok, "{line}: {out}");
        assert!(err.contains(want), "{line}: {err}");
        assert!(!out.contains("iteration 1/2"), "{line}: {out}");
        assert!(!state.exists(), "no state is written without a game");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn each_iteration_draws_its_own_opening_from_a_file() {
    let d = dir("openings");
    let params = d.join("params.txt");
    std::fs::write(&params, PARAMS).expect("write");
    let book = d.join("openings.epd");
    let fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
    ];
    std::fs::write(&book, fens.join("\n")).expect("write");
    let pgn = d.join("games.pgn");
    let out = sanqi()
        .args(["tune-spsa", "--params"])
        .arg(&params)
        .args([
            "--iterations",
            "6",
            "--game",
            "chess",
            "--nodes",
            "200",
            "--max-plies",
            "16",
        ])
        .args(["--concurrency", "2", "--openings"])
        .arg(&book)
        .arg("--pgn")
        .arg(&pgn)
        .arg("--engine")
        .arg(format!("cmd={}", env!("CARGO_BIN_EXE_sanqi")))
        .output()
        .expect("sanqi runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = std::fs::read_to_string(&pgn).expect("the PGN");
    let used: std::collections::BTreeSet<&str> = games
        .lines()
        .filter_map(|l| l.strip_prefix("[FEN \"")?.strip_suffix("\"]"))
        .collect();
    assert_eq!(games.matches("[Result ").count(), 12, "{games}");
    assert!(
        used.len() >= 2,
        "every iteration played the same opening: {used:?}"
    );
    assert!(used.iter().all(|f| fens.contains(f)), "{used:?}");
    let _ = std::fs::remove_dir_all(&d);
}
