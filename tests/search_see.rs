//! Exchange tests (`SearchHints::see_ge`) on hand-checked exchanges. Chess: static exchange evaluation: each case names the sequence of
//! captures and its material result (pawn 100, knight 320, bishop 330, rook 500, queen 900), and
//! the test asks for the exact boundary: the move gains at least the result and not one more.

#![allow(clippy::expect_used)]

use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::prelude::*;
use sanqi::game::xiangqi::Xiangqi;

/// (FEN, move, material result of the best exchange for the mover, the sequence).
const CASES: &[(&str, &str, i32, &str)] = &[
    (
        "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
        "e4d5",
        100,
        "exd5, nothing recaptures",
    ),
    (
        "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1",
        "d2d5",
        -800,
        "Qxd5 cxd5",
    ),
    (
        "4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1",
        "e3d5",
        -220,
        "Nxd5 cxd5",
    ),
    (
        "3rk3/8/8/8/8/8/3R4/3RK3 w - - 0 1",
        "d2d8",
        500,
        "Rxd8+: the king may not take, the rook behind defends",
    ),
    ("3rk3/8/8/8/8/8/3R4/4K3 w - - 0 1", "d2d8", 0, "Rxd8+ Kxd8"),
    (
        "4k3/8/4p3/3n4/4P3/5B2/8/4K3 w - - 0 1",
        "e4d5",
        320,
        "exd5 exd5 Bxd5 (the bishop x-rays through the pawn)",
    ),
    (
        "4k3/8/8/3q4/8/8/3R4/3RK3 b - - 0 1",
        "d5d2",
        -400,
        "Qxd2 Rxd2",
    ),
    (
        "4k3/3r4/8/3r4/8/8/3R4/4K3 w - - 0 1",
        "d2d5",
        0,
        "Rxd5 Rxd5",
    ),
    (
        "4k3/3r4/8/3r4/8/8/3R4/3QK3 w - - 0 1",
        "d2d5",
        500,
        "Rxd5, and black does not retake: Rxd5 Qxd5 would lose a second rook",
    ),
];

/// Each case's move gains exactly its result: at least the result, and not one more.
fn check_exact<G: Game>(cases: &[(&str, &str, i32, &str)]) {
    let config = G::Config::default();
    for &(fen, token, result, line) in cases {
        let pos = G::from_fen(fen, &config).expect("fen");
        let m = pos.parse_move(token, &config).expect("legal move");
        assert!(
            pos.see_ge(m, result),
            "{fen} {token} ({line}) should gain {result}"
        );
        assert!(
            !pos.see_ge(m, result + 1),
            "{fen} {token} ({line}) should not gain {}",
            result + 1
        );
    }
}

#[test]
fn exchanges_gain_exactly_their_material_result() {
    check_exact::<Chess>(CASES);
}

#[test]
fn promotions_castling_and_en_passant_count_as_even() {
    let config = ChessConfig::default();
    for (fen, token) in [
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
    ] {
        let pos = Chess::from_fen(fen, &config).expect("fen");
        let m = pos.parse_move(token, &config).expect("legal move");
        assert!(pos.see_ge(m, 0), "{fen} {token}");
        assert!(!pos.see_ge(m, 1), "{fen} {token}");
    }
}

/// Xiangqi plays the exchange out, least valuable attacker first (horse and cannon 100, chariot
/// 220, soldier, advisor and elephant 20): (FEN, move, result). Each multi-capture result was
/// checked against a full search of the legal captures on the square with pyffish.
const XIANGQI_CASES: &[(&str, &str, i32, &str)] = &[
    (
        "3k5/9/9/9/4n4/9/9/9/4R4/5K3 w - - 0 1",
        "e1e5",
        100,
        "chariot takes a horse nothing defends",
    ),
    (
        "3k5/9/9/4p4/4n4/9/9/9/4R4/5K3 w - - 0 1",
        "e1e5",
        -120,
        "chariot takes a horse the soldier on e6 defends",
    ),
    (
        "3k5/4c4/4b4/9/4n4/9/9/9/4R4/5K3 w - - 0 1",
        "e1e5",
        -120,
        "chariot takes a horse the cannon on e8 defends over the elephant",
    ),
    (
        "3k5/4c4/9/9/4n4/9/9/9/4R4/5K3 w - - 0 1",
        "e1e5",
        100,
        "the cannon on e8 has no screen once the horse is gone",
    ),
    (
        "4k4/9/9/4p4/9/9/4P4/9/9/3KC4 w - - 0 1",
        "e0e6",
        20,
        "the central cannon takes the soldier: the general on e9 reaches only e8 and f9, d9",
    ),
    (
        "4k4/9/4n4/9/9/9/4R4/9/9/3K5 w - - 0 1",
        "e3e7",
        100,
        "a general two steps away does not defend",
    ),
    (
        "4k4/4n4/9/9/9/9/4R4/9/9/3K5 w - - 0 1",
        "e3e8",
        -120,
        "the general defends the point next to it in the palace",
    ),
    (
        "3a1k3/4n4/9/9/9/9/4R4/9/9/3K5 w - - 0 1",
        "e3e8",
        -120,
        "the advisor on d9 defends e8",
    ),
    (
        "3k5/9/4b4/9/6n2/9/9/9/6R2/5K3 w - - 0 1",
        "g1g5",
        -120,
        "the elephant on e7 defends g5 over the empty eye f6",
    ),
    (
        "3k5/9/4b4/5n3/6n2/9/9/9/6R2/5K3 w - - 0 1",
        "g1g5",
        100,
        "the elephant's eye f6 is blocked (by a horse that does not reach g5)",
    ),
    (
        "3k5/9/9/9/2b6/9/4n4/9/4R4/5K3 w - - 0 1",
        "e1e3",
        100,
        "an elephant never crosses the river: c5 does not defend e3",
    ),
    (
        "5k3/9/9/2pn5/9/9/9/9/3R5/4K4 w - - 0 1",
        "d1d6",
        100,
        "a soldier before the river does not move sideways",
    ),
    (
        "5k3/9/9/9/9/2pn5/9/9/3R5/4K4 w - - 0 1",
        "d1d4",
        -120,
        "a soldier across the river defends sideways",
    ),
    (
        "3k5/9/9/4p4/4n4/9/9/9/4R4/4RK3 w - - 0 1",
        "e1e5",
        -100,
        "Rxe5 pxe5 Rxe5: the second chariot wins the soldier back",
    ),
    (
        "3k5/4r4/9/9/9/4p4/9/3N5/9/4RK3 w - - 0 1",
        "d2e4",
        20,
        "the horse takes the soldier; the chariot on e8 does not retake, the chariot on e0 would win it",
    ),
    (
        "5k3/9/9/4p4/4n4/9/4R4/9/4A4/3KC4 w - - 0 1",
        "e3e5",
        -100,
        "Rxe5 pxe5 Cxe5: the chariot leaving e3 opens the cannon's line over the advisor on e1",
    ),
    (
        "5k3/9/9/4p4/4n4/9/4R4/9/9/3KC4 w - - 0 1",
        "e3e5",
        -120,
        "the same without the advisor: the cannon on e0 has no screen",
    ),
    (
        "4k4/4n4/2N6/9/9/9/4R4/9/9/3K5 w - - 0 1",
        "e3e8",
        100,
        "the general may not retake on e8: the horse on c7 guards it",
    ),
    (
        "5k3/9/9/9/9/9/9/9/9/4KA2r b - - 0 1",
        "i0f0",
        20,
        "the red general may not retake on f0: it would face the black general on the open f-file",
    ),
    (
        "3k5/9/9/9/9/9/9/9/9/4KA2r b - - 0 1",
        "i0f0",
        -200,
        "the same with the black general on d9: Rxf0 Kxf0",
    ),
];

#[test]
fn xiangqi_exchanges_gain_exactly_their_material_result() {
    check_exact::<Xiangqi>(XIANGQI_CASES);
}
