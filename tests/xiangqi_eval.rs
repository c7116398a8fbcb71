//! The xiangqi evaluation: colour/rank flip and left-right mirror symmetry, the `eval` terms,
//! and each tunable weight moving `evaluate()` by the amount it should on a position built to
//! show it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::prelude::*;
use sanqi::game::xiangqi::eval::{phase, PARAMS};
use sanqi::game::xiangqi::Xiangqi;
use support::{check_params, legal, param as find, param_lock as lock, xiangqi_flip as flip, Rng};

fn pos(fen: &str) -> Xiangqi {
    support::pos(fen)
}

fn eval(fen: &str) -> i32 {
    pos(fen).evaluate()
}

/// Left-right mirror (file a <-> file i).
fn mirror(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(String::from).collect();
    let board: Vec<String> = fields[0]
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    fields[0] = board.join("/");
    fields.join(" ")
}

/// Fixed positions plus positions from seeded random games (captures, advanced soldiers,
/// missing defenders, cannons on open files).
fn sample_positions() -> Vec<String> {
    let mut out: Vec<String> = vec![
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".into(),
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1".into(),
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1".into(),
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1".into(),
        "rnbaka3/5n2r/8b/pcp1p1pcp/9/9/P1P1P1P1P/1C4C1R/4A4/RNBAK1B2 w - - 10 7".into(),
        "4k4/9/9/4C4/9/9/9/9/9/3K5 w - - 0 1".into(),
        "3ak4/4a4/9/2PPP4/9/9/9/9/9/3K5 b - - 0 1".into(),
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _game in 0..12 {
        let mut p = Xiangqi::startpos(&Default::default());
        for ply in 0..90 {
            let list = legal(&p);
            if list.is_empty() || p.rule_outcome().is_some() {
                break;
            }
            let m = list[rng.below(list.len())];
            p.make_move(m);
            if ply % 9 == 8 {
                out.push(p.to_fen());
            }
        }
    }
    out
}

#[test]
fn colour_flip_gives_the_same_score_for_the_side_to_move() {
    let _g = lock();
    let positions = sample_positions();
    assert!(positions.len() > 60);
    for fen in &positions {
        let f = flip(fen);
        assert_eq!(eval(fen), eval(&f), "{fen} vs flipped {f}");
        assert_eq!(flip(&f), *fen);
    }
}

#[test]
fn left_right_mirror_gives_the_same_score() {
    let _g = lock();
    for fen in &sample_positions() {
        let m = mirror(fen);
        assert_eq!(eval(fen), eval(&m), "{fen} vs mirrored {m}");
        assert_eq!(eval(fen), eval(&flip(&m)), "{fen} vs flipped mirror");
    }
}

#[test]
fn the_start_position_scores_the_tempo_only() {
    let _g = lock();
    let p = Xiangqi::startpos(&Default::default());
    let tempo = find("Xiangqi Tempo").get();
    assert_eq!(p.evaluate(), tempo);
}

#[test]
fn eval_terms_add_up_to_the_total_which_is_last() {
    let _g = lock();
    for fen in &sample_positions() {
        let p = pos(fen);
        let terms = p.eval_terms();
        let (last, parts) = terms.split_last().unwrap();
        assert!(last.0.starts_with("total"), "{:?}", last);
        assert_eq!(last.1, p.evaluate(), "{fen}");
        assert_eq!(
            parts.iter().map(|t| t.1).sum::<i32>(),
            last.1,
            "{fen}: {terms:?}"
        );
        let names: Vec<&str> = parts.iter().map(|t| t.0.as_str()).collect();
        for want in [
            "material",
            "piece-square",
            "mobility",
            "king safety",
            "coordination",
            "soldiers",
            "tempo",
        ] {
            assert!(names.contains(&want), "{want} missing in {names:?}");
        }
    }
}

#[test]
fn every_param_is_well_formed() {
    assert!(PARAMS.len() >= 25);
    check_params(PARAMS, "Xiangqi ");
}

/// evaluate() of `fen` with `name` at its default and raised by `delta` (restored afterwards).
fn with_delta(fen: &str, name: &str, delta: i32) -> (i32, i32) {
    let p = find(name);
    let before = eval(fen);
    p.set(i64::from(p.default + delta)).unwrap();
    let after = eval(fen);
    p.reset();
    assert_eq!(eval(fen), before, "{name} reset");
    (before, after)
}

/// `name` raised by `delta` moves the score by `want_mg` in the middlegame and `want_eg` in the
/// endgame part; the change is their blend by the phase, within 1 for rounding.
fn check(fen: &str, name: &str, delta: i32, want_mg: i32, want_eg: i32) {
    let (before, after) = with_delta(fen, name, delta);
    let ph = phase(&pos(fen));
    let want = f64::from(want_mg * ph + want_eg * (128 - ph)) / 128.0;
    let got = f64::from(after - before);
    assert!(
        (got - want).abs() <= 1.0,
        "{name} +{delta} on {fen}: got {got}, want {want} (phase {ph})"
    );
}

/// Red general d0, Black general e9: the rest varies.
#[test]
fn material_params() {
    let _g = lock();
    // Red has one chariot more, with the same other material.
    let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
    check(fen, "Xiangqi Rook MG", 10, 10, 0);
    check(fen, "Xiangqi Rook EG", 10, 0, 10);
    // From Black's view (Black to move) it is a loss of the same size.
    let fen_b = "4k4/9/9/9/9/9/9/9/R8/3K5 b - - 0 1";
    check(fen_b, "Xiangqi Rook MG", 10, -10, 0);
    // Two horses against one cannon; three Red soldiers against one Black soldier.
    let fen = "5k3/9/9/4c4/9/2p6/P1P1P4/1N5N1/9/3K5 w - - 0 1";
    check(fen, "Xiangqi Horse MG", 6, 12, 0);
    check(fen, "Xiangqi Horse EG", 6, 0, 12);
    check(fen, "Xiangqi Cannon MG", 6, -6, 0);
    check(fen, "Xiangqi Cannon EG", 6, 0, -6);
    check(fen, "Xiangqi Soldier MG", 3, 6, 0);
    check(fen, "Xiangqi Soldier EG", 3, 0, 6);
    // Advisors and elephants: Red has both, Black one advisor and no elephant.
    let fen = "4k4/4a4/9/9/9/9/9/B3B4/4A4/3AK4 w - - 0 1";
    check(fen, "Xiangqi Advisor MG", 4, 4, 0);
    check(fen, "Xiangqi Advisor EG", 4, 0, 4);
    check(fen, "Xiangqi Elephant MG", 4, 8, 0);
    check(fen, "Xiangqi Elephant EG", 4, 0, 8);
}

#[test]
fn material_is_phase_aware() {
    let _g = lock();
    // With all else equal, a cannon is worth more than a horse with a full board and less in a
    // bare endgame (default weights).
    let full_c = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w - - 0 1";
    let full_h = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR w - - 0 1";
    let terms = |fen: &str| pos(fen).eval_terms()[0].1;
    assert!(terms(full_c) > terms(full_h), "cannon vs horse, middlegame");
    let end_c = "4k4/9/9/9/9/9/9/4C4/9/3K5 w - - 0 1";
    let end_h = "4k4/9/9/9/9/9/9/4N4/9/3K5 w - - 0 1";
    assert!(terms(end_h) > terms(end_c), "horse vs cannon, endgame");
}

#[test]
fn mobility_params() {
    let _g = lock();
    // Chariot a5 on an empty board: 4 up, 5 down, 8 along the rank.
    check(
        "4k4/9/9/9/R8/9/9/9/9/3K5 w - - 0 1",
        "Xiangqi Rook Mobility",
        1,
        17,
        17,
    );
    // Chariot a5 with a Black soldier on a6 (a capture) and a Red soldier on c5 (blocks):
    // a6, a4..a0, b5.
    check(
        "4k4/9/9/p8/R1P6/9/9/9/9/3K5 w - - 0 1",
        "Xiangqi Rook Mobility",
        2,
        2 * (1 + 5 + 1),
        2 * (1 + 5 + 1),
    );
    // Horse e4 with its own soldier on the leg e5: 6 jumps, not 8.
    check(
        "3k5/9/9/9/4P4/4N4/9/9/9/4K4 w - - 0 1",
        "Xiangqi Horse Mobility",
        1,
        6,
        6,
    );
    // Cannon a4: quiet a5, a6 up to the screen (Red soldier a7), the capture of the Black
    // chariot a8 behind it, 4 squares down and 8 along the rank.
    check(
        "3k5/r8/P8/9/9/C8/9/9/9/4K4 w - - 0 1",
        "Xiangqi Cannon Mobility",
        1,
        2 + 1 + 4 + 8,
        2 + 1 + 4 + 8,
    );
}

#[test]
fn king_safety_params() {
    let _g = lock();
    // Red cannon e5 on Black's general's file with nothing between: hollow cannon.
    let hollow = "4k4/9/9/9/4C4/9/9/9/9/3K5 w - - 0 1";
    check(hollow, "Xiangqi KS Hollow Cannon MG", 10, 10, 0);
    check(hollow, "Xiangqi KS Hollow Cannon EG", 10, 0, 10);
    check(hollow, "Xiangqi KS Central Cannon", 10, 0, 0);
    // Two screens (a Black advisor on e8, a Red soldier on e6): a central cannon that checks
    // once a screen moves away; no hollow cannon.
    let central = "3ak4/4a4/9/4P4/4C4/9/9/9/9/3K5 w - - 0 1";
    check(central, "Xiangqi KS Central Cannon", 10, 10, 10);
    check(central, "Xiangqi KS Hollow Cannon MG", 10, 0, 0);
    // Red: 2 chariots, 2 horses, 1 cannon (attack weight 2 * 2 + 2 + 1 = 7 of 8) and all its
    // defenders; Black: no advisor, one elephant, two chariots far from Red's palace. Red's
    // pieces near Black's palace (files c..g, ranks 6..9): chariot d7 and horse f6.
    let fen = "5k3/9/3R5/5N3/2b6/9/9/r7r/9/RNBAKAB1C w - - 0 1";
    let weight = 7;
    check(
        fen,
        "Xiangqi KS Missing Advisor",
        8,
        2 * 8 * weight / 8,
        2 * 8 * weight / 8,
    );
    check(
        fen,
        "Xiangqi KS Missing Elephant",
        8,
        8 * weight / 8,
        8 * weight / 8,
    );
    check(fen, "Xiangqi KS Palace Attacker", 2, 2 * 2, 2 * 2);
}

#[test]
fn coordination_and_soldier_params() {
    let _g = lock();
    // Red horses c2 and d4 guard each other (legs c3 / d3 empty); Red also has a cannon.
    let fen = "4k4/9/9/9/9/3N5/9/2N6/9/3K1C3 w - - 0 1";
    check(fen, "Xiangqi Horse Link", 4, 4, 4);
    check(fen, "Xiangqi Horse Cannon", 4, 4, 4);
    // Horses c2 and e4 do not guard each other.
    let apart = "4k4/9/9/9/9/4N4/9/2N6/9/3K1C3 w - - 0 1";
    check(apart, "Xiangqi Horse Link", 4, 0, 0);
    // Red soldiers c6 and d6 (crossed, connected; d6 near the palace), e7 (crossed, near the
    // palace). Black has one soldier on a3 (crossed, not near the palace).
    let fen = "4k4/9/4P4/2PP5/9/9/p8/9/9/3K5 w - - 0 1";
    check(fen, "Xiangqi Soldier Crossed MG", 3, 3 * (3 - 1), 0);
    check(fen, "Xiangqi Soldier Crossed EG", 3, 0, 3 * (3 - 1));
    check(fen, "Xiangqi Soldier Connected", 3, 3, 3);
    check(fen, "Xiangqi Soldier Near Palace", 3, 3 * 2, 3 * 2);
}

#[test]
fn tempo_and_pst_scale() {
    let _g = lock();
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    check(fen, "Xiangqi Tempo", 3, 3, 3);
    let p = find("Xiangqi PST Scale");
    let pst_at = |fen: &str| {
        pos(fen)
            .eval_terms()
            .iter()
            .find(|t| t.0 == "piece-square")
            .unwrap()
            .1
    };
    let before = pst_at(fen);
    assert_ne!(before, 0);
    p.set(0).unwrap();
    let zero = pst_at(fen);
    // Twice the default scale doubles the term (up to rounding).
    p.set(2 * i64::from(p.default)).unwrap();
    let double = pst_at(fen);
    p.reset();
    assert_eq!(zero, 0);
    assert!((double - 2 * before).abs() <= 2, "{double} vs 2 x {before}");
}
