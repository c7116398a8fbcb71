//! Cross-check with Fairy-Stockfish's python binding: along pseudo-random games from every
//! position of the perft file, the legal move set (in pyffish's ranks 1-10 notation, so the
//! `XiangqiConfig::ranks_from_one` writer is exercised too), the in-check flag, the moves that
//! give check (the search's `gives_check` hint, decided without making the move) and the quiet
//! ones among them (what quiescence adds with `Use QS Checks`) must agree with `pyffish`.
//! Skipped (with a note) when python3 or pyffish is not installed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::prelude::*;
use sanqi::game::xiangqi::{Xiangqi, XiangqiConfig};
use support::{legal_texts, perft_rows, python_oracle, run_python, Rng};

const SCRIPT: &str = r#"
import sys, pyffish
for line in sys.stdin:
    fen, want_checks = line.rstrip("\n").split("\t")
    moves = sorted(pyffish.legal_moves("xiangqi", fen, []))
    checks = [m for m in moves if want_checks == "1" and pyffish.gives_check("xiangqi", fen, [m])]
    quiet = [m for m in checks if not pyffish.is_capture("xiangqi", fen, [], m)]
    print("|".join([" ".join(moves), str(pyffish.gives_check("xiangqi", fen, [])), " ".join(checks), " ".join(quiet)]))
"#;

#[test]
fn legal_moves_agree_with_pyffish() {
    if !python_oracle("pyffish") {
        return;
    }
    let config = XiangqiConfig {
        ranks_from_one: true,
    };
    let mut starts: Vec<String> = perft_rows("xiangqi.tsv")
        .into_iter()
        .map(|r| r.position)
        .collect();
    starts.dedup();

    // Collect positions (FEN, our sorted moves, our in-check flag, and in every eighth position
    // our sorted checking moves: pyffish answers one move at a time, about 1.6 ms each) along
    // random games.
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let games = if cfg!(debug_assertions) { 3 } else { 12 };
    let mut samples = Vec::new();
    for start in &starts {
        for _ in 0..games {
            let mut p: Xiangqi = support::pos_with(start, &config);
            for _ in 0..80 {
                let list = support::legal(&p);
                let ours = legal_texts(&p, &config);
                let checks = (samples.len() % 8 == 0).then(|| {
                    let mut checks: Vec<String> = list
                        .iter()
                        .filter(|&&m| p.gives_check(m).unwrap())
                        .map(|&m| p.format_move(m, &config))
                        .collect();
                    checks.sort();
                    // The quiet checks quiescence adds with `Use QS Checks` (duplicates kept, so
                    // that a move listed twice fails the comparison).
                    let mut quiet = <Xiangqi as Rules>::MoveList::default();
                    p.push_quiet_checks(&mut quiet);
                    let mut quiet: Vec<String> =
                        quiet.iter().map(|&m| p.format_move(m, &config)).collect();
                    quiet.sort();
                    (checks.join(" "), quiet.join(" "))
                });
                samples.push((p.to_fen(), ours.join(" "), p.in_check(), checks));
                if list.is_empty() || p.rule_outcome().is_some() {
                    break;
                }
                let m = list[rng.below(list.len())];
                p.make_move(m);
            }
        }
    }

    let mut input = String::new();
    for (fen, _, _, checks) in &samples {
        input.push_str(fen);
        input.push_str(if checks.is_some() { "\t1\n" } else { "\t0\n" });
    }
    let (status, text) = run_python(SCRIPT, input);
    assert!(status.success());
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), samples.len());
    let mut checking_moves = 0;
    let mut quiet_checks = 0;
    for ((fen, ours, check, our_checks), answer) in samples.iter().zip(answers) {
        let mut fields = answer.split('|');
        let (moves, theirs_check, their_checks, their_quiet) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let mut theirs: Vec<&str> = moves.split_whitespace().collect();
        theirs.sort();
        assert_eq!(ours, &theirs.join(" "), "legal moves of {fen}");
        assert_eq!(
            check.to_string(),
            theirs_check.to_lowercase(),
            "in check: {fen}"
        );
        if let Some((our_checks, our_quiet)) = our_checks {
            let mut theirs: Vec<&str> = their_checks.split_whitespace().collect();
            theirs.sort();
            assert_eq!(our_checks, &theirs.join(" "), "moves giving check: {fen}");
            checking_moves += theirs.len();
            let mut theirs: Vec<&str> = their_quiet.split_whitespace().collect();
            theirs.sort();
            assert_eq!(
                our_quiet,
                &theirs.join(" "),
                "quiet moves giving check: {fen}"
            );
            quiet_checks += theirs.len();
        }
    }
    // The random games must have met checks often enough to mean something.
    let least = if cfg!(debug_assertions) { 30 } else { 200 };
    assert!(
        checking_moves > least,
        "only {checking_moves} checking moves"
    );
    eprintln!(
        "{} positions ({checking_moves} moves giving check, {quiet_checks} of them quiet) agree \
         with pyffish",
        samples.len()
    );
}
