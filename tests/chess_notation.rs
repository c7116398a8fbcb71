//! Labelled edge cases of chess FEN and move text: round trips, rejections that name the
//! problem, garbage that never panics. Rules: chess_rules.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::chess::{Chess, ChessConfig, Move, STARTPOS};
use sanqi::game::prelude::*;
use sanqi::game::MoveBuffer;

const STANDARD: ChessConfig = ChessConfig { chess960: false };
const C960: ChessConfig = ChessConfig { chess960: true };

fn pos(fen: &str) -> Chess {
    support::pos(fen)
}

/// The error message for a FEN that must be rejected.
fn fen_error(fen: &str) -> String {
    match Chess::from_fen(fen, &STANDARD) {
        Ok(_) => panic!("FEN accepted but should be rejected: {fen}"),
        Err(e) => e.to_string(),
    }
}

// ---------------------------------------------------------------- FEN

#[test]
fn fen_round_trip() {
    for fen in [
        STARTPOS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ] {
        assert_eq!(pos(fen).to_fen(), fen);
    }
    // Missing clocks default to 0 1.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 w - -").to_fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
}

#[test]
fn fen_rejections_name_the_problem() {
    let cases: &[(&str, &str, &str)] = &[
        ("too few fields", "8/8/8/8/8/8/8/8", "field"),
        (
            "seven ranks",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            "7 ranks",
        ),
        (
            "short rank",
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 7",
        ),
        (
            "long rank",
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 6",
        ),
        (
            "long rank of pieces",
            "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "more than 8",
        ),
        (
            "bad piece letter",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "bad piece letter 'X'",
        ),
        (
            "no black king",
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "no black king",
        ),
        (
            "two white kings",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
            "2 white kings",
        ),
        (
            "pawn on eighth rank",
            "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
            "pawn on h8",
        ),
        (
            "pawn on first rank",
            "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",
            "pawn on a1",
        ),
        (
            "nine pawns",
            "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1",
            "9 pawns",
        ),
        (
            "bad side",
            "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
            "side to move 'x'",
        ),
        (
            "right without rook",
            "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "without a black rook on the king side",
        ),
        (
            "Shredder right without rook",
            "4k3/8/8/8/8/8/8/R3K3 w H - 0 1",
            "without a white rook on h1",
        ),
        (
            "right with king off its rank",
            "4k3/8/8/8/8/8/4K3/R6R w K - 0 1",
            "not on its first rank",
        ),
        (
            "two king-side rights",
            "4k3/8/8/8/8/8/8/R3K1RR w KG - 0 1",
            "two king-side rights",
        ),
        (
            "bad castling letter",
            "4k3/8/8/8/8/8/8/R3K2R w K1 - 0 1",
            "bad castling letter '1'",
        ),
        (
            "en passant not a square",
            "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
            "not a square",
        ),
        ("en passant on wrong rank", STARTPOS_E3, "rank 6"),
        (
            "en passant without pawn",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "no black pawn on e5",
        ),
        (
            "en passant with occupied origin",
            "rnbqkb1r/ppppnppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "must be empty",
        ),
        (
            "side not to move in check",
            "4k3/8/8/8/8/8/8/r3K3 b - - 0 1",
            "side not to move (white) is in check",
        ),
        (
            "bad halfmove clock",
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
            "halfmove clock",
        ),
        (
            "bad fullmove number",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 -3",
            "fullmove number",
        ),
        (
            "too many fields",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 7",
            "at most 6",
        ),
        (
            "triple check",
            "R3k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1",
            "attacked by 3 pieces",
        ),
    ];
    for (label, fen, needle) in cases {
        let e = fen_error(fen);
        assert!(
            e.contains(needle),
            "{label}: error '{e}' does not mention '{needle}'"
        );
    }
}

const STARTPOS_E3: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1";

#[test]
fn fen_garbage_never_panics() {
    // Byte-level mutations of valid FENs: every result is Ok or a named error, never a panic.
    let seeds = [
        STARTPOS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];
    let alphabet = b"pnbrqkPNBRQK12345678/ -wKQkqAHah0e3\xc3\xa9";
    let mut x = 0x1234_5678_9abc_def1u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for i in 0..4000 {
        let mut bytes = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..(1 + next() % 3) {
            let at = (next() as usize) % bytes.len();
            match next() % 3 {
                0 => bytes[at] = alphabet[(next() as usize) % alphabet.len()],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, alphabet[(next() as usize) % alphabet.len()]),
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Ok(p) = Chess::from_fen(&text, &STANDARD) {
            // Whatever is accepted must be playable and write back a FEN we read again.
            let again = Chess::from_fen(&p.to_fen(), &STANDARD).unwrap();
            assert_eq!(again.hash(), p.hash(), "{text}");
            let mut q = p.clone();
            assert_eq!(q.perft(2), p.clone().perft(2));
        }
    }
}

// ---------------------------------------------------------------- move text

#[test]
fn move_text_round_trips() {
    let fens = [
        STARTPOS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "1r4k1/8/8/8/8/8/8/6KR w H - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    for fen in fens {
        for cfg in [STANDARD, C960] {
            let p = Chess::from_fen(fen, &cfg).unwrap();
            let mut list = <Chess as Rules>::MoveList::default();
            p.generate_moves(&mut list);
            for &m in list.moves() {
                let text = p.format_move(m, &cfg);
                assert_eq!(p.parse_move(&text, &cfg).unwrap(), m, "{fen}: {text}");
                assert_eq!(p.parse_move(&text.to_uppercase(), &cfg).unwrap(), m);
            }
        }
    }
}

#[test]
fn bad_move_text_is_an_error() {
    let p = Chess::startpos(&STANDARD);
    for t in [
        "", "e2", "e2e9", "i2i4", "e2e4x", "e2e4qq", "é2e4", "e2e5", "e1g1", "a1a1",
    ] {
        let e = p.parse_move(t, &STANDARD);
        assert!(e.is_err(), "{t:?} accepted");
    }
    let e = p.parse_move("e2e5", &STANDARD).unwrap_err().to_string();
    assert!(e.contains("illegal move 'e2e5'"), "{e}");
}

#[test]
fn null_move_0000_passes() {
    let mut p = Chess::startpos(&STANDARD);
    let m = p.parse_move("0000", &STANDARD).unwrap();
    assert_eq!(m, Move::NULL);
    assert_eq!(p.format_move(m, &STANDARD), "0000");
    let key = p.hash();
    p.make_move(m);
    assert_eq!(
        p.to_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1"
    );
    assert_ne!(p.hash(), key);
    p.undo_move(m);
    assert_eq!(p.to_fen(), STARTPOS);
    assert_eq!(p.hash(), key);
    let checked = pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert!(checked.parse_move("0000", &STANDARD).is_err());
}
