//! The chase rule of xiangqi, checked against pyffish (Fairy-Stockfish's python binding, whose
//! `is_optional_game_end` judges repetitions by the same Asian rules): hand-made cycles (chase,
//! check, mutual, idle; protected pieces, cannon screens, pinned pieces, crossed soldiers, the
//! chariot exception), each also with colours swapped, and cycles played out of random games.
//! The hand-made verdicts are also written down here, so that they are checked without pyffish;
//! the oracle comparisons skip when pyffish is missing (and fail under CI).
//!
//! Moves are in pyffish's notation (ranks 1-10); sanqi reads them with its `1-10` setup.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::prelude::*;
use sanqi::game::xiangqi::{Xiangqi, XiangqiConfig};
use sanqi::game::{MoveBuffer, Outcome};
use support::{python_oracle, run_python, xiangqi_flip, Rng};

const CONFIG: XiangqiConfig = XiangqiConfig {
    ranks_from_one: true,
};

/// One hand-made cycle: a name, the start (ranks 1-10), four plies that return to it (played
/// twice, so the start occurs for the third time at the end) and the winner at the end:
/// `red`, `black` or `draw`.
struct Case {
    name: &'static str,
    fen: &'static str,
    cycle: &'static str,
    verdict: &'static str,
}

const CASES: &[Case] = &[
    // The issue's example: red's chariot chases the lone horse round a cycle.
    Case {
        name: "chariot_chases_lone_horse",
        fen: "5k3/9/9/9/n8/9/9/9/9/R2K5 b - - 0 1",
        cycle: "a6b8 a1b1 b8a6 b1a1",
        verdict: "black",
    },
    Case {
        name: "horse_protected_by_chariot",
        fen: "5k3/9/r8/9/n8/9/9/9/9/R2K5 b - - 0 1",
        cycle: "a6b8 a1b1 b8a6 b1a1",
        verdict: "draw",
    },
    Case {
        name: "chariot_chases_cannon",
        fen: "5k3/9/9/9/c8/9/9/9/9/R2K5 b - - 0 1",
        cycle: "a6b6 a1b1 b6a6 b1a1",
        verdict: "black",
    },
    Case {
        name: "chariot_against_chariot_is_mutual",
        fen: "5k3/9/9/9/r8/9/9/9/9/R2K5 b - - 0 1",
        cycle: "a6b6 a1b1 b6a6 b1a1",
        verdict: "draw",
    },
    Case {
        name: "chariot_chases_crossed_soldier",
        fen: "5k3/9/9/9/9/p8/9/9/9/R2K5 b - - 0 1",
        cycle: "a5b5 a1b1 b5a5 b1a1",
        verdict: "black",
    },
    Case {
        name: "crossed_soldier_protected",
        fen: "5k3/9/9/9/9/p7r/9/9/9/R2K5 b - - 0 1",
        cycle: "a5b5 a1b1 b5a5 b1a1",
        verdict: "draw",
    },
    Case {
        name: "cannon_protected_by_chariot",
        fen: "5k3/9/9/9/c7r/9/9/9/9/R2K5 b - - 0 1",
        cycle: "a6b6 a1b1 b6a6 b1a1",
        verdict: "draw",
    },
    Case {
        name: "horse_chases_chariot_exception",
        fen: "5k3/9/9/9/r8/2N6/9/9/9/3K5 b - - 0 1",
        cycle: "a6b6 c5a4 b6a6 a4c5",
        verdict: "black",
    },
    Case {
        name: "horse_chases_protected_chariot_exception",
        fen: "5k3/9/9/9/r7r/2N6/9/9/9/3K5 b - - 0 1",
        cycle: "a6b6 c5a4 b6a6 a4c5",
        verdict: "black",
    },
    Case {
        name: "horse_chases_cannon",
        fen: "5k3/9/9/9/c8/2N6/9/9/9/3K5 b - - 0 1",
        cycle: "a6b6 c5a4 b6a6 a4c5",
        verdict: "black",
    },
    Case {
        name: "horse_chases_protected_cannon",
        fen: "5k3/9/9/9/c7r/2N6/9/9/9/3K5 b - - 0 1",
        cycle: "a6b6 c5a4 b6a6 a4c5",
        verdict: "draw",
    },
    Case {
        name: "cannon_screen_chases_horse",
        fen: "5k3/9/9/9/n8/9/Pp7/9/9/C2K5 b - - 0 1",
        cycle: "a6b8 a1b1 b8a6 b1a1",
        verdict: "black",
    },
    Case {
        name: "cannon_screen_chases_protected_horse",
        fen: "5k3/9/r8/9/n8/9/Pp7/9/9/C2K5 b - - 0 1",
        cycle: "a6b8 a1b1 b8a6 b1a1",
        verdict: "draw",
    },
    Case {
        name: "pinned_protector_does_not_protect",
        fen: "4k4/9/c3r4/9/9/9/9/9/9/R2KR4 b - - 0 1",
        cycle: "a8b8 a1b1 b8a8 b1a1",
        verdict: "black",
    },
    Case {
        name: "unpinned_protector_protects",
        fen: "4k4/9/c3r4/9/9/9/9/9/9/R2K5 b - - 0 1",
        cycle: "a8b8 a1b1 b8a8 b1a1",
        verdict: "draw",
    },
    Case {
        name: "pinned_chariot_chased_by_chariot",
        fen: "4k4/9/R3r4/9/9/9/9/9/9/3KR4 b - - 0 1",
        cycle: "e8e7 a8a7 e7e8 a7a8",
        verdict: "black",
    },
    Case {
        name: "unpinned_chariot_not_chased_by_chariot",
        fen: "4k4/9/R3r4/9/9/9/9/9/9/3K5 b - - 0 1",
        cycle: "e8e7 a8a7 e7e8 a7a8",
        verdict: "draw",
    },
    // Red's chariot is pinned on the e-file by Black's chariot; Fairy-Stockfish (and sanqi)
    // still count its attacks (Pikafish would count only an attack on the pinner).
    Case {
        name: "pinned_chaser_still_chases",
        fen: "5k3/9/4r4/9/9/9/c3R4/9/9/4K4 b - - 0 1",
        cycle: "a4a3 e4e3 a3a4 e3e4",
        verdict: "black",
    },
    Case {
        name: "soldier_chaser_not_counted",
        fen: "5k3/c8/P8/9/9/9/9/9/9/3K5 b - - 0 1",
        cycle: "a9b9 a8b8 b9a9 b8a8",
        verdict: "draw",
    },
    Case {
        name: "general_chaser_not_counted",
        fen: "5k3/9/9/9/9/9/9/3n5/9/4K4 w - - 0 1",
        cycle: "e1e2 d3b2 e2e1 b2d3",
        verdict: "draw",
    },
    Case {
        name: "protected_by_general_and_advisor",
        fen: "3k5/3ca4/R8/9/9/9/9/9/9/4K4 b - - 0 1",
        cycle: "d9d8 a8a9 d8d9 a9a8",
        verdict: "draw",
    },
    Case {
        name: "attack_along_the_moving_line_is_not_new",
        fen: "5k3/9/9/9/c8/9/9/9/9/R2K5 b - - 0 1",
        cycle: "f10f9 a1a2 f9f10 a2a1",
        verdict: "draw",
    },
    Case {
        name: "idle_shuffle",
        fen: "5k3/9/9/9/c8/9/9/9/9/R2K5 b - - 0 1",
        cycle: "f10f9 d1d2 f9f10 d2d1",
        verdict: "draw",
    },
    Case {
        name: "perpetual_check_loses",
        fen: "R3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1",
        cycle: "e10e9 a10a9 e9e10 a9a10",
        verdict: "black",
    },
];

/// The winner as a word, from sanqi's outcome.
fn word(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "none",
        Some(Outcome::Draw) => "draw",
        Some(Outcome::Win(0)) => "red",
        Some(Outcome::Win(_)) => "black",
    }
}

/// A move in pyffish's notation (ranks 1-10) with the board turned upside down.
fn flip_move(m: &str) -> String {
    let b = m.as_bytes();
    let file1 = b[0] as char;
    let (r1, rest) = m[1..].split_at(m[1..].find(|c: char| c.is_ascii_alphabetic()).unwrap());
    let file2 = rest.as_bytes()[0] as char;
    let r2 = &rest[1..];
    let f = |r: &str| 11 - r.parse::<u32>().unwrap();
    format!("{file1}{}{file2}{}", f(r1), f(r2))
}

/// Plays `moves` from `fen` and returns the position.
fn play(fen: &str, moves: &[String]) -> Xiangqi {
    let mut p = Xiangqi::from_fen(fen, &CONFIG).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for m in moves {
        let mv = p
            .parse_move(m, &CONFIG)
            .unwrap_or_else(|e| panic!("{fen} {m}: {e}"));
        p.make_move(mv);
    }
    p
}

/// Every hand-made case and its colour-swapped twin: (name, fen, moves, verdict).
fn all_cases() -> Vec<(String, String, Vec<String>, &'static str)> {
    let mut out = Vec::new();
    for c in CASES {
        let moves: Vec<String> = c
            .cycle
            .split_whitespace()
            .chain(c.cycle.split_whitespace())
            .map(String::from)
            .collect();
        out.push((
            c.name.to_string(),
            c.fen.to_string(),
            moves.clone(),
            c.verdict,
        ));
        let flipped = match c.verdict {
            "red" => "black",
            "black" => "red",
            v => v,
        };
        out.push((
            format!("{} (colours swapped)", c.name),
            xiangqi_flip(c.fen),
            moves.iter().map(|m| flip_move(m)).collect(),
            flipped,
        ));
    }
    out
}

#[test]
fn hand_made_cycles_are_judged_as_written() {
    let cases = all_cases();
    assert!(cases.len() >= 30);
    for (name, fen, moves, verdict) in &cases {
        let p = play(fen, moves);
        assert_eq!(word(p.rule_outcome()), *verdict, "{name}: {fen} {moves:?}");
        // One ply before the third occurrence the game goes on.
        let before = play(fen, &moves[..moves.len() - 1]);
        assert_eq!(word(before.rule_outcome()), "none", "{name}");
    }
}

#[test]
fn referee_and_d_name_the_rule() {
    let issue: Vec<String> = "a6b8 a1b1 b8a6 b1a1 a6b8 a1b1 b8a6 b1a1"
        .split_whitespace()
        .map(String::from)
        .collect();
    let p = play("5k3/9/9/9/n8/9/9/9/9/R2K5 b - - 0 1", &issue);
    assert_eq!(p.outcome(), Some(Outcome::Win(1)));
    assert_eq!(p.outcome_reason(Outcome::Win(1)), "by perpetual chase");
    assert_eq!(
        p.outcome_line().as_deref(),
        Some("Outcome: black wins by perpetual chase")
    );
    let check: Vec<String> = "e10e9 a10a9 e9e10 a9a10 e10e9 a10a9 e9e10 a9a10"
        .split_whitespace()
        .map(String::from)
        .collect();
    let p = play("R3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1", &check);
    assert_eq!(p.outcome_reason(Outcome::Win(1)), "by perpetual check");
    let idle: Vec<String> = "f10f9 d1d2 f9f10 d2d1 f10f9 d1d2 f9f10 d2d1"
        .split_whitespace()
        .map(String::from)
        .collect();
    let p = play("5k3/9/9/9/c8/9/9/9/9/R2K5 b - - 0 1", &idle);
    assert_eq!(
        p.outcome_line().as_deref(),
        Some("Outcome: draw by repetition")
    );
}

#[test]
fn the_search_judges_a_chase_inside_its_path() {
    // After a6b8 a1b1 b8a6 b1a1 the start repeats once, inside the search path: red's chase
    // is judged already (a loss for red), as perpetual check is.
    let moves: Vec<String> = "a6b8 a1b1 b8a6 b1a1"
        .split_whitespace()
        .map(String::from)
        .collect();
    let p = play("5k3/9/9/9/n8/9/9/9/9/R2K5 b - - 0 1", &moves);
    assert_eq!(p.rule_outcome(), None);
    assert_eq!(p.search_outcome(4, true), Some(Outcome::Win(1)));
    assert_eq!(p.search_outcome(4, false), None);
}

/// Asks pyffish for the verdict of each (fen, moves): `none`, `draw`, `red` or `black`.
fn pyffish_verdicts(samples: &[(String, Vec<String>)]) -> Vec<String> {
    const SCRIPT: &str = r#"
import sys, pyffish
for line in sys.stdin:
    fen, moves = line.rstrip("\n").split("|")
    moves = moves.split()
    end, value = pyffish.is_optional_game_end("xiangqi", fen, moves)
    side = pyffish.get_fen("xiangqi", fen, moves).split()[1]
    if not end:
        print("none")
    elif value == 0:
        print("draw")
    else:
        wins = value > 0
        red_to_move = side == "w"
        print("red" if wins == red_to_move else "black")
"#;
    let mut input = String::new();
    for (fen, moves) in samples {
        input.push_str(&format!("{fen}|{}\n", moves.join(" ")));
    }
    let (status, text) = run_python(SCRIPT, input);
    assert!(status.success(), "pyffish script failed");
    let answers: Vec<String> = text.lines().map(String::from).collect();
    assert_eq!(answers.len(), samples.len());
    answers
}

#[test]
fn hand_made_cycles_agree_with_pyffish() {
    if !python_oracle("pyffish") {
        return;
    }
    let cases = all_cases();
    let samples: Vec<(String, Vec<String>)> = cases
        .iter()
        .map(|(_, fen, moves, _)| (fen.clone(), moves.clone()))
        .collect();
    let answers = pyffish_verdicts(&samples);
    for ((name, fen, moves, verdict), theirs) in cases.iter().zip(&answers) {
        assert_eq!(theirs, verdict, "pyffish on {name}: {fen} {moves:?}");
        assert_eq!(word(play(fen, moves).rule_outcome()), theirs, "{name}");
    }
}

/// The squares the piece that `m` moves could capture on if the mover were to move again
/// (none after a check).
fn targets_after(p: &mut Xiangqi, m: <Xiangqi as Rules>::Move) -> Vec<u8> {
    p.make_move(m);
    if p.in_check() {
        p.undo_move(m);
        return Vec::new();
    }
    p.make_null_move();
    let mut list = Default::default();
    p.generate_noisy(&mut list);
    let found = MoveBuffer::moves(&list)
        .iter()
        .filter(|c| c.from() == m.to())
        .map(|c| c.to())
        .collect();
    p.undo_null_move();
    p.undo_move(m);
    found
}

/// Random cycles: a position of a random game from the start, then a quiet move of each side,
/// both taken back, twice over (`count` of them, fewer if the walk keeps failing).
fn random_cycles(rng: &mut Rng, count: usize) -> Vec<(String, Vec<String>)> {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 20 {
        tries += 1;
        let mut p = Xiangqi::from_fen(start, &CONFIG).unwrap();
        let plies = 10 + rng.below(90);
        let mut ok = true;
        for _ in 0..plies {
            let mut list = Default::default();
            p.generate_moves(&mut list);
            let moves = MoveBuffer::moves(&list);
            if moves.is_empty() || p.rule_outcome().is_some() {
                ok = false;
                break;
            }
            // Captures half the time, so that the boards thin out and pieces hang.
            let captures: Vec<_> = moves.iter().copied().filter(|&m| p.is_noisy(m)).collect();
            let m = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.make_move(m);
        }
        if !ok || p.plies_since_capture() > 100 {
            continue;
        }
        // From here: a random move of each side, then both taken back, twice over.
        let fen = p.to_fen();
        let mut q = Xiangqi::from_fen(&fen, &CONFIG).unwrap();
        let mut texts = Vec::new();
        let mut pair = Vec::new();
        let mut targets = Vec::new();
        for _ in 0..2 {
            let mut list = Default::default();
            q.generate_moves(&mut list);
            let quiet: Vec<_> = MoveBuffer::moves(&list)
                .iter()
                .copied()
                .filter(|&m| !q.is_noisy(m))
                .collect();
            if quiet.is_empty() {
                break;
            }
            // Three times in four the first mover picks a move that attacks something (a
            // chase candidate) and the other side moves an attacked piece away, when they can.
            let preferred: Vec<_> = if pair.is_empty() {
                quiet
                    .iter()
                    .copied()
                    .filter(|&m| !targets_after(&mut q, m).is_empty())
                    .collect()
            } else {
                quiet
                    .iter()
                    .copied()
                    .filter(|m| targets.contains(&m.from()))
                    .collect()
            };
            let m = if !preferred.is_empty() && rng.below(4) != 0 {
                preferred[rng.below(preferred.len())]
            } else {
                quiet[rng.below(quiet.len())]
            };
            if pair.is_empty() {
                targets = targets_after(&mut q, m);
            }
            pair.push(q.format_move(m, &CONFIG));
            q.make_move(m);
        }
        if pair.len() != 2 {
            continue;
        }
        let back: Vec<String> = pair
            .iter()
            .map(|m| {
                let (a, b) =
                    m.split_at(m[1..].find(|c: char| c.is_ascii_alphabetic()).unwrap() + 1);
                format!("{b}{a}")
            })
            .collect();
        let cycle = [
            pair[0].clone(),
            pair[1].clone(),
            back[0].clone(),
            back[1].clone(),
        ];
        let mut r = Xiangqi::from_fen(&fen, &CONFIG).unwrap();
        let mut played = true;
        for m in cycle.iter().chain(cycle.iter()) {
            match r.parse_move(m, &CONFIG) {
                Ok(mv) => {
                    r.make_move(mv);
                    texts.push(m.clone());
                }
                Err(_) => {
                    played = false;
                    break;
                }
            }
            if r.outcome().is_some() && texts.len() < 8 {
                played = false;
                break;
            }
        }
        if played {
            out.push((fen, texts));
        }
    }
    out
}

#[test]
fn random_cycles_agree_with_pyffish() {
    if !python_oracle("pyffish") {
        return;
    }
    let seed = std::env::var("SANQI_CHASE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x9E37_79B9_7F4A_7C15);
    let mut rng = Rng(seed);
    // `SANQI_CHASE_CYCLES=n` runs more (or fewer) cycles than the default.
    let default = if cfg!(debug_assertions) { 300 } else { 3000 };
    let count = std::env::var("SANQI_CHASE_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    let samples = random_cycles(&mut rng, count);
    assert!(samples.len() > count / 2, "{} cycles", samples.len());
    let answers = pyffish_verdicts(&samples);
    let mut tally = std::collections::BTreeMap::new();
    let mut wrong = Vec::new();
    for ((fen, moves), theirs) in samples.iter().zip(&answers) {
        let ours = word(play(fen, moves).rule_outcome());
        *tally.entry(theirs.clone()).or_insert(0) += 1;
        if ours != theirs {
            wrong.push(format!(
                "{fen} moves {}: sanqi {ours}, pyffish {theirs}",
                moves.join(" ")
            ));
        }
    }
    eprintln!(
        "{} random cycles, pyffish verdicts {tally:?}",
        samples.len()
    );
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
