//! Transcripts for the game-end verdict of `d` (in each of the three games), `go searchmoves` with tokens that
//! are not legal moves of the position (every game), and xiangqi FENs with junk fields (found by
//! fuzzing the protocol).

mod support;

use support::driver::{is_bestmove, Engine, PROMPT};

const XIANGQI_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

/// An engine in UCI mode playing `variant`.
fn engine(variant: &str) -> Engine {
    let mut e = Engine::uci();
    e.send(&format!("setoption name UCI_Variant value {variant}"));
    e
}

/// The lines of `d`, up to the `isready` answer after it.
fn display(e: &mut Engine) -> Vec<String> {
    e.send("d");
    e.send("isready");
    let (_, lines) = e.expect_prefix("readyok", PROMPT);
    lines
}

/// Sets `position` (the rest of a `position` command) and returns the `Outcome:` line of `d`, if any.
fn outcome(e: &mut Engine, position: &str) -> Option<String> {
    e.send(&format!("position {position}"));
    display(e).into_iter().find(|l| l.starts_with("Outcome:"))
}

/// Checks the `Outcome:` line of `d` after each position of `cases` (`None`: the game goes on).
fn check_outcomes(variant: &str, cases: &[(&str, Option<&str>)]) {
    let mut e = engine(variant);
    for &(position, expected) in cases {
        assert_eq!(
            outcome(&mut e, position).as_deref(),
            expected,
            "{variant}: {position}"
        );
    }
}

const CHASE: &str =
    "fen 5k3/9/9/9/n8/9/9/9/9/R2K5 b - - 0 1 moves a5b7 a0b0 b7a5 b0a0 a5b7 a0b0 b7a5";

#[test]
fn d_prints_a_perpetual_chase_as_the_outcome() {
    let repeated = format!("{CHASE} b0a0");
    check_outcomes(
        "xiangqi",
        &[
            (&repeated, Some("Outcome: black wins by perpetual chase")),
            // One ply earlier the game goes on: no outcome line.
            (CHASE, None),
        ],
    );
}

#[test]
fn d_prints_perpetual_check_and_repetition_in_xiangqi() {
    check_outcomes(
        "xiangqi",
        &[
            (
                "fen R3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1 moves e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9",
                Some("Outcome: black wins by perpetual check"),
            ),
            (
                "fen 5k3/9/9/9/c8/9/9/9/9/R2K5 b - - 0 1 moves f9f8 d0d1 f8f9 d1d0 f9f8 d0d1 f8f9 d1d0",
                Some("Outcome: draw by repetition"),
            ),
        ],
    );
}

#[test]
fn d_prints_the_outcome_in_chess() {
    check_outcomes(
        "chess",
        &[
            (
                "startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
                Some("Outcome: draw by threefold repetition"),
            ),
            (
                "startpos moves f2f3 e7e5 g2g4 d8h4",
                Some("Outcome: black wins by checkmate"),
            ),
            ("startpos", None),
        ],
    );
}

#[test]
fn d_prints_the_outcome_in_chinese_checkers() {
    check_outcomes(
        "chinesecheckers",
        &[
            // Player 1 (home A) has filled its target triangle.
            (
                "fen A/AA/AAA/AAAA/13/12/11/10/DDDDD4/DDDDD5/11/12/13/4/3/2/1 AD D 0",
                Some("Outcome: player 1 (home A) wins (target triangle filled)"),
            ),
            ("startpos", None),
        ],
    );
}

/// `go searchmoves <token>` must answer an error line naming searchmoves and search nothing.
fn refuses_searchmoves(e: &mut Engine, token: &str) {
    e.send(&format!("go searchmoves {token} depth 1"));
    e.send("isready");
    let (_, lines) = e.expect_prefix("readyok", PROMPT);
    assert!(
        lines.iter().any(|l| l.starts_with("info string error: ")
            && l.contains("searchmoves")
            && l.contains(token)),
        "{token}: {lines:?}"
    );
    let after = e.drain(std::time::Duration::from_millis(300));
    assert!(
        !lines.iter().chain(&after).any(|l| is_bestmove(l)),
        "{token} searched: {lines:?} {after:?}"
    );
}

#[test]
fn searchmoves_must_name_legal_moves_in_every_game() {
    for (variant, legal) in [
        ("chess", "e2e4"),
        ("xiangqi", "h2e2"),
        ("chinesecheckers", ""),
    ] {
        let mut e = engine(variant);
        e.send("position startpos");
        for token in ["0000", "foo", "a1a1"] {
            refuses_searchmoves(&mut e, token);
        }
        if !legal.is_empty() {
            e.send(&format!("go searchmoves {legal} depth 2"));
            let (best, _) = e.expect_prefix("bestmove", PROMPT);
            assert_eq!(best.split_whitespace().nth(1), Some(legal), "{variant}");
        }
    }
}

#[test]
fn xiangqi_fen_fields_after_the_side_are_checked() {
    let mut e = engine("xiangqi");
    let junk = "-".repeat(5000);
    for (fields, needle) in [
        (junk.as_str(), "castling"),
        ("x - 0 1", "castling"),
        ("- e3 0 1", "en passant"),
        ("- - x 1", "half-move"),
        ("- - 0 y", "move number"),
        ("- - 0 1 z", "unexpected"),
    ] {
        e.send(&format!("position fen {XIANGQI_START} b {fields}"));
        let (err, _) = e.expect_prefix("info string error: ", PROMPT);
        assert!(err.contains(needle), "{fields:.20}: {err}");
        assert!(err.len() < 300, "the error quotes the field clipped: {err}");
    }
    // The full and the short forms are still read; the position is the last good one.
    e.send(&format!("position fen {XIANGQI_START} b - - 0 1"));
    e.send(&format!("position fen {XIANGQI_START} b"));
    let lines = display(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l == &format!("Fen: {XIANGQI_START} b - - 0 1")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:?}"
    );
}
