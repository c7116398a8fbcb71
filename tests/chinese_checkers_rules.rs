//! Labelled edge cases for the Chinese-checkers cells, position strings, move tokens, paths,
//! distances, evaluation and display, checked against an independent model of the board written
//! from the brief (tests/support/cc_model.rs). Move generation and wins:
//! chinese_checkers_movegen.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::collections::{BTreeSet, HashMap, VecDeque};

use sanqi::game::chinese_checkers::distance::plain_distance;
use sanqi::game::chinese_checkers::eval::distance_to_triangle;
use sanqi::game::chinese_checkers::paths::path_to_string;
use sanqi::game::chinese_checkers::{
    Cell, ChineseCheckers, ChineseCheckersConfig, Move, Triangle, MAX_PIECES_PER_PLAYER,
};
use sanqi::game::prelude::*;
use sanqi::game::Outcome;
use support::cc_model::*;

const MID_2: &str = "1/1D/DDD/4/5D7/6D5/5A5/3DD5/1D7/5AA3/4D6/4A7/3AA1A6/3A/2A/A1/1 AD A 40";
const MID_4: &str = "D/1D/3/1D1D/3DE1ED1ED1E/3D2ED1E1E/11/2B4E1E/AAB6/2BB2DE2/1BBAB6/B3B1A5/3B4A4/A1A1/2A/AA/1 ABDE A 60";
const LATE_2: &str = "A/AA/2A/1A2/13/12/2A8/2A7/3D3A1/10/11/12/6AD5/DD1A/DDD/DD/D AD A 114";
const RANK_LENGTHS: [usize; 17] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];

// ---------------------------------------------------------------- cells and triangles

#[test]
fn cells_star_has_121_cells_with_brief_rank_lengths() {
    assert_eq!(Cell::all().count(), 121);
    for (i, &len) in RANK_LENGTHS.iter().enumerate() {
        let n = Cell::all().filter(|c| c.rank() as usize == i + 1).count();
        assert_eq!(n, len, "rank {}", i + 1);
    }
    for c in Cell::all() {
        let text = c.to_string();
        assert_eq!(text.parse::<Cell>().unwrap(), c);
        let (f, r) = coords(&text);
        assert!(on_star(f, r), "{text}");
        let (x, y, z) = c.cube();
        assert_eq!((x, y, z), (f, r, -f - r));
    }
    assert_eq!(cell("i9").cube(), (0, 0, 0));
}

#[test]
fn cells_neighbours_follow_the_six_offsets() {
    for c in Cell::all() {
        let (f, r) = coords(&c.to_string());
        let expected: BTreeSet<String> = DIRS
            .iter()
            .map(|(df, dr)| (f + df, r + dr))
            .filter(|&(a, b)| on_star(a, b))
            .map(|(a, b)| name(a, b))
            .collect();
        let got: BTreeSet<String> = c.neighbours().map(|n| n.to_string()).collect();
        assert_eq!(got, expected, "{c}");
    }
    let tip: BTreeSet<String> = cell("m1").neighbours().map(|n| n.to_string()).collect();
    assert_eq!(tip, ["l2", "m2"].iter().map(|s| s.to_string()).collect());
}

#[test]
fn triangles_match_the_brief_table() {
    for t in Triangle::ALL {
        let mut n = 0;
        for c in Cell::all() {
            let (f, r) = coords(&c.to_string());
            let inside = c.bit() & t.cells() != 0;
            assert_eq!(inside, triangle_of(f, r) == Some(t.letter()), "{c} in {t}");
            assert_eq!(inside, c.triangle() == Some(t));
            n += usize::from(inside);
        }
        assert_eq!(n, 10);
    }
    let tips: Vec<String> = Triangle::ALL.iter().map(|t| t.tip().to_string()).collect();
    assert_eq!(tips, ["m1", "e5", "a13", "e17", "m13", "q5"]);
    assert_eq!(Triangle::from_letter('A').unwrap().opposite().letter(), 'D');
    assert_eq!(Triangle::from_letter('E').unwrap().opposite().letter(), 'B');
}

#[test]
fn cells_bad_names_are_rejected_with_a_reason() {
    for (text, why) in [
        ("a1", "not a cell of the star"),
        ("r5", "file"),
        ("e0", "rank"),
        ("e18", "rank"),
        ("e05", "rank"),
        ("e", "rank"),
        ("", "empty"),
        ("E5", "file"),
        ("e5x", "rank"),
    ] {
        let err = text.parse::<Cell>().unwrap_err();
        assert!(err.0.contains(why), "`{text}`: {err}");
    }
}

// ---------------------------------------------------------------- position strings

#[test]
fn fen_start_positions_by_player_count_round_trip() {
    let expected = [
        (2, START_2),
        (
            3,
            "1/2/3/4/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/10/11/12/13/AAAA/AAA/AA/A ACE A 0",
        ),
        (
            4,
            "D/DD/DDD/DDDD/9EEEE/9EEE/9EE/9E/9/B9/BB9/BBB9/BBBB9/AAAA/AAA/AA/A ABDE A 0",
        ),
        (
            6,
            "D/DD/DDD/DDDD/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/B8F/BB7FF/BBB6FFF/BBBB5FFFF/AAAA/AAA/AA/A ABCDEF A 0",
        ),
    ];
    for (n, fen) in expected {
        let config = ChineseCheckersConfig {
            players: n,
            ..ChineseCheckersConfig::default()
        };
        let p = ChineseCheckers::startpos(&config);
        assert_eq!(p.to_fen(), fen);
        assert_eq!(p.num_players(), n as usize);
        assert_eq!(p.side_to_move(), 0);
        // Every player starts with ten pieces in its home triangle.
        for i in 0..p.num_players() {
            assert_eq!(p.pieces(i), p.home(i).cells());
        }
    }
}

#[test]
fn fen_canonical_form_and_other_seatings() {
    // Ply defaults to 0; whitespace runs are accepted; the output is canonical.
    let p = ChineseCheckers::from_fen(
        "  D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A\tAD   D ",
        &cfg(),
    )
    .unwrap();
    assert_eq!(
        p.to_fen(),
        "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD D 0"
    );
    assert_eq!(p.side_to_move(), 1);
    // A seating that is no standard one: B and F, F first; side index is the place in the string.
    let p = pos("1/2/3/4/13/12/11/10/9/B9/BB9/BBB9/BBBB5FFFF/4/3/2/1 FB B 3");
    assert_eq!(p.players(), "FB");
    assert_eq!(p.side_to_move(), 1);
    assert_eq!(p.home(0).letter(), 'F');
    assert_eq!(p.target(1).letter(), 'E');
    // A single player, no pieces at all: it can only pass.
    let p = pos("1/2/3/4/13/12/11/10/9/10/11/12/13/4/3/2/1 C C 0");
    assert_eq!(moves(&p), BTreeSet::from(["0000".to_string()]));
    for fen in [MID_2, MID_4, LATE_2] {
        assert_eq!(pos(fen).to_fen(), fen);
    }
}

#[test]
fn fen_errors_name_their_reason() {
    let cases = [
        ("", "got 0 field"),
        ("D/DD AD", "got 2 field"),
        (&format!("{START_2} extra"), "got 5 field"),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA AD A 0",
            "16 rank",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/14/AAAA/AAA/AA/A AD A 0",
            "rank 5",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/12/AAAA/AAA/AA/A AD A 0",
            "describes 12 cell(s), it has 13",
        ),
        (
            "D/DD/DDD/DDDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0",
            "rank 14",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA//A AD A 0",
            "18 rank",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/ AD A 0",
            "rank 1 is empty",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/Ax/A AD A 0",
            "unexpected character `x`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/a AD A 0",
            "unexpected character `a`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/0/10/11/12/13/AAAA/AAA/AA/A AD A 0",
            "got `0`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/09/10/11/12/13/AAAA/AAA/AA/A AD A 0",
            "got `09`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/99999999999999999999999/AAAA/AAA/AA/A AD A 0",
            "got `99999999999999999999999`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AE A 0",
            "piece `D` belongs to no listed player",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AA A 0",
            "listed twice",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AG A 0",
            "`G` is not a triangle letter",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A ABCDEFA A 0",
            "listed twice",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD B 0",
            "side to move `B` is not one of the players",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD AD 0",
            "must be one player letter",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A -1",
            "ply `-1`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A x",
            "ply `x`",
        ),
        (
            "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/A12/AAAA/AAA/AA/A AD A 0",
            "player A has 11 pieces, at most 10",
        ),
    ];
    for (fen, why) in cases {
        let err = ChineseCheckers::from_fen(fen, &cfg()).unwrap_err();
        assert!(err.0.contains(why), "`{fen}`: got `{err}`, want `{why}`");
    }
    assert_eq!(MAX_PIECES_PER_PLAYER, 10);
}

// ---------------------------------------------------------------- move tokens and paths

#[test]
fn move_tokens_errors_name_their_reason() {
    let p = pos(START_2);
    for (text, why) in [
        ("", "bad move"),
        ("k3", "bad move"),
        ("zz", "bad move"),
        ("k3z5", "file `z`"),
        ("a1k5", "not a cell of the star"),
        ("k3k55", "rank"),
        ("i9i10", "no piece on i9"),
        ("e17e16", "belongs to D, A is to move"),
        ("m1m2", "cannot reach m2"),
        ("k3k3", "cannot reach k3"),
        ("k3k7", "cannot reach k7"),
    ] {
        let err = p.parse_move(text, &cfg()).unwrap_err();
        assert!(err.0.contains(why), "`{text}`: {err}");
    }
    assert_eq!(p.parse_move("k3k5", &cfg()).unwrap().to_string(), "k3k5");
    assert_eq!(p.parse_move(" j4i5 ", &cfg()).unwrap().to_string(), "j4i5");
}

/// Checks that `path` is a real witness of `m` in `p`.
fn check_path(p: &ChineseCheckers, m: Move, path: &[Cell]) {
    if m.is_pass() {
        assert!(path.is_empty());
        return;
    }
    assert!(path.len() >= 2, "{m}");
    assert_eq!(path[0], m.from_cell().unwrap());
    assert_eq!(*path.last().unwrap(), m.to_cell().unwrap());
    let from = path[0];
    let occupied = |c: Cell| c != from && p.side_at(c).is_some();
    if path.len() == 2 && from.neighbours().any(|n| n == path[1]) {
        assert!(!occupied(path[1]));
        return;
    }
    for w in path.windows(2) {
        let (a, b) = coords(&w[0].to_string());
        let (c, d) = coords(&w[1].to_string());
        let (df, dr) = (c - a, d - b);
        assert!(
            DIRS.iter().any(|&(x, y)| (2 * x, 2 * y) == (df, dr)),
            "{m}: {} -> {} is no jump",
            w[0],
            w[1]
        );
        let over: Cell = name(a + df / 2, b + dr / 2).parse().unwrap();
        assert!(occupied(over), "{m}: nothing to jump over on {over}");
        assert!(!occupied(w[1]), "{m}: landing {} is taken", w[1]);
    }
}

#[test]
fn paths_exist_for_every_move_and_are_real_chains() {
    for (fen, gl, nfs) in [
        (START_2, false, false),
        (MID_2, false, false),
        (MID_4, true, false),
        (LATE_2, true, true),
    ] {
        let p = ChineseCheckers::from_fen(fen, &cfg_rules(gl, nfs)).unwrap();
        let all = p.moves_with_paths(None);
        assert_eq!(all.len(), moves(&p).len());
        for mp in &all {
            check_path(&p, mp.mv, &mp.path);
            assert_eq!(p.move_path(mp.mv).as_ref(), Some(&mp.path));
        }
        // Per piece: exactly that piece's moves.
        for c in Cell::all() {
            let own = p.moves_with_paths(Some(c));
            let want = all.iter().filter(|mp| mp.mv.from_cell() == Some(c)).count();
            assert_eq!(own.len(), want, "{c}");
            assert_eq!(
                p.destinations(c).count_ones() as usize,
                want,
                "destinations of {c}"
            );
        }
    }
    let p = pos(START_2);
    let m = p.parse_move("k3k5", &cfg()).unwrap();
    assert_eq!(path_to_string(&p.move_path(m).unwrap()), "k3 k5");
    let m = p.parse_move("j4i5", &cfg()).unwrap();
    assert_eq!(path_to_string(&p.move_path(m).unwrap()), "j4 i5");
    // Not legal: no path.
    assert_eq!(p.move_path(Move::new(cell("k3"), cell("k7"))), None);
    assert_eq!(p.move_path(Move::PASS), None);
}

// ---------------------------------------------------------------- distances

#[test]
fn distance_plain_is_the_step_distance_on_the_star() {
    for a in Cell::all() {
        // Breadth-first search over steps inside the star.
        let mut dist: HashMap<Cell, u32> = HashMap::from([(a, 0)]);
        let mut queue = VecDeque::from([a]);
        while let Some(x) = queue.pop_front() {
            for n in x.neighbours() {
                if !dist.contains_key(&n) {
                    dist.insert(n, dist[&x] + 1);
                    queue.push_back(n);
                }
            }
        }
        for b in Cell::all() {
            assert_eq!(plain_distance(a, b), dist[&b], "{a} {b}");
        }
    }
    assert_eq!(plain_distance(cell("m1"), cell("e17")), 16);
    assert_eq!(plain_distance(cell("m1"), cell("e5")), 8);
    assert_eq!(plain_distance(cell("i9"), cell("i9")), 0);
    let d = Triangle::from_letter('D').unwrap();
    assert_eq!(distance_to_triangle(cell("i9"), d), 5);
    assert_eq!(distance_to_triangle(cell("f15"), d), 0);
    // From rank 1 to rank 14 at least: 13 rows.
    assert_eq!(distance_to_triangle(cell("m1"), d), 13);
}

#[test]
fn distance_pieces_uses_jump_chains_over_the_board() {
    // Lone piece: the pieces distance is the plain distance.
    let p = pos("1/2/3/4/13/12/11/10/4A4/10/11/12/13/4/3/2/1 A A 0");
    for b in Cell::all() {
        assert_eq!(
            p.pieces_distance(cell("i9"), b),
            plain_distance(cell("i9"), b)
        );
    }
    // A ladder of D pieces on i6 i8 i10 i12: from i5 one chain reaches i7 i9 i11 i13.
    let p = pos(LADDER);
    let from = cell("i5");
    assert_eq!(p.side_at(from), Some(0));
    assert_eq!(p.pieces_distance(from, cell("i13")), 1);
    assert_eq!(plain_distance(from, cell("i13")), 8);
    assert_eq!(p.pieces_distance(from, cell("i11")), 1);
    // One step after the chain: h14 (plain 9).
    assert_eq!(plain_distance(from, cell("h14")), 9);
    assert_eq!(p.pieces_distance(from, cell("h14")), 2);
    // i12 holds a piece: a step onto it still counts (the others move on later).
    assert_eq!(p.pieces_distance(from, cell("i12")), 2);
    // e17 is 4 more steps from i13 (h14 g15 f16 e17): 5 moves instead of the plain 12.
    assert_eq!(plain_distance(cell("i13"), cell("e17")), 4);
    assert_eq!(plain_distance(from, cell("e17")), 12);
    assert_eq!(p.pieces_distance(from, cell("e17")), 5);
    // Never more than the plain distance, on a busy board, for every piece.
    for fen in [MID_2, MID_4, LATE_2] {
        let p = pos(fen);
        for a in Cell::all().filter(|&c| p.side_at(c).is_some()) {
            let d = p.pieces_distances(a);
            for b in Cell::all() {
                assert!(u32::from(d[b.index()]) <= plain_distance(a, b));
            }
            // One move reaches exactly the steps and jump destinations (no rules variants).
            for b in Cell::all() {
                if d[b.index()] == 1
                    && p.side_at(b).is_none()
                    && p.side_to_move() == p.side_at(a).unwrap()
                {
                    assert!(p.destinations(a) & b.bit() != 0, "{a} {b}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------- eval, noisy, display

#[test]
fn eval_progress_score_is_symmetric_and_rewards_progress() {
    let p = pos(START_2);
    assert_eq!(p.evaluate(), 0);
    let mut q = p.clone();
    let m = q.parse_move("k3k5", &cfg()).unwrap();
    q.make_move(m);
    // D to move, A advanced: D is behind.
    assert!(q.evaluate() < 0);
    assert_eq!(q.distance_to_target(0) + 2, p.distance_to_target(0));
}

#[test]
fn noisy_moves_are_the_forward_jumps() {
    for fen in [START_2, MID_2, MID_4, LATE_2] {
        let p = pos(fen);
        let mut noisy = <ChineseCheckers as sanqi::game::Rules>::MoveList::default();
        p.generate_noisy(&mut noisy);
        let mut all = <ChineseCheckers as sanqi::game::Rules>::MoveList::default();
        p.generate_moves(&mut all);
        let want: Vec<Move> = all.iter().copied().filter(|&m| p.is_noisy(m)).collect();
        assert_eq!(noisy.as_slice(), want.as_slice(), "{fen}");
        for &m in &noisy {
            assert!(p.noisy_order(m) >= 2);
            assert!(!m
                .from_cell()
                .unwrap()
                .neighbours()
                .any(|n| Some(n) == m.to_cell()));
        }
    }
    // In the start position the six single jumps advance 2 rows: all noisy.
    let p = pos(START_2);
    let mut noisy = <ChineseCheckers as sanqi::game::Rules>::MoveList::default();
    p.generate_noisy(&mut noisy);
    assert_eq!(noisy.len(), 6);
}

#[test]
fn display_draws_the_star_with_fen_and_key() {
    let p = pos(MID_4);
    let d = p.display();
    let lines: Vec<&str> = d.lines().collect();
    assert!(lines[0].trim_start().starts_with("17"));
    assert!(lines[16].trim_start().starts_with('1'));
    assert!(d.contains(&format!("Fen: {MID_4}")));
    assert!(d.contains(&format!("Key: {:016X}", p.hash())));
    // 121 cells drawn: pieces plus dots.
    let drawn: usize = lines[..17]
        .iter()
        .map(|l| {
            l.chars()
                .filter(|c| *c == '.' || c.is_ascii_uppercase())
                .count()
        })
        .sum();
    assert_eq!(drawn, 121);
    // Rank 5 has 13 cells, each row staggered by one column from the next.
    assert_eq!(
        lines[12]
            .chars()
            .filter(|c| *c == '.' || c.is_ascii_uppercase())
            .count(),
        13
    );
}

#[test]
fn outcome_and_trait_basics() {
    let p = pos(START_2);
    assert!(!p.in_check());
    assert_eq!(p.rule_outcome(), None);
    assert_eq!(p.outcome(), None);
    assert_eq!(p.no_moves_outcome(), Outcome::Draw);
    assert_eq!(ChineseCheckers::NAME, "chinesecheckers");
    assert_eq!(p.rules().to_string(), "standard");
    let q = ChineseCheckers::from_fen(START_2, &cfg_rules(true, true)).unwrap();
    assert_eq!(q.rules().to_string(), "goal-lock,no-foreign-stop");
    // The default move (m1 to m1) is never legal and is not the pass.
    assert!(!Move::default().is_pass());
    assert_eq!(Move::default().to_string(), "m1m1");
    assert_eq!(Move::PASS.to_string(), "0000");
}

#[test]
fn paths_as_strings_for_info_lines() {
    let p = pos(LADDER);
    let m = p.parse_move("i5i11", &cfg()).unwrap();
    assert_eq!(p.path_string(m).as_deref(), Some("i5 i7 i9 i11"));
    let m = p.parse_move("i5h6", &cfg()).unwrap();
    assert_eq!(p.path_string(m).as_deref(), Some("i5 h6"));
    assert_eq!(p.path_string(Move::PASS), None);
    let only_pass = pos("1/2/3/4/13/12/11/10/9/10/11/12/13/4/D1D/DD/A AD A 9");
    assert_eq!(only_pass.path_string(Move::PASS).as_deref(), Some(""));
    // Moves of one piece only.
    let own: Vec<String> = p
        .moves_with_paths(Some(cell("i5")))
        .iter()
        .map(|mp| format!("{} {}", mp.mv, path_to_string(&mp.path)))
        .collect();
    assert!(
        own.contains(&"i5i13 i5 i7 i9 i11 i13".to_string()),
        "{own:?}"
    );
    assert!(
        p.moves_with_paths(Some(cell("i6"))).is_empty(),
        "a D piece, A to move"
    );
    assert!(
        p.moves_with_paths(Some(cell("a13"))).is_empty(),
        "an empty cell"
    );
}
