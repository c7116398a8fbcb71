//! Chinese-checkers wins found by the search: positions where the side to move can fill its
//! target in one or two of its own moves (2 and 3 players; paranoid and best-reply search).
//! The expected distance comes from a plain brute-force enumeration of the game tree in this
//! file, not from the engine's search; the search must report `Mate(k)` with that `k` and play
//! a move that keeps the forced win.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::sync::Mutex;

mod support;

use sanqi::game::chinese_checkers::cells::cells_of;
use sanqi::game::chinese_checkers::{Cell, CellSet, ChineseCheckers, Triangle};
use sanqi::game::{Game, Outcome};
use sanqi::search::{SearchControl, SearchLimits, SearchOptions, SearchScore, Searcher};
use support::cc_model::rank_text;
use support::legal;

/// The search algorithm option is a shared static: tests that set it hold this.
static ALGORITHM: Mutex<()> = Mutex::new(());

const START_3: &str = "1/2/3/4/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/10/11/12/13/AAAA/AAA/AA/A ACE A 0";

fn cell(name: &str) -> Cell {
    name.parse().expect("cell name")
}

/// The position string of the given pieces (letter, cells), players and side to move.
fn position(pieces: &[(char, CellSet)], players: &str, to_move: char, ply: u32) -> ChineseCheckers {
    let mut ranks = Vec::new();
    for rank in (1..=17u8).rev() {
        let mut row: Vec<Cell> = Cell::all().filter(|c| c.rank() == rank).collect();
        row.sort_by_key(|c| c.file());
        ranks.push(rank_text(row.into_iter().map(|c| {
            pieces
                .iter()
                .find(|(_, set)| set & c.bit() != 0)
                .map(|&(letter, _)| letter)
        })));
    }
    let fen = format!("{} {players} {to_move} {ply}", ranks.join("/"));
    support::pos(&fen)
}

/// Whether `me`, to move, can fill its target within `k` of its own moves whatever the other
/// players do (together).
fn forced_win(pos: &mut ChineseCheckers, me: usize, k: u32) -> bool {
    if k == 0 {
        return false;
    }
    legal(pos).into_iter().any(|m| {
        pos.make_move(m);
        let ok = match pos.outcome() {
            Some(Outcome::Win(w)) => w == me,
            Some(Outcome::Draw) => false,
            None => k > 1 && every_reply_wins(pos, me, k - 1),
        };
        pos.undo_move(m);
        ok
    })
}

/// Whether every sequence of moves of the others, up to `me`'s turn, leaves `me` a forced win
/// within `k` own moves (or fills `me`'s target on the way).
fn every_reply_wins(pos: &mut ChineseCheckers, me: usize, k: u32) -> bool {
    if pos.side_to_move() == me {
        return forced_win(pos, me, k);
    }
    legal(pos).into_iter().all(|m| {
        pos.make_move(m);
        let ok = match pos.outcome() {
            Some(Outcome::Win(w)) => w == me,
            Some(Outcome::Draw) => false,
            None => every_reply_wins(pos, me, k),
        };
        pos.undo_move(m);
        ok
    })
}

/// The fewest own moves to a forced win (up to `max`).
fn win_distance(pos: &ChineseCheckers, max: u32) -> Option<u32> {
    let me = pos.side_to_move();
    let mut p = pos.clone();
    (1..=max).find(|&k| forced_win(&mut p, me, k))
}

/// Side A's pieces: its target (D) filled but for `hole`, and one piece on `straggler`.
fn a_pieces(hole: &str, straggler: &str) -> CellSet {
    let target = Triangle::from_letter('D').unwrap().cells();
    (target & !cell(hole).bit()) | cell(straggler).bit()
}

/// Searches `pos` to `depth` plies and checks the reported distance and the move.
fn check(pos: &ChineseCheckers, want: u32, depth: u32) {
    let fen = pos.to_fen();
    assert_eq!(win_distance(pos, want), Some(want), "brute force on {fen}");
    let mut searcher = Searcher::new(16);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let result = searcher.search(
        pos,
        &limits,
        &SearchOptions::default(),
        None,
        &SearchControl::new(),
        &mut |_| {},
    );
    assert_eq!(result.score, SearchScore::Mate(want as i32), "{fen}");
    let best = result.best.expect("a move");
    assert!(legal(pos).contains(&best), "{fen}");
    let mut p = pos.clone();
    p.make_move(best);
    let me = pos.side_to_move();
    let keeps_win = match p.outcome() {
        Some(Outcome::Win(w)) => w == me,
        Some(Outcome::Draw) => false,
        None => every_reply_wins(&mut p, me, want - 1),
    };
    assert!(keeps_win, "{fen}: {best} does not keep the win in {want}");
}

/// Two players: A fills its target in one move (straggler next to the hole) and in two.
#[test]
fn two_player_wins_in_one_and_two() {
    // D: seven pieces in its target (A's home) and three in the open; it needs three moves.
    let a_home: Vec<Cell> = cells_of(Triangle::from_letter('A').unwrap().cells()).collect();
    let d = a_home[..7].iter().fold(0, |s, c| s | c.bit())
        | cell("i6").bit()
        | cell("k6").bit()
        | cell("m6").bit();
    for (straggler, want) in [("h13", 1), ("h12", 2)] {
        let pos = position(
            &[('A', a_pieces("h14", straggler)), ('D', d)],
            "AD",
            'A',
            150,
        );
        check(&pos, want, 2 * want);
    }
}

/// Three players (C and E still at home): the same wins, with paranoid and best-reply search.
#[test]
fn three_player_wins_in_one_and_two() {
    let _guard = ALGORITHM.lock();
    let start = support::pos::<ChineseCheckers>(START_3);
    let brs =
        sanqi::game::registry::find_param("Search Multiplayer BRS").expect("the option exists");
    for algorithm in [0, 1] {
        brs.set(algorithm).unwrap();
        for (straggler, want) in [("h13", 1), ("h12", 2)] {
            let pos = position(
                &[
                    ('A', a_pieces("h14", straggler)),
                    ('C', start.pieces(1)),
                    ('E', start.pieces(2)),
                ],
                "ACE",
                'A',
                150,
            );
            // Paranoid needs 1 + 3 (k - 1) plies; best-reply search 2k - 1 layers.
            check(&pos, want, 1 + 3 * (want - 1));
        }
    }
    brs.reset();
}
