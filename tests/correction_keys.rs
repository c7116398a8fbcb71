//! The keys of correction history (`SearchHints::structure_key`, `SearchHints::piece_keys`) and
//! the no-capture clock (`SearchHints::draw_clock`), checked against positions parsed from FEN:
//! a position reached by moves has the keys of the same position read from its FEN (whatever
//! order its pieces were listed or moved in), a pawn or soldier move leaves the piece keys alone,
//! a piece move changes its own side's key only.

#![allow(clippy::expect_used)]

use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::xiangqi::Xiangqi;
use sanqi::game::{Notation, Rules, SearchHints};

fn play<G: Rules + Notation>(pos: &mut G, moves: &[&str]) {
    for m in moves {
        let mv = pos
            .parse_move(m, &G::Config::default())
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make_move(mv);
    }
}

fn keys<G: SearchHints>(pos: &G) -> (Option<u64>, [u64; 2]) {
    (
        pos.structure_key(),
        pos.piece_keys().expect("the game has piece keys"),
    )
}

/// Which sides' piece keys differ between `a` and `b` (white / red first).
fn changed_sides<G: SearchHints>(a: &G, b: &G) -> [bool; 2] {
    let (ka, kb) = (
        a.piece_keys().expect("the game has piece keys"),
        b.piece_keys().expect("the game has piece keys"),
    );
    [ka[0] != kb[0], ka[1] != kb[1]]
}

/// `moves` from `fen` give the keys of the final position read from its own FEN.
fn check_against_fen<G: SearchHints + Notation>(fen: &str, moves: &[&str]) -> G {
    let config = G::Config::default();
    let mut pos = G::from_fen(fen, &config).expect("valid FEN");
    play(&mut pos, moves);
    let reread = G::from_fen(&pos.to_fen(), &config).expect("its own FEN");
    assert_eq!(keys(&pos), keys(&reread), "{fen} {moves:?}");
    pos
}

#[test]
fn chess_piece_keys_follow_the_pieces_not_the_pawns() {
    let config = ChessConfig::default();
    let start = Chess::from_fen(sanqi::game::chess::STARTPOS, &config).expect("start");
    let [white, black] = start.piece_keys().expect("keys");
    assert_ne!(white, black, "the two sides' keys differ");
    // A transposition: the same position by two move orders, and from its FEN.
    let a = check_against_fen::<Chess>(sanqi::game::chess::STARTPOS, &["g1f3", "g8f6", "b1c3"]);
    let b = check_against_fen::<Chess>(sanqi::game::chess::STARTPOS, &["b1c3", "g8f6", "g1f3"]);
    assert_eq!(keys(&a), keys(&b));
    // A pawn move: the pawn structure changes, the piece keys do not.
    let p = check_against_fen::<Chess>(sanqi::game::chess::STARTPOS, &["e2e4"]);
    assert_eq!(p.piece_keys(), start.piece_keys());
    assert_ne!(p.structure_key(), start.structure_key());
    // A knight move: white's key changes, black's does not, the pawns' neither.
    let n = check_against_fen::<Chess>(sanqi::game::chess::STARTPOS, &["g1f3"]);
    assert_eq!(changed_sides(&start, &n), [true, false]);
    assert_eq!(n.structure_key(), start.structure_key());
    // A capture of a piece changes the captured side's key.
    let fen = "4k3/8/8/3n4/8/4N3/8/4K3 w - - 0 1";
    let before = Chess::from_fen(fen, &config).expect("valid");
    let after = check_against_fen::<Chess>(fen, &["e3d5"]);
    assert_eq!(changed_sides(&before, &after), [true, true]);
}

#[test]
fn xiangqi_piece_keys_do_not_depend_on_the_order_of_the_pieces() {
    // Red's chariots start on a1 and i0 (a1 is listed first); after a1-a0 and i0-i1 the
    // chariot on i1 is listed first: the key is the same as the FEN's.
    let fen = "4k4/9/9/9/9/9/9/9/R8/3K4R w - - 0 1";
    let start = Xiangqi::from_fen(fen, &Default::default()).expect("valid");
    let moved = check_against_fen::<Xiangqi>(fen, &["a1a0", "e9e8", "i0i1", "e8e9"]);
    assert_eq!(changed_sides(&start, &moved), [true, false]);
    // Soldiers are the structure, not pieces.
    let opening = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let start = Xiangqi::from_fen(opening, &Default::default()).expect("valid");
    let soldier = check_against_fen::<Xiangqi>(opening, &["c3c4"]);
    assert_eq!(soldier.piece_keys(), start.piece_keys());
    assert_ne!(soldier.structure_key(), start.structure_key());
    let cannon = check_against_fen::<Xiangqi>(opening, &["h2e2"]);
    assert_eq!(changed_sides(&start, &cannon), [true, false]);
}

#[test]
fn the_draw_clock_is_the_fen_counter_and_the_rule_of_each_game() {
    let chess = Chess::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 37 60", &ChessConfig::default())
        .expect("valid");
    assert_eq!(chess.draw_clock(), Some((37, 100)));
    let mut chess = chess;
    play(&mut chess, &["a1a2", "e8e7"]);
    assert_eq!(chess.draw_clock(), Some((39, 100)));
    let xq = Xiangqi::from_fen("4k4/9/9/9/9/9/9/9/R8/3K4R w - - 11 20", &Default::default())
        .expect("valid");
    assert_eq!(xq.draw_clock(), Some((11, 120)));
}
