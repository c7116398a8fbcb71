//! Labelled edge cases of the chess move rules and game-end rules (castling, en passant,
//! promotions, pins, repetition, keys). Expected moves follow the FIDE laws (and were confirmed
//! with python-chess, see chess_oracle.rs). FEN and move text: chess_notation.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::chess::attacks::{sliders, slow_bishop, slow_rook, verify_magics};
use sanqi::game::chess::{Chess, ChessConfig, Move, STARTPOS};
use sanqi::game::prelude::*;
use sanqi::game::Outcome;
use support::{check_noisy, legal_texts, parse};

fn standard() -> ChessConfig {
    ChessConfig::default()
}

fn c960() -> ChessConfig {
    ChessConfig { chess960: true }
}

fn pos(fen: &str) -> Chess {
    support::pos(fen)
}

fn pos960(fen: &str) -> Chess {
    support::pos_with(fen, &c960())
}

fn moves(p: &Chess, cfg: &ChessConfig) -> Vec<String> {
    legal_texts(p, cfg)
}

fn has(p: &Chess, cfg: &ChessConfig, text: &str) -> bool {
    moves(p, cfg).iter().any(|m| m == text)
}

fn play(p: &mut Chess, cfg: &ChessConfig, text: &str) -> Move {
    let m = parse(p, text, cfg);
    p.make_move(m);
    m
}

// ---------------------------------------------------------------- castling

#[test]
fn castling_through_attacked_square_is_illegal() {
    // The rook on f2 covers f1: O-O crosses it, O-O-O does not.
    let p = pos("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    assert!(!has(&p, &standard(), "e1g1"));
    assert!(has(&p, &standard(), "e1c1"));
}

#[test]
fn castling_queen_side_with_b1_attacked_is_legal() {
    // Only the rook passes b1; the king crosses d1 and c1.
    let p = pos("4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1");
    assert!(has(&p, &standard(), "e1c1"));
    assert!(has(&p, &standard(), "e1g1"));
}

#[test]
fn castling_into_check_is_illegal() {
    let p = pos("4k3/8/8/8/8/8/2r5/R3K2R w KQ - 0 1");
    assert!(!has(&p, &standard(), "e1c1"));
    assert!(has(&p, &standard(), "e1g1"));
}

#[test]
fn castling_out_of_check_is_illegal() {
    let p = pos("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    assert!(p.in_check());
    assert!(!has(&p, &standard(), "e1c1"));
    assert!(!has(&p, &standard(), "e1g1"));
}

#[test]
fn castling_needs_empty_path_and_rights() {
    let p = pos("4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1");
    assert!(!has(&p, &standard(), "e1c1"));
    assert!(!has(&p, &standard(), "e1g1"));
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert!(!has(&p, &standard(), "e1c1") && !has(&p, &standard(), "e1g1"));
}

#[test]
fn castling_rights_are_lost_by_king_and_rook_moves_and_rook_capture() {
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut p, &standard(), "h1h8"); // takes the h8 rook: White loses K, Black loses k
    assert_eq!(p.to_fen(), "r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 1");
    // In check from h8, the king cannot go to d8 (still on the rook's rank).
    assert!(p.parse_move("e8d8", &standard()).is_err());
    play(&mut p, &standard(), "e8e7");
    assert_eq!(p.to_fen(), "r6R/4k3/8/8/8/8/8/R3K3 w Q - 1 2");
}

#[test]
fn castling_moves_king_and_rook_standard() {
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let m = play(&mut p, &standard(), "e1g1");
    assert_eq!(p.to_fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    p.undo_move(m);
    play(&mut p, &standard(), "e1c1");
    assert_eq!(p.to_fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    // O-O-O would cross d8, attacked by the rook on d1.
    assert!(p.parse_move("e8c8", &standard()).is_err());
    play(&mut p, &standard(), "e8h8"); // king-takes-rook form accepted in standard mode too
    assert_eq!(p.to_fen(), "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2");
}

#[test]
fn chess960_king_already_on_destination() {
    // King g1, rook h1: castling H only moves the rook to f1.
    let mut p = pos960("1r4k1/8/8/8/8/8/8/6KR w H - 0 1");
    assert!(has(&p, &c960(), "g1h1"));
    play(&mut p, &c960(), "g1h1");
    assert_eq!(p.to_fen(), "1r4k1/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn chess960_rook_already_on_destination() {
    // King f1, queen-side rook d1: the king goes to c1 and the rook stays on d1.
    let mut p = pos960("6k1/8/8/8/8/8/8/3R1K2 w D - 0 1");
    assert!(has(&p, &c960(), "f1d1"));
    play(&mut p, &c960(), "f1d1");
    assert_eq!(p.to_fen(), "6k1/8/8/8/8/8/8/2KR4 b - - 1 1");
}

#[test]
fn chess960_castling_rook_shields_the_destination() {
    // King f1, castling rook b1, enemy rook a1: after O-O-O the king on c1 would be in check.
    let p = pos960("6k1/8/8/8/8/8/8/rR3K2 w B - 0 1");
    assert!(!p.in_check());
    assert!(!has(&p, &c960(), "f1b1"));
}

#[test]
fn chess960_castling_text_and_fen_letters() {
    let p = pos960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(
        p.to_fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    );
    // Read in standard mode, the same position writes X-FEN letters (both rooks outermost).
    let q = pos("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(
        q.to_fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    );
    // A right to an inner rook keeps its file letter in X-FEN.
    let inner = pos("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    assert_eq!(inner.to_fen(), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1").to_fen(),
        "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1"
    );
    // X-FEN input names the outermost rook.
    let r = pos960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    assert_eq!(r.hash(), p.hash());
    // Standard start position in Chess960 mode: Shredder letters, castling as king takes rook.
    let mut s = Chess::startpos(&c960());
    assert!(s.to_fen().contains(" HAha "));
    for t in ["g1f3", "g8f6", "e2e3", "e7e6", "f1e2", "f8e7"] {
        play(&mut s, &c960(), t);
    }
    assert!(has(&s, &c960(), "e1h1"));
    assert!(!has(&s, &c960(), "e1g1"));
    assert!(has(&s, &standard(), "e1g1"));
    // Both forms are read in both modes.
    for cfg in [standard(), c960()] {
        for t in ["e1g1", "e1h1"] {
            let m = s.parse_move(t, &cfg).unwrap();
            assert_eq!(s.format_move(m, &c960()), "e1h1");
        }
    }
}

// ---------------------------------------------------------------- en passant

#[test]
fn en_passant_exposing_king_on_rank_is_illegal() {
    // bxc6 e.p. would take both pawns off the fifth rank and open it to the rook on h5.
    let p = pos("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    assert!(!has(&p, &standard(), "b5c6"));
    assert!(p.parse_move("b5c6", &standard()).is_err());
    // Without the rook the same capture is legal and removes the c5 pawn.
    let mut p = pos("8/8/8/1Pp5/8/8/8/K6k w - c6 0 1");
    play(&mut p, &standard(), "b5c6");
    assert_eq!(p.to_fen(), "8/8/2P5/8/8/8/8/K6k b - - 0 1");
}

#[test]
fn en_passant_diagonal_pin_and_check_evasion() {
    // The capturing pawn is pinned on the diagonal b3-g8... it may not take.
    let p = pos("6k1/8/8/3pP3/8/8/8/K5b1 w - d6 0 1");
    let diag_pinned = pos("7k/8/8/3pP3/8/1K6/8/8 w - d6 0 1");
    assert!(has(&diag_pinned, &standard(), "e5d6"));
    assert!(has(&p, &standard(), "e5d6"));
    // Checked by the pawn that just advanced two squares: e.p. removes the checker.
    let p = pos("8/8/8/2k5/3pP3/8/8/4K3 b - e3 0 1");
    assert!(!p.in_check());
    let p = pos("8/8/8/8/2k1pP2/8/8/4K3 w - - 0 1");
    assert!(!p.in_check());
    let mut q = pos("8/8/8/8/4p3/8/3P4/4K2k w - - 0 1");
    play(&mut q, &standard(), "d2d4");
    assert_eq!(q.to_fen(), "8/8/8/8/3Pp3/8/8/4K2k b - d3 0 1");
    let checked = pos("8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(checked.in_check());
    assert!(has(&checked, &standard(), "e4d3"));
}

#[test]
fn en_passant_square_only_kept_when_a_pawn_can_take() {
    let mut p = Chess::startpos(&standard());
    play(&mut p, &standard(), "e2e4");
    assert_eq!(
        p.to_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let q = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(p.hash(), q.hash());
}

// ---------------------------------------------------------------- promotions

#[test]
fn promotions_with_and_without_capture() {
    let p = pos("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let all = moves(&p, &standard());
    for t in [
        "b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7a8q", "b7a8r", "b7a8b", "b7a8n",
    ] {
        assert!(all.iter().any(|m| m == t), "{t} missing");
    }
    assert!(!all.iter().any(|m| m == "b7b8"));
    let mut q = p.clone();
    let m = play(&mut q, &standard(), "b7a8N");
    assert!(p.is_noisy(m));
    assert_eq!(q.to_fen(), "N3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    q.undo_move(m);
    assert_eq!(q.to_fen(), p.to_fen());
    assert_eq!(q.hash(), p.hash());
    let e = p.parse_move("b7b8", &standard()).unwrap_err().to_string();
    assert!(e.contains("promotion"), "{e}");
    let e = p.parse_move("b7b8k", &standard()).unwrap_err().to_string();
    assert!(e.contains("promotion"), "{e}");
}

#[test]
fn black_promotion_and_underpromotion_counts() {
    // Each of the four pieces on the quiet push and on the capture.
    let p = pos("4k3/8/8/8/8/8/6p1/4K2R b - - 0 1");
    let promos: Vec<String> = moves(&p, &standard())
        .into_iter()
        .filter(|m| m.len() == 5)
        .collect();
    assert_eq!(promos.len(), 8, "{promos:?}");
}

// ---------------------------------------------------------------- pins and checks

#[test]
fn pinned_pieces_and_double_check() {
    // The knight on e2 is pinned by the rook on e8: it has no move.
    let p = pos("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
    assert!(!moves(&p, &standard()).iter().any(|m| m.starts_with("e2")));
    // A pinned rook may slide along the pin line, capturing the pinner.
    let p = pos("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1");
    let rook: Vec<String> = moves(&p, &standard())
        .into_iter()
        .filter(|m| m.starts_with("e2"))
        .collect();
    assert_eq!(rook, ["e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8"]);
    // Double check (rook e8 and knight d3): only king moves.
    let p = pos("4r1k1/8/8/8/8/3n4/8/R3K3 w Q - 0 1");
    assert!(p.in_check());
    assert!(moves(&p, &standard()).iter().all(|m| m.starts_with("e1")));
}

// ---------------------------------------------------------------- game end

#[test]
fn threefold_repetition() {
    let mut p = Chess::startpos(&standard());
    let dance = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for t in dance {
        play(&mut p, &standard(), t);
    }
    assert_eq!(p.repetitions(), 1);
    assert_eq!(p.rule_outcome(), None, "twofold is not a draw");
    for t in dance {
        play(&mut p, &standard(), t);
    }
    assert_eq!(p.repetitions(), 2);
    assert_eq!(p.rule_outcome(), Some(Outcome::Draw));
    // A pawn move resets: the earlier positions can never come back.
    play(&mut p, &standard(), "e2e4");
    assert_eq!(p.rule_outcome(), None);
}

#[test]
fn repetition_needs_same_side_to_move() {
    // The knights return but the side to move differs (a rook move wasted a tempo).
    let mut p = pos("4k3/8/8/8/8/8/8/R3K2N w - - 0 1");
    for t in [
        "a1a2", "e8d8", "a2a1", "d8e8", "a1a2", "e8d8", "a2a1", "d8e8",
    ] {
        play(&mut p, &standard(), t);
    }
    assert_eq!(p.rule_outcome(), Some(Outcome::Draw));
}

#[test]
fn fifty_move_rule() {
    let mut p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_eq!(p.rule_outcome(), None);
    play(&mut p, &standard(), "a1a2");
    assert_eq!(p.halfmove_clock(), 100);
    assert_eq!(p.rule_outcome(), Some(Outcome::Draw));
    // Check but not mate at 100 plies: still a draw.
    let p = pos("4k3/8/8/8/8/8/8/4R1K1 b - - 100 80");
    assert!(p.in_check());
    assert_eq!(p.rule_outcome(), Some(Outcome::Draw));
    // Mate on the 100th ply: the mate counts, not the 50-move rule.
    let p = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80");
    assert_eq!(p.rule_outcome(), None);
    assert_eq!(p.outcome(), Some(Outcome::Win(0)));
    // A capture resets the clock.
    let mut p = pos("4k3/8/8/8/8/8/r7/R3K3 w - - 99 80");
    play(&mut p, &standard(), "a1a2");
    assert_eq!(p.halfmove_clock(), 0);
}

#[test]
fn insufficient_material() {
    let draws = [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/1N2K3 w - - 0 1",
        "5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", // both bishops on dark squares
        "5b2/8/8/4k1b1/8/8/8/2B1K3 w - - 0 1",
    ];
    for fen in draws {
        let p = pos(fen);
        assert!(p.insufficient_material(), "{fen}");
        assert_eq!(p.rule_outcome(), Some(Outcome::Draw), "{fen}");
    }
    let playable = [
        "2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", // opposite colours
        "8/8/8/4k3/8/8/8/1NN1K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/1n2K1B1 w - - 0 1",
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/3RK3 w - - 0 1",
    ];
    for fen in playable {
        assert!(!pos(fen).insufficient_material(), "{fen}");
    }
}

#[test]
fn mate_and_stalemate_outcomes() {
    let mut p = Chess::startpos(&standard());
    for t in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        play(&mut p, &standard(), t);
    }
    assert!(p.in_check());
    assert_eq!(p.outcome(), Some(Outcome::Win(1)));
    assert_eq!(p.no_moves_outcome(), Outcome::Win(1));
    let s = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!s.in_check());
    assert_eq!(s.outcome(), Some(Outcome::Draw));
}

// ---------------------------------------------------------------- keys, noisy moves, eval

#[test]
fn zobrist_keys_follow_transpositions() {
    let mut a = Chess::startpos(&standard());
    let mut b = Chess::startpos(&standard());
    for t in ["g1f3", "b8c6", "b1c3"] {
        play(&mut a, &standard(), t);
    }
    for t in ["b1c3", "b8c6", "g1f3"] {
        play(&mut b, &standard(), t);
    }
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.hash(), a.compute_hash());
    assert_eq!(a.hash(), pos(&a.to_fen()).hash());
    assert_ne!(a.hash(), Chess::startpos(&standard()).hash());
    let d = a.display();
    assert!(d.contains("Fen: r1bqkbnr/pppppppp/2n5/8/8/2N2N2/PPPPPPPP/R1BQKB1R b KQkq - 3 2"));
    assert!(d.contains(&format!("Key: {:016X}", a.hash())));
    let c = pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").display();
    assert!(c.contains("Checkers: e2"), "{c}");
}

#[test]
fn noisy_moves_are_the_captures_and_promotions() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4r1k1/8/8/8/8/3n4/8/R3K3 w Q - 0 1",
    ] {
        check_noisy(&pos(fen));
    }
    // MVV-LVA: pawn takes queen before queen takes pawn.
    let p = pos("4k3/8/8/3q4/4P3/8/8/Q3K3 w - - 0 1");
    let pxq = p.parse_move("e4d5", &standard()).unwrap();
    let qxq = p.parse_move("a1d4", &standard()).unwrap();
    assert!(!p.is_noisy(qxq));
    let p2 = pos("4k3/8/8/3q4/4P3/8/p7/Q3K3 w - - 0 1");
    let qxp = p2.parse_move("a1a2", &standard()).unwrap();
    assert!(p.noisy_order(pxq) > p2.noisy_order(qxp));
}

#[test]
fn null_move_permission() {
    assert!(Chess::startpos(&standard()).can_null_move());
    assert!(!pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").can_null_move());
    assert!(!pos("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1").can_null_move());
}

#[test]
fn evaluation_is_symmetric() {
    // The hand-written evaluation (the guard turns the network off): the side to move gets the
    // tempo bonus (see tests/chess_eval.rs for the full checks).
    let _g = support::param_lock();
    let tempo = support::param("Chess Tempo").get();
    assert_eq!(Chess::startpos(&standard()).evaluate(), tempo);
    let w = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    // The same position with colours swapped and Black to move.
    let b = pos("r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1");
    assert_eq!(w.evaluate(), b.evaluate());
    // Being a queen up is good for the side to move and bad for the other.
    let up = pos("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    assert!(up.evaluate() > 800);
    let down = pos("4k3/8/8/8/8/8/8/Q3K3 b - - 0 1");
    assert_eq!(down.evaluate(), -up.evaluate() + 2 * tempo);
}

#[test]
fn magic_attacks_match_the_slow_reference() {
    assert!(verify_magics(), "a magic index collides");
    let s = sliders();
    let mut x = 0xDEAD_BEEF_CAFE_F00Du64;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let occ = x & (x >> 11) & (x << 5);
        let sq = (x % 64) as usize;
        assert_eq!(s.rook(sq, occ), slow_rook(sq, occ));
        assert_eq!(s.bishop(sq, occ), slow_bishop(sq, occ));
    }
}

#[test]
fn game_history_survives_many_moves() {
    // Make and undo a long line; everything returns exactly.
    let mut p = Chess::startpos(&standard());
    let start_key = p.hash();
    let mut played = Vec::new();
    for _ in 0..120 {
        let mut list = <Chess as Rules>::MoveList::default();
        p.generate_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let m = list[played.len() * 7 % list.len()];
        p.make_move(m);
        played.push(m);
    }
    while let Some(m) = played.pop() {
        p.undo_move(m);
    }
    assert_eq!(p.hash(), start_key);
    assert_eq!(p.to_fen(), STARTPOS);
}

#[test]
fn position_is_small() {
    // `AnyGame` holds one position by value; keep it within clippy's 200-byte variant limit
    // (192 bytes before the network's boxed accumulator stack, 200 with it).
    assert!(
        std::mem::size_of::<Chess>() <= 200,
        "{}",
        std::mem::size_of::<Chess>()
    );
}
