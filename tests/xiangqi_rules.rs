//! Labelled edge cases of the xiangqi move rules, FEN and move text. The expected move sets
//! were taken from pyffish (`pyffish.legal_moves("xiangqi", fen, [])`, converted from its
//! ranks 1-10 to ICCS 0-9) and checked by hand against the rules.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::prelude::*;
use sanqi::game::xiangqi::{Xiangqi, XiangqiConfig};
use support::{check_noisy, legal_texts, xiangqi_flip, Rng};

fn pos(fen: &str) -> Xiangqi {
    support::pos(fen)
}

/// All legal moves (ICCS 0-9), sorted, optionally only those starting at `from`.
fn moves(fen: &str, from: &str) -> Vec<String> {
    let mut out = legal_texts(&pos(fen), &XiangqiConfig::default());
    out.retain(|m| m.starts_with(from));
    out
}

fn expect(fen: &str, from: &str, want: &str) {
    let mut want: Vec<String> = want.split_whitespace().map(String::from).collect();
    want.sort();
    assert_eq!(moves(fen, from), want, "{fen} moves from '{from}'");
}

#[test]
fn horse_leg_blocks() {
    // Horse e4 with its own soldier on the leg e5: no jumps to d6 / f6.
    expect(
        "5k3/9/9/9/4P4/4N4/9/9/9/3K5 w - - 0 1",
        "e4",
        "e4c3 e4c5 e4d2 e4f2 e4g3 e4g5",
    );
    // A horse checking through a free leg, and the same check blocked by an chariot on the leg.
    assert!(pos("4k4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1").in_check());
    assert!(!pos("4k4/3r5/3N5/9/9/9/9/9/9/3K5 b - - 0 1").in_check());
    // ...and that chariot is pinned to the leg: it may only take the horse.
    expect(
        "4k4/3r5/3N5/9/9/9/9/9/9/3K5 b - - 0 1",
        "",
        "d8d7 e9d9 e9e8 e9f9",
    );
}

#[test]
fn elephant_eye_blocks() {
    // Elephant e2, horse on the eye d3: c4 is unreachable.
    expect(
        "5k3/9/9/9/9/9/3N5/4B4/9/3K5 w - - 0 1",
        "e2",
        "e2c0 e2g0 e2g4",
    );
}

#[test]
fn elephant_cannot_cross_river() {
    expect("5k3/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "c4", "c4a2 c4e2");
}

#[test]
fn flying_general_pins() {
    // The soldier e5 alone separates the generals: it may only go forward.
    expect("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", "e5", "e5e6");
}

#[test]
fn flying_general_discovered_facing() {
    // d0-e0 would face the general on e9.
    expect("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "", "d0d1");
    // e0-d0 would face the general on d9.
    expect("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "", "e0e1 e0f0");
    // From the palace centre: three of four steps (d1 faces d9).
    expect("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "", "e1e0 e1e2 e1f1");
}

#[test]
fn cannon_screens() {
    // Cannon e3: b3 directly (zero screens) cannot be taken; i3 over the screen g3 and e7 over
    // the screen e6 can; e8 behind two screens cannot.
    expect(
        "3k5/4r4/4n4/4n4/9/9/1p2C1p1r/9/9/4K4 w - - 0 1",
        "e3",
        "e3c3 e3d3 e3e1 e3e2 e3e4 e3e5 e3e7 e3f3 e3i3",
    );
    // A cannon checks over one screen, not over none.
    assert!(pos("4k4/9/9/4P4/4C4/9/9/9/9/3K5 b - - 0 1").in_check());
    assert!(!pos("4k4/9/9/9/4C4/9/9/9/9/3K5 b - - 0 1").in_check());
    // An enemy cannon faces the general with nothing between: no piece may land between
    // (chariot a3-e3, horse c1-e2, advisor d0-e1 would each become its screen).
    expect(
        "4k4/9/9/9/4c4/9/R8/9/2N6/3AK4 w - - 0 1",
        "",
        "a3a0 a3a1 a3a2 a3a4 a3a5 a3a6 a3a7 a3a8 a3a9 a3b3 a3c3 a3d3 a3f3 a3g3 a3h3 a3i3 \
         c1a0 c1a2 c1b3 c1d3 e0e1 e0f0",
    );
    // Moving the only screen away answers a cannon check (every horse move is legal).
    expect(
        "4k4/9/9/9/4c4/9/9/4N4/9/3AK4 w - - 0 1",
        "e2",
        "e2c1 e2c3 e2d4 e2f0 e2f4 e2g1 e2g3",
    );
}

#[test]
fn checks_by_every_piece() {
    let cases = [
        (
            "chariot",
            "4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 1",
            "e9f9",
            vec!["e5"],
        ),
        (
            "horse",
            "4k4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1",
            "e9d9 e9e8 e9f9",
            vec!["d7"],
        ),
        (
            "cannon",
            "4k4/9/9/4P4/4C4/9/9/9/9/3K5 b - - 0 1",
            "e9f9",
            vec!["e5"],
        ),
        (
            "soldier ahead",
            "4k4/4P4/9/9/9/9/9/9/9/3K5 b - - 0 1",
            "e9e8 e9f9",
            vec!["e8"],
        ),
        (
            "soldier beside",
            "3Pk4/9/9/9/9/9/9/9/9/3K5 b - - 0 1",
            "e9e8 e9f9",
            vec!["d9"],
        ),
        (
            "black cannon",
            "4k4/9/9/9/4c4/9/9/4N4/9/3AK4 w - - 0 1",
            "d0e1 e0f0 e2c1 e2c3 e2d4 e2f0 e2f4 e2g1 e2g3",
            vec!["e5"],
        ),
        (
            "black chariot",
            "5k3/9/9/9/9/9/9/9/9/3Kr4 w - - 0 1",
            "d0d1 d0e0",
            vec!["e0"],
        ),
    ];
    for (label, fen, want, checkers) in cases {
        let p = pos(fen);
        assert!(p.in_check(), "{label}: in check");
        let names: Vec<String> = p
            .checkers()
            .into_iter()
            .map(|s| {
                let f = (b'a' + (s & 15) - 3) as char;
                format!("{f}{}", (s >> 4) - 3)
            })
            .collect();
        assert_eq!(names, checkers, "{label}: checkers");
        expect(fen, "", want);
    }
    // A soldier never attacks backwards.
    assert!(!pos("4P4/4k4/9/9/9/9/9/9/9/3K5 b - - 0 1").in_check());
}

#[test]
fn palace_confinement() {
    // General d0: c0 is outside the palace.
    expect("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0", "d0d1");
    // Advisor d0 only to the centre.
    expect("5k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1", "d0", "d0e1");
}

#[test]
fn soldier_sideways_only_after_river() {
    // c3: forward only; c5 (crossed, c6 own piece): sideways; c6: forward and sideways.
    expect(
        "5k3/9/9/2P6/2P6/9/2P6/9/9/3K5 w - - 0 1",
        "c",
        "c3c4 c5b5 c5d5 c6b6 c6c7 c6d6",
    );
    // On the last rank: sideways only, never back.
    expect("2P2k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "c9", "c9b9 c9d9");
}

#[test]
fn noisy_moves_are_the_legal_captures() {
    let fens = [
        "3k5/4r4/4n4/4n4/9/9/1p2C1p1r/9/9/4K4 w - - 0 1",
        "r7r/1c2k4/b3b3n/p1p1C1p2/9/7C1/P3P1P1P/4B4/R1c1A4/1N2KABNR b - - 0 10",
        "rnbaka3/5n2r/8b/pcp1p1pcp/9/9/P1P1P1P1P/1C4C1R/4A4/RNBAK1B2 w - - 10 7",
    ];
    for fen in fens {
        check_noisy(&pos(fen));
    }
    // MVV-LVA: taking the chariot on i3 ranks above taking the horse on e7.
    let p = pos(fens[0]);
    let c = XiangqiConfig::default();
    let take_rook = p.parse_move("e3i3", &c).unwrap();
    let take_horse = p.parse_move("e3e7", &c).unwrap();
    assert!(p.noisy_order(take_rook) > p.noisy_order(take_horse));
}

#[test]
fn fen_aliases_and_round_trip() {
    let p = pos("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1");
    assert_eq!(
        p.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    assert_eq!(
        p.to_fen(),
        Xiangqi::startpos(&XiangqiConfig::default()).to_fen()
    );
    let fen = "r7r/1c2k4/b3b3n/p1p1C1p2/9/7C1/P3P1P1P/4B4/R1c1A4/1N2KABNR b - - 0 10";
    assert_eq!(pos(fen).to_fen(), fen);
    // Move numbers advance after Black's move; the half-move clock counts non-captures.
    let mut p = Xiangqi::startpos(&XiangqiConfig::default());
    let c = XiangqiConfig::default();
    for m in ["h2e2", "h9g7", "e2e6"] {
        let mv = p.parse_move(m, &c).unwrap();
        p.make_move(mv);
    }
    assert_eq!(
        p.to_fen(),
        "rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2"
    );
}

#[test]
fn bad_fens_are_rejected_with_a_reason() {
    let cases = [
        ("", "empty"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w",
            "ranks",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
            "side",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            "side",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            "8 files",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            "longer",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            "bad letter",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            "Red has no general",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w",
            "more than 1",
        ),
        ("3k5/9/9/9/9/9/9/9/9/K8 w", "general on a0"),
        ("3k5/9/9/9/9/9/9/9/3A5/4K4 w", "advisor on d1"),
        ("3k5/9/9/9/9/9/9/9/9/3KA4 w", "advisor on e0"),
        ("3k5/9/9/9/B8/9/9/9/9/4K4 w", "elephant on a5"),
        ("3k5/9/9/9/9/9/9/9/1B7/4K4 w", "elephant on b1"),
        ("3k5/9/9/9/9/9/9/P8/9/4K4 w", "soldier on a2"),
        ("3k5/9/9/9/9/9/1P7/9/9/4K4 w", "soldier on b3"),
        ("3k5/9/9/9/9/P8/P8/9/9/4K4 w", "two Red soldiers"),
        ("3k5/9/9/9/9/9/9/9/9/RRR1K4 w", "more than 2"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "face each other"),
        ("3k5/9/3R5/9/9/9/9/9/9/4K4 w", "Black is in check"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1", "half-move"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 extra", "unexpected"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 é", "unexpected"),
        ("3k5/9/9/9/9/9/9/9/9/4K0 w", "has a 0"),
    ];
    for (fen, fragment) in cases {
        match Xiangqi::from_fen(fen, &XiangqiConfig::default()) {
            Ok(_) => panic!("accepted bad FEN '{fen}'"),
            Err(e) => assert!(
                e.0.contains(fragment),
                "'{fen}': error '{e}' should mention '{fragment}'"
            ),
        }
    }
}

#[test]
fn move_text_conventions() {
    let zero = XiangqiConfig::default();
    let one = XiangqiConfig {
        ranks_from_one: true,
    };
    let p = Xiangqi::startpos(&zero);
    let m = p.parse_move("h2e2", &zero).unwrap();
    assert_eq!(p.format_move(m, &zero), "h2e2");
    assert_eq!(p.format_move(m, &one), "h3e3");
    assert_eq!(p.parse_move("h3e3", &one).unwrap(), m);
    assert_eq!(p.parse_move("H2E2", &zero).unwrap(), m);
    // Rank 10 in the 1-10 convention.
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    let a = black.parse_move("a10a9", &one).unwrap();
    assert_eq!(black.format_move(a, &one), "a10a9");
    assert_eq!(black.format_move(a, &zero), "a9a8");

    let err = |p: &Xiangqi, t: &str, c: &XiangqiConfig| p.parse_move(t, c).unwrap_err().0;
    for bad in [
        "", "h2", "h2e", "j2e2", "h2e2x", "hh", "0000", "h-1e2", "h10e2", "é2e2",
    ] {
        assert!(err(&p, bad, &zero).contains("malformed"), "{bad}");
    }
    assert!(err(&p, "a11a10", &one).contains("malformed"));
    assert!(err(&p, "a0a0", &one).contains("malformed"));
    assert!(err(&p, "h2h8", &zero).contains("illegal"));
    assert!(err(&p, "e4e5", &zero).contains("no piece"));
    assert!(err(&p, "a6a5", &zero).contains("not the side to move"));
    assert!(err(&p, "e0e2", &zero).contains("illegal"));
}

#[test]
fn null_move_permission() {
    let start = Xiangqi::startpos(&XiangqiConfig::default());
    assert!(start.can_null_move());
    // In check: never.
    assert!(!pos("4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 1").can_null_move());
    // Only general and defenders: never (zugzwang is real here).
    assert!(!pos("3akab2/9/9/9/9/9/9/9/R8/3K5 b - - 0 1").can_null_move());
    let mut p = start.clone();
    let key = p.hash();
    p.make_null_move();
    assert_eq!(p.side_to_move(), 1);
    assert_ne!(p.hash(), key);
    p.undo_null_move();
    assert_eq!(p.hash(), key);
    assert_eq!(p.to_fen(), start.to_fen());
}

/// The same position with colours swapped and the board turned upside down.
fn mirror(fen: &str) -> String {
    xiangqi_flip(fen)
}

#[test]
fn evaluation_is_symmetric() {
    let fens = [
        "r7r/1c2k4/b3b3n/p1p1C1p2/9/7C1/P3P1P1P/4B4/R1c1A4/1N2KABNR b - - 0 10",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbaka3/5n2r/8b/pcp1p1pcp/9/9/P1P1P1P1P/1C4C1R/4A4/RNBAK1B2 w - - 10 7",
    ];
    for a in fens {
        let b = mirror(a);
        assert_eq!(pos(a).evaluate(), pos(&b).evaluate(), "{a} / {b}");
    }
    // A side up a chariot is ahead.
    assert!(pos("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").evaluate() > 100);
    assert!(pos("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1").evaluate() < -100);
}

#[test]
fn display_shows_board_fen_key_and_checkers() {
    let p = pos("4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 1");
    let d = p.display();
    assert!(
        d.contains("Fen: 4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 1"),
        "{d}"
    );
    assert!(d.contains(&format!("Key: {:016X}", p.hash())), "{d}");
    assert!(d.contains("Checkers: e5"), "{d}");
    assert!(d.contains(" 5 | . . . . R . . . . |"), "{d}");
}

#[test]
fn garbage_input_never_panics() {
    // Deterministic mutations of valid FENs and move tokens: every result is a value, and
    // every accepted FEN writes a FEN that reads back to the same position.
    let seeds = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r7r/1c2k4/b3b3n/p1p1C1p2/9/7C1/P3P1P1P/4B4/R1c1A4/1N2KABNR b - - 0 10",
        "2ba1a3/4k4/9/9/2b6/9/3c5/5AN2/3K5/3A2B2 b - - 5 27",
    ];
    let alphabet: Vec<char> = "rnbakcpRNBAKCPEHeh0123456789/ -wbx\u{e9}".chars().collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let config = XiangqiConfig::default();
    let mut accepted = 0;
    for i in 0..20_000 {
        let mut chars: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(chars.len());
            match rng.below(3) {
                0 => chars[at] = alphabet[rng.below(alphabet.len())],
                1 => {
                    chars.remove(at);
                }
                _ => chars.insert(at, alphabet[rng.below(alphabet.len())]),
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(p) = Xiangqi::from_fen(&text, &config) {
            accepted += 1;
            let again = Xiangqi::from_fen(&p.to_fen(), &config).unwrap();
            assert_eq!(again.hash(), p.hash(), "{text}");
            let token: String = text
                .chars()
                .filter(|c| !c.is_whitespace())
                .take(5)
                .collect();
            let _ = p.parse_move(&token, &config);
        }
    }
    assert!(accepted > 100, "only {accepted} mutated FENs were valid");
}
