//! The chess evaluation: colour symmetry (a position and its colour flip evaluate the same from
//! the side to move), symmetric positions evaluate to the tempo, insufficient material is 0,
//! parameters change the evaluation at once by the documented amount, `eval_terms` adds up.
//!
//! Parameters are process-wide statics: every test here holds `LOCK` so that a test that
//! changes one never runs beside a test that evaluates.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::chess::{eval::PARAMS, Chess, STARTPOS};
use sanqi::game::prelude::*;
use sanqi::game::Value;
use support::{check_params, legal, param, param_lock as lock, Rng, SetParam};

fn pos(fen: &str) -> Chess {
    support::pos(fen)
}

fn eval(fen: &str) -> Value {
    pos(fen).evaluate()
}

/// The colour flip of a FEN: ranks mirrored, colours swapped, the other side to move.
fn flip_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap).collect())
        .collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let mut c: Vec<char> = f[2].chars().map(swap).collect();
        c.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
        c.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        board.join("/"),
        f[4],
        f[5]
    )
}

#[test]
fn flip_fen_is_an_involution_and_matches_a_known_case() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(flip_fen(&flip_fen(fen)), fen);
    assert_eq!(
        flip_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 3"),
        "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 3"
    );
}

#[test]
fn every_default_is_within_its_range_and_names_are_chess_and_unique() {
    let _g = lock();
    assert!(PARAMS.len() >= 40, "only {} parameters", PARAMS.len());
    check_params(PARAMS, "Chess ");
    for p in PARAMS {
        assert_eq!(p.get(), p.default, "{} is not at its default", p.name);
    }
}

const SYMMETRIC: [&str; 5] = [
    STARTPOS,
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
    "r4rk1/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R4RK1 b - - 0 20",
    "8/2k2p2/8/3p4/3P4/8/2K2P2/8 w - - 0 40",
];

#[test]
fn symmetric_positions_evaluate_to_the_tempo() {
    let _g = lock();
    let tempo = param("Chess Tempo").get();
    for fen in SYMMETRIC {
        assert_eq!(flip_fen(fen).split(' ').next(), fen.split(' ').next());
        assert_eq!(eval(fen), tempo, "{fen}");
    }
    let _t = SetParam::new("Chess Tempo", 37);
    for fen in SYMMETRIC {
        assert_eq!(eval(fen), 37, "{fen}");
    }
}

const ASYMMETRIC: [&str; 8] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/8/3k4/8/2B5/8/3K1P2/5b2 w - - 0 50",
    "6k1/5ppp/8/8/8/8/1R6/6K1 b - - 0 40",
    "4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1",
];

/// eval(flip(p)) == eval(p) along random games from several positions, with the default
/// weights (threats and connected pawns on), with those terms at other values and with them off.
#[test]
fn colour_flipped_positions_evaluate_the_same() {
    let _g = lock();
    colour_flip_check();
    let names = [
        "Chess Threat By Pawn MG",
        "Chess Threat By Pawn EG",
        "Chess Threat By Minor MG",
        "Chess Threat By Minor EG",
        "Chess Threat By Rook MG",
        "Chess Threat By Rook EG",
        "Chess Pawn Phalanx MG",
        "Chess Pawn Phalanx EG",
        "Chess Pawn Supported MG",
        "Chess Pawn Supported EG",
    ];
    for value in [[53, 30, 35, 27, 47, 23, 1, 1, 4, 4], [0; 10]] {
        let _set: Vec<SetParam> = names
            .iter()
            .zip(value)
            .map(|(&n, v)| SetParam::new(n, v))
            .collect();
        colour_flip_check();
    }
}

fn colour_flip_check() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for start in ASYMMETRIC.iter().chain(SYMMETRIC.iter()) {
        for _game in 0..6 {
            let mut p = pos(start);
            for _ply in 0..80 {
                let fen = p.to_fen();
                let flipped = flip_fen(&fen);
                let q = pos(&flipped);
                assert_eq!(q.evaluate(), p.evaluate(), "{fen} vs {flipped}");
                checked += 1;
                let list = legal(&p);
                if list.is_empty() {
                    break;
                }
                let m = list[rng.below(list.len())];
                p.make_move(m);
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn insufficient_material_and_dead_drawn_endings_are_zero() {
    let _g = lock();
    for fen in [
        "8/8/4k3/8/8/8/4K3/8 w - - 0 1",
        "8/8/4k3/8/8/2N5/4K3/8 w - - 0 1",
        "8/8/4k3/8/8/2N5/4K3/8 b - - 0 1",
        "8/8/4k3/8/8/2B5/4K3/8 b - - 0 1",
        "8/8/4kb2/8/8/2B5/4K3/8 w - - 0 1",
        "8/8/4k3/8/8/2NN4/4K3/8 w - - 0 1",
        "8/8/4k3/8/8/2nn4/4K3/8 w - - 0 1",
        "8/8/4kn2/8/8/2B5/4K3/8 w - - 0 1",
        "8/8/4k3/8/8/1p6/1N2K3/8 w - - 0 1",
    ] {
        assert_eq!(eval(fen), 0, "{fen}");
    }
    // Enough material to win is not scored as a draw.
    for fen in [
        "8/8/4k3/8/8/2R5/4K3/8 w - - 0 1",
        "8/8/4k3/8/8/2BN4/4K3/8 w - - 0 1",
        "8/8/4k3/2P5/8/8/4K3/8 w - - 0 1",
    ] {
        assert!(eval(fen) > 100, "{fen}: {}", eval(fen));
    }
}

/// The game phase as documented: knight and bishop 1, rook 2, queen 4, capped at 24.
fn phase(fen: &str) -> i32 {
    let board = fen.split(' ').next().unwrap();
    let p: i32 = board
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            'n' | 'b' => 1,
            'r' => 2,
            'q' => 4,
            _ => 0,
        })
        .sum();
    p.min(24)
}

#[test]
fn bishop_pair_parameters_change_the_evaluation_by_the_tapered_amount() {
    let _g = lock();
    // White has the bishop pair, Black a bishop and a knight: full phase, so only MG counts.
    let full = "rnbqknnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(phase(full), 24);
    let black = full.replace(" w ", " b ");
    let mg = param("Chess Bishop Pair MG");
    let (w0, b0) = (eval(full), eval(&black));
    {
        let _p = SetParam::new("Chess Bishop Pair MG", mg.default + 40);
        assert_eq!(eval(full), w0 + 40);
        assert_eq!(eval(&black), b0 - 40);
    }
    {
        let _p = SetParam::new("Chess Bishop Pair EG", 0);
        assert_eq!(eval(full), w0, "EG has no weight at full phase");
    }
    assert_eq!(eval(full), w0, "reset restores the evaluation");

    // An ending with the pair against bishop and knight, White well ahead: the EG weight
    // counts (24 - phase)/24 of a change that is a multiple of 24.
    let ending = "6k1/pp3ppp/3bn3/8/8/2B2B2/PPP2PPP/6K1 w - - 0 30";
    let ph = phase(ending);
    assert_eq!(ph, 4);
    let eg = param("Chess Bishop Pair EG");
    let before = eval(ending);
    let _p = SetParam::new("Chess Bishop Pair EG", eg.default + 48);
    assert_eq!(eval(ending), before + 48 * (24 - ph) / 24);
}

#[test]
fn material_and_tempo_parameters_change_the_evaluation() {
    let _g = lock();
    // White is a knight up at phase 24 - 1 = 23 (Black's b8 knight is missing).
    let fen = "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let ph = phase(fen);
    let before = eval(fen);
    {
        let _k = SetParam::new("Chess Knight MG", param("Chess Knight MG").default + 48);
        assert_eq!(eval(fen), before + 48 * ph / 24);
    }
    {
        let _k = SetParam::new("Chess Knight EG", param("Chess Knight EG").default + 48);
        assert_eq!(eval(fen), before + 48 * (24 - ph) / 24);
    }
    {
        let _t = SetParam::new("Chess Tempo", param("Chess Tempo").default + 10);
        assert_eq!(eval(fen), before + 10);
    }
    // White (a knight up, so the score stays positive) has a rook on the open e-file; Black's
    // rook stands behind its own d-pawn. Phase 5: a change of 24 in the MG weight is worth 5.
    let rooks = "3r2k1/pppp1ppp/8/8/8/5N2/PPPP1PPP/4R1K1 w - - 0 1";
    let ph = phase(rooks);
    assert_eq!(ph, 5);
    let before = eval(rooks);
    {
        let open = param("Chess Rook Open File MG");
        let _r = SetParam::new("Chess Rook Open File MG", open.default + 24);
        assert_eq!(eval(rooks), before + 24 * ph / 24);
    }
    let semi = param("Chess Rook Semi Open File MG");
    let _s = SetParam::new("Chess Rook Semi Open File MG", semi.default + 24);
    assert_eq!(eval(rooks), before, "no rook on a semi-open file");
}

#[test]
fn passed_pawns_and_pawn_structure_are_seen() {
    let _g = lock();
    // White's d-pawn is passed on the fifth rank; Black has no passer. Raising the rank-5
    // weight raises White's score; the rank-4 weight changes nothing.
    let fen = "4k3/p6p/8/3P4/8/8/P6P/4K3 w - - 0 1";
    assert_eq!(phase(fen), 0);
    let before = eval(fen);
    {
        let r5 = param("Chess Passed Rank5 EG");
        let _p = SetParam::new("Chess Passed Rank5 EG", r5.default + 24);
        assert_eq!(eval(fen), before + 24);
    }
    {
        let r4 = param("Chess Passed Rank4 EG");
        let _p = SetParam::new("Chess Passed Rank4 EG", r4.default + 24);
        assert_eq!(eval(fen), before);
    }
    // Isolated pawns: White a2, d5, h2 against Black a7, h7; one more for White, so 2 more
    // points of isolation penalty cost White 2.
    let iso = param("Chess Isolated Pawn EG");
    let _i = SetParam::new("Chess Isolated Pawn EG", iso.default + 2);
    assert_eq!(eval(fen), before - 2);
}

/// The change of White's score (White to move) and Black's (Black to move) when `name` is
/// raised by `delta`.
fn change(fen: &str, name: &str, delta: i32) -> (Value, Value) {
    let black = fen.replace(" w ", " b ");
    let (w0, b0) = (eval(fen), eval(&black));
    let _p = SetParam::new(name, param(name).default + delta);
    (eval(fen) - w0, eval(&black) - b0)
}

#[test]
fn threats_count_enemy_pieces_attacked_by_lesser_pieces() {
    let _g = lock();
    // White's e4 pawn attacks the knight on d5 (one threat by a pawn); White, a rook up, stays
    // ahead. Phase 3 (knight 1, rook 2): an EG change of 24 is worth 21, an MG change 3.
    let pawn = "4k3/pp6/8/3n4/4P3/8/PPP5/R3K3 w - - 0 1";
    assert_eq!(phase(pawn), 3);
    assert_eq!(change(pawn, "Chess Threat By Pawn EG", 24), (21, -21));
    assert_eq!(change(pawn, "Chess Threat By Pawn MG", 24), (3, -3));
    assert_eq!(change(pawn, "Chess Threat By Minor EG", 24), (0, 0));
    assert_eq!(change(pawn, "Chess Threat By Rook EG", 24), (0, 0));
    // The same with the pawn on e3: nothing attacked.
    let none = pawn.replace("4P3/8/", "8/4P3/");
    assert_eq!(change(&none, "Chess Threat By Pawn EG", 24), (0, 0));

    // White's knight on c3 attacks Black's rook on d5 and queen on b5 (two threats by a minor);
    // White's rook on b1 attacks the queen (one threat by a rook); Black's queen attacks
    // White's rook and knight, but a queen is no lesser piece. White has two extra rooks.
    let minor = "4k3/pp6/8/1q1r4/8/2N5/P1P5/1R2K1RR w - - 0 1";
    let ph = phase(minor);
    assert_eq!(ph, 1 + 2 * 4 + 4);
    let eg = 24 * (24 - ph) / 24;
    assert_eq!(
        change(minor, "Chess Threat By Minor EG", 24),
        (2 * eg, -2 * eg)
    );
    assert_eq!(change(minor, "Chess Threat By Rook EG", 24), (eg, -eg));
    assert_eq!(change(minor, "Chess Threat By Pawn EG", 24), (0, 0));
}

#[test]
fn phalanx_and_supported_pawns_are_counted() {
    let _g = lock();
    // White a2 b2 c2 (three pawns beside an own pawn) against Black a7 b7 (two): one more.
    let phalanx = "4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1";
    assert_eq!(phase(phalanx), 0);
    assert_eq!(change(phalanx, "Chess Pawn Phalanx EG", 24), (24, -24));
    assert_eq!(change(phalanx, "Chess Pawn Supported EG", 24), (0, 0));
    // White a2 b3 c4: b3 and c4 are defended by a pawn, none stands beside another; Black's
    // a7 b7 are a phalanx of two.
    let chain = "4k3/pp6/8/8/2P5/1P6/P7/4K3 w - - 0 1";
    assert_eq!(change(chain, "Chess Pawn Supported EG", 24), (48, -48));
    assert_eq!(change(chain, "Chess Pawn Phalanx EG", 24), (-48, 48));
}

#[test]
fn eval_terms_add_up_to_the_total_which_is_evaluate() {
    let _g = lock();
    for fen in ASYMMETRIC
        .iter()
        .chain(SYMMETRIC.iter())
        .chain(["8/8/4k3/8/8/2NN4/4K3/8 w - - 0 1"].iter())
    {
        let p = pos(fen);
        let terms = p.eval_terms();
        let (last, rest) = terms.split_last().unwrap();
        assert_eq!(last.1, p.evaluate(), "{fen}");
        assert!(last.0.contains("total"));
        let sum: Value = rest.iter().map(|(_, v)| v).sum();
        assert_eq!(sum, last.1, "{fen}: {terms:?}");
        for name in [
            "material",
            "mobility",
            "king safety",
            "passed pawns",
            "threats",
            "tempo",
        ] {
            assert!(terms.iter().any(|(n, _)| n == name), "{name} missing");
        }
    }
}
