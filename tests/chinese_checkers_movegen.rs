//! Labelled edge cases for Chinese-checkers move generation, passes, wins and the rule variants,
//! plus a comparison of the move generator with a naive one written directly from the brief
//! (tests/support/cc_model.rs).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::collections::{BTreeSet, HashMap};

use sanqi::game::chinese_checkers::paths::path_to_string;
use sanqi::game::chinese_checkers::{
    Cell, ChineseCheckers, Move, MAX_MOVES, MAX_PIECES_PER_PLAYER,
};
use sanqi::game::prelude::*;
use sanqi::game::{GameMove, Outcome};
use support::cc_model::*;
use support::Rng;

/// The destination of a move token (cells have one or two rank digits).
fn destination(m: &str) -> Cell {
    let split = m
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .unwrap()
        .0;
    cell(&m[split..])
}

// ---------------------------------------------------------------- move generation

#[test]
fn movegen_start_position_has_the_hand_counted_14_moves() {
    let got = moves(&pos(START_2));
    let want: BTreeSet<String> = [
        // Steps of the front row j4 k4 l4 m4.
        "j4i5", "j4j5", "k4j5", "k4k5", "l4k5", "l4l5", "m4l5", "m4m5",
        // Single jumps from rank 3 over rank 4 (north-east keeps the file, north-west moves two
        // files west).
        "k3i5", "k3k5", "l3j5", "l3l5", "m3k5", "m3m5",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(got, want);
}

#[test]
fn movegen_long_chain_reaches_far_and_has_a_witness_path() {
    // A on i5 below a ladder of D pieces on i6 i8 i10 i12: one chain i5 i7 i9 i11 i13.
    let p = pos(LADDER);
    assert_eq!(p.side_at(cell("i5")), Some(0));
    for c in ["i6", "i8", "i10", "i12"] {
        assert_eq!(p.side_at(cell(c)), Some(1), "{c}");
    }
    let m = p.parse_move("i5i13", &cfg()).unwrap();
    let path = p.move_path(m).unwrap();
    assert_eq!(path_to_string(&path), "i5 i7 i9 i11 i13");
    let got = moves(&p);
    for stop in ["i7", "i9", "i11", "i13"] {
        assert!(
            got.contains(&format!("i5{stop}")),
            "chain may stop at {stop}"
        );
    }
    assert!(!got.contains("i5i15"), "nothing to jump over on i14");
    assert_eq!(got, Naive::parse(LADDER, false, false).moves());
}

#[test]
fn movegen_chain_looping_back_never_lands_on_its_start() {
    // A on i9 ringed by D pieces on all six neighbours, the second ring empty: six single
    // jumps; from each landing the only jump leads back over the ring to i9, the start cell,
    // which is never a destination. No steps.
    let p = pos("1/2/3/4/13/12/11/4DD4/3DAD3/4DD4/11/12/13/4/3/2/1 AD A 0");
    assert_eq!(p.side_at(cell("i9")), Some(0));
    let got = moves(&p);
    let want: BTreeSet<String> = ["i9k9", "i9g9", "i9i11", "i9g11", "i9i7", "i9k7"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(got, want);
    // Each witness path is a single jump (the loop through the start is never needed).
    for mp in p.moves_with_paths(None) {
        assert_eq!(mp.path.len(), 2, "{}", mp.mv);
    }
    assert_eq!(got, Naive::parse(&p.to_fen(), false, false).moves());
}

#[test]
fn movegen_start_cell_is_empty_during_a_chain() {
    // A on i9, D on j9 and h10. i9 jumps over j9 to k9; from k9 back over j9 lands on i9, the
    // start (empty during the chain, not a destination); from there over h10 to g11 is the
    // same as jumping from the start. Nothing can jump over the start cell.
    let p = pos("1/2/3/4/13/12/11/4D5/4AD3/10/11/12/13/4/3/2/1 AD A 0");
    let got = moves(&p);
    let want: BTreeSet<String> = [
        "i9i10", "i9h9", "i9i8", "i9j8", // steps to the empty neighbours
        "i9k9", "i9g11", // jumps over j9 and h10
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(got, want);
    // With A on h9 too, jumping from h9 over i9 (occupied by the other A piece) is fine,
    // but i9's own chains never use i9 as something to jump over: compare with the model.
    let p = pos("1/2/3/4/13/12/11/4D5/2DAAD3/10/11/12/13/4/3/2/1 AD A 0");
    assert_eq!(moves(&p), Naive::parse(&p.to_fen(), false, false).moves());
}

#[test]
fn movegen_pass_only_when_no_move() {
    // The only A piece is on the tip m1; l2 and m2 hold D pieces, and so do the landings k3, m3.
    let p = pos("1/2/3/4/13/12/11/10/9/10/11/12/13/4/D1D/DD/A AD A 9");
    assert_eq!(moves(&p), BTreeSet::from(["0000".to_string()]));
    assert_eq!(p.clone().perft(1), 1);
    let pass = p.parse_move("0000", &cfg()).unwrap();
    assert!(pass.is_pass());
    assert_eq!(p.move_path(pass), Some(vec![]));
    let mut q = p.clone();
    let h = q.hash();
    q.make_move(pass);
    assert_eq!(q.side_to_move(), 1);
    assert_eq!(q.ply(), 10);
    assert_ne!(q.hash(), h);
    assert_eq!(
        q.hash(),
        ChineseCheckers::from_fen(&q.to_fen(), &cfg())
            .unwrap()
            .hash()
    );
    q.undo_move(pass);
    assert_eq!(q.to_fen(), p.to_fen());
    assert_eq!(q.hash(), h);
    // The pass is illegal while a move exists.
    let err = pos(START_2).parse_move("0000", &cfg()).unwrap_err();
    assert!(err.0.contains("only when it has no other move"), "{err}");
}

#[test]
fn win_completed_by_another_players_move() {
    // D's target is A's home m1..m4. Nine of its cells hold D pieces, l4 is empty, and the A
    // piece on l5 steps into it: the target is full with D pieces in it, D (side 1) wins.
    let p = pos("1/2/3/4/13/12/11/10/9/10/11/12/7A5/DD1D/DDD/DD/D AD A 50");
    assert_eq!(p.rule_outcome(), None);
    let m = p.parse_move("l5l4", &cfg()).unwrap();
    let mut q = p.clone();
    q.make_move(m);
    assert_eq!(q.winner(), Some(1));
    assert_eq!(q.rule_outcome(), Some(Outcome::Win(1)));
    assert_eq!(q.outcome(), Some(Outcome::Win(1)));
    assert_eq!(moves(&q), BTreeSet::new(), "a won position has no moves");
    assert_eq!(q.perft(1), 0);
    assert_eq!(q.perft(2), 0);
    let err = q.parse_move("0000", &cfg()).unwrap_err();
    assert!(err.0.contains("game is over"), "{err}");
    // The parsed won position is recognised too.
    let r = ChineseCheckers::from_fen(&q.to_fen(), &cfg()).unwrap();
    assert_eq!(r.winner(), Some(1));
    q.undo_move(m);
    assert_eq!(q.winner(), None);
    assert_eq!(q.to_fen(), p.to_fen());
    // Depth 1 counts the winning move like any other.
    let mut p2 = p.clone();
    assert_eq!(p2.perft(1), moves(&p).len() as u64);
}

#[test]
fn win_needs_one_own_piece_in_a_full_target() {
    // Start position: D's target (A's home) is full of A pieces only: nobody has won.
    assert_eq!(pos(START_2).rule_outcome(), None);
    // A's target (D's home) full: nine D pieces and one A piece: A has won.
    let p = pos("A/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/4/3/2/1 AD D 30");
    assert_eq!(p.winner(), Some(0));
    assert_eq!(p.rule_outcome(), Some(Outcome::Win(0)));
    // Blocked target: D's home full of D pieces only: no win, and no A move may enter it.
    let p = pos("D/DD/DDD/DDDD/8A4/12/11/10/9/10/11/12/13/4/3/2/1 AD A 30");
    assert_eq!(p.winner(), None);
    for m in moves(&p) {
        let to = destination(&m);
        assert!(to.triangle().map(|t| t.letter()) != Some('D'), "{m}");
    }
    // One spoiler cell h14 left empty: A on i13 steps in and wins (nine D, one A).
    let p = pos("D/DD/DDD/DDD1/8A4/12/11/10/9/10/11/12/13/4/3/2/1 AD A 30");
    let mut q = p.clone();
    let m = q.parse_move("i13h14", &cfg()).unwrap();
    q.make_move(m);
    assert_eq!(q.rule_outcome(), Some(Outcome::Win(0)));
}

#[test]
fn win_by_another_players_move_with_three_players() {
    // ACE: C's target is F (n5 o5 p5 q5 n6 o6 p6 n7 o7 n8). C has a piece on q5, A pieces fill
    // eight more cells, n8 is empty and E (to move) steps m9n8: the target is full with a C
    // piece inside, so C (side 1) wins on E's move.
    let p = pos("1/2/3/4/13/12/11/10/8E/10/9AA/9AAA/9AAAC/4/3/2/1 ACE E 0");
    assert_eq!(p.winner(), None);
    let mut q = p.clone();
    let m = q.parse_move("m9n8", &cfg()).unwrap();
    q.make_move(m);
    assert_eq!(q.rule_outcome(), Some(Outcome::Win(1)));
    assert_eq!(q.perft(1), 0);
    assert!(Naive::parse(&q.to_fen(), false, false).won());
}

#[test]
fn goal_lock_keeps_a_piece_in_its_target() {
    // A on e14 (inside its target D) with a D piece on e15. Standard rules: e14 may step out to
    // e13 or f13. Goal-lock: only f14 and the jump over e15 to e16 stay in the triangle.
    let fen = "1/2/D2/A3/13/12/11/10/9/10/11/12/13/4/3/2/1 AD A 0";
    let std = moves(&ChineseCheckers::from_fen(fen, &cfg()).unwrap());
    let lock = moves(&ChineseCheckers::from_fen(fen, &cfg_rules(true, false)).unwrap());
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(std, set(&["e14e13", "e14f13", "e14f14", "e14e16"]));
    assert_eq!(lock, set(&["e14f14", "e14e16"]));
    assert_eq!(lock, Naive::parse(fen, true, false).moves());
}

#[test]
fn goal_lock_applies_at_every_landing_of_a_chain() {
    // A on i13, D on h14 and g14. i13 jumps over h14 into its target at g15; from g15 a jump
    // over g14 would leave the target again to g13. Standard rules allow i13g13; goal-lock
    // forbids it (the piece stands in its target at the landing g15), but i13g15 stays legal.
    let fen = "1/2/3/2DD/8A4/12/11/10/9/10/11/12/13/4/3/2/1 AD A 0";
    let std = moves(&ChineseCheckers::from_fen(fen, &cfg()).unwrap());
    let p_lock = ChineseCheckers::from_fen(fen, &cfg_rules(true, false)).unwrap();
    let lock = moves(&p_lock);
    assert!(std.contains("i13g15") && std.contains("i13g13"), "{std:?}");
    assert!(
        lock.contains("i13g15") && !lock.contains("i13g13"),
        "{lock:?}"
    );
    let mut others = std.clone();
    others.remove("i13g13");
    assert_eq!(lock, others);
    assert_eq!(lock, Naive::parse(fen, true, false).moves());
}

#[test]
fn no_foreign_stop_allows_passing_through_only() {
    // 2 players. A on e9, D on e8 (in B) and f7 (in B). e9 jumps over e8 to e7 (in B: may not
    // stop) and on over f7 to g7 (central hexagon: allowed). The step to d10 (in C) is not
    // allowed either; the steps to f9, e10, f8 are.
    let fen = "1/2/3/4/13/12/11/10/A8/D9/1D9/12/13/4/3/2/1 AD A 0";
    let std = moves(&ChineseCheckers::from_fen(fen, &cfg()).unwrap());
    let nfs = moves(&ChineseCheckers::from_fen(fen, &cfg_rules(false, true)).unwrap());
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(
        std,
        set(&["e9f9", "e9e10", "e9d10", "e9f8", "e9e7", "e9g7"])
    );
    assert_eq!(nfs, set(&["e9f9", "e9e10", "e9f8", "e9g7"]));
    let p = ChineseCheckers::from_fen(fen, &cfg_rules(false, true)).unwrap();
    let m = p.parse_move("e9g7", &cfg()).unwrap();
    assert_eq!(path_to_string(&p.move_path(m).unwrap()), "e9 e7 g7");
    assert_eq!(nfs, Naive::parse(fen, false, true).moves());
}

#[test]
fn movegen_matches_naive_model_on_random_positions() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let seatings = ["AD", "ACE", "ABDE", "ABCDEF", "BE", "F", "CDF"];
    let mut total = 0;
    let rounds = if cfg!(debug_assertions) { 150 } else { 1500 };
    for round in 0..rounds {
        let players = seatings[round % seatings.len()];
        let max_pieces = if round % 3 == 0 {
            10
        } else {
            1 + rng.below(10)
        };
        let fen = random_position(&mut rng, players, max_pieces);
        for (gl, nfs) in [(false, false), (true, false), (false, true), (true, true)] {
            let p = ChineseCheckers::from_fen(&fen, &cfg_rules(gl, nfs)).unwrap();
            let naive = Naive::parse(&fen, gl, nfs);
            assert_eq!(p.winner().is_some(), naive.won(), "{fen}");
            assert_eq!(moves(&p), naive.moves(), "{fen} goal-lock {gl} nfs {nfs}");
            total += 1;
        }
    }
    assert_eq!(total, 4 * rounds);
}

#[test]
fn movegen_random_playouts_keep_hash_fen_and_bound() {
    let mut rng = Rng(42);
    let plies = if cfg!(debug_assertions) { 120 } else { 400 };
    for players in [2u8, 3, 4, 6] {
        for rules in [(false, false), (true, true)] {
            let mut config = cfg_rules(rules.0, rules.1);
            config.players = players;
            let mut p = ChineseCheckers::startpos(&config);
            let mut played = Vec::new();
            let mut max_len = 0;
            for _ in 0..plies {
                let mut list = <ChineseCheckers as sanqi::game::Rules>::MoveList::default();
                p.generate_moves(&mut list);
                max_len = max_len.max(list.len());
                if list.is_empty() {
                    break;
                }
                let m = list[rng.below(list.len())];
                let text = p.format_move(m, &config);
                assert_eq!(p.parse_move(&text, &config).unwrap(), m);
                assert_eq!(Move::from_bits(m.to_bits()), m);
                p.make_move(m);
                played.push(m);
                let fresh = ChineseCheckers::from_fen(&p.to_fen(), &config).unwrap();
                assert_eq!(fresh.hash(), p.hash(), "{}", p.to_fen());
                assert_eq!(fresh.to_fen(), p.to_fen());
                assert_eq!(fresh.winner(), p.winner());
                assert_eq!(
                    moves(&fresh),
                    Naive::parse(&p.to_fen(), rules.0, rules.1).moves()
                );
            }
            assert!(max_len <= MAX_MOVES);
            let mut q = p.clone();
            for &m in played.iter().rev() {
                q.undo_move(m);
            }
            let start = ChineseCheckers::startpos(&config);
            assert_eq!(q.to_fen(), start.to_fen());
            assert_eq!(q.hash(), start.hash());
        }
    }
}

#[test]
fn movegen_move_list_bound_is_justified() {
    // Jump landings keep both coordinates' parity: the largest parity class of the star.
    let mut classes: HashMap<(i32, i32), usize> = HashMap::new();
    for c in Cell::all() {
        let (x, y, _) = c.cube();
        *classes
            .entry((x.rem_euclid(2), y.rem_euclid(2)))
            .or_default() += 1;
    }
    let largest = *classes.values().max().unwrap();
    assert_eq!(largest, 37);
    assert!(MAX_MOVES >= MAX_PIECES_PER_PLAYER * (6 + largest - 1));
}
