//! UCCI transcripts (UCCI 3.0 as XiangQi Wizard and ElephantEye use it; ../shared/briefs/protocol.md).

mod support;

use std::time::Duration;
use support::driver::{assert_ids, Engine, PROMPT};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn ucci(e: &mut Engine) -> Vec<String> {
    e.send("ucci");
    let (_, lines) = e.expect_prefix("ucciok", PROMPT);
    lines
}

#[test]
fn ucci_handshake_has_ids_and_options_without_the_name_keyword() {
    let mut e = Engine::start();
    let lines = ucci(&mut e);
    assert_ids(&lines);
    assert!(
        lines.iter().any(|l| l.starts_with("id copyright ")),
        "{lines:?}"
    );
    for name in ["usemillisec", "hashsize", "threads", "ponder", "newgame"] {
        let prefix = format!("option {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "missing {name}: {lines:?}"
        );
    }
    assert!(
        !lines.iter().any(|l| l.starts_with("option name ")),
        "UCCI option lines have no name keyword: {lines:?}"
    );
}

/// The session XiangQi Wizard runs: its own setoption lines (some unknown to us, never errors),
/// a FEN after the last capture with the moves since, a clock in milliseconds, `stop` and `quit`.
#[test]
fn a_xiangqi_wizard_session() {
    let mut e = Engine::start();
    ucci(&mut e);
    for line in [
        "setoption usemillisec true",
        "setoption batch false",
        "setoption debug false",
        "setoption promotion false",
        "setoption hashsize 32",
        "setoption idle none",
        "setoption pruning large",
        "setoption knowledge large",
        "setoption randomness none",
        "setoption style normal",
        "setoption newgame",
    ] {
        e.send(line);
    }
    e.send("isready");
    let (_, before) = e.expect_prefix("readyok", PROMPT);
    assert!(
        before.is_empty(),
        "unknown UCCI options are not errors: {before:?}"
    );
    e.send(&format!("position fen {START} moves h2e2 h9g7"));
    e.send("go time 60000 increment 0 opptime 60000");
    let (best, before) = e.expect_prefix("bestmove", Duration::from_secs(10));
    let infos: Vec<&String> = before.iter().filter(|l| l.contains(" pv ")).collect();
    assert!(!infos.is_empty(), "{before:?}");
    for l in &infos {
        // Bare scores in UCCI, no `cp`.
        assert!(!l.contains(" cp "), "{l}");
        assert!(l.contains(" score "), "{l}");
    }
    let mv = best.split_whitespace().nth(1).unwrap().to_string();
    assert_eq!(mv.len(), 4, "{best}");
    // The move must be legal: list Red's replies after it through perft divide.
    e.send(&format!("position fen {START} moves h2e2 h9g7"));
    let (_, lines) = e.perft(1);
    assert!(
        lines.iter().any(|l| l.starts_with(&format!("{mv}: "))),
        "{mv}: {lines:?}"
    );

    // go depth 0 asks for no move.
    e.send("go depth 0");
    e.expect_prefix("nobestmove", PROMPT);
    // stop while idle is answered with nobestmove in UCCI.
    e.send("stop");
    e.expect_prefix("nobestmove", PROMPT);

    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    e.expect_prefix("readyok", PROMPT);
    e.send("stop");
    e.expect_prefix("bestmove", PROMPT);
    e.send("quit");
    e.expect_prefix("bye", PROMPT);
    assert!(e.wait_exit(PROMPT));
}

/// Sets the start position and gives its 44 moves, from `perft 1`.
fn start_moves(e: &mut Engine) -> Vec<String> {
    e.send("position startpos");
    let (_, lines) = e.perft(1);
    let moves: Vec<String> = lines
        .iter()
        .filter_map(|l| l.split_once(": ").map(|(m, _)| m.to_string()))
        .collect();
    assert_eq!(moves.len(), 44);
    moves
}

#[test]
fn banmoves_are_never_played_and_cleared_by_position() {
    let mut e = Engine::start();
    ucci(&mut e);
    // Ban every move but one: the engine has to play the remaining one.
    let moves = start_moves(&mut e);
    let keep = "b0c2";
    let banned: Vec<&str> = moves
        .iter()
        .map(String::as_str)
        .filter(|m| *m != keep)
        .collect();
    e.send(&format!("banmoves {}", banned.join(" ")));
    e.send("go depth 3");
    let (best, _) = e.expect_prefix("bestmove", Duration::from_secs(10));
    assert_eq!(best.split_whitespace().nth(1), Some(keep), "{best}");
    // A new position clears the ban.
    e.send("position startpos");
    e.send("banmoves h2e2 b2e2");
    e.send("go depth 3");
    let (best, _) = e.expect_prefix("bestmove", Duration::from_secs(10));
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(mv != "h2e2" && mv != "b2e2", "{best}");
}

#[test]
fn banning_every_legal_move_gives_no_move_to_play() {
    let mut e = Engine::start();
    ucci(&mut e);
    let moves = start_moves(&mut e);
    e.send(&format!("banmoves {}", moves.join(" ")));
    e.send("go depth 3");
    let (last, seen) = e.expect("nobestmove or bestmove", Duration::from_secs(10), |l| {
        l == "nobestmove" || l.starts_with("bestmove")
    });
    assert_eq!(last, "nobestmove", "{seen:?}");
    assert!(
        seen.iter()
            .any(|l| l.starts_with("info message no move to play")),
        "{seen:?}"
    );
    // `go infinite` keeps the rule of every infinite search: the answer comes after `stop`.
    e.send("go infinite");
    assert!(e
        .drain(Duration::from_millis(300))
        .iter()
        .all(|l| !l.contains("bestmove")));
    e.send("stop");
    e.expect_prefix("nobestmove", PROMPT);

    // UCI: `searchmoves` with only a banned move answers `bestmove (none)`, with no score (the
    // position is not lost).
    let mut e = Engine::uci();
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    e.send("banmoves b2e2");
    e.send("go depth 3 searchmoves b2e2");
    let (last, seen) = e.expect_prefix("bestmove", Duration::from_secs(10));
    assert_eq!(last, "bestmove (none)", "{seen:?}");
    assert!(seen.iter().all(|l| !l.contains(" score ")), "{seen:?}");
}

#[test]
fn bad_input_gets_info_message_errors_in_ucci() {
    let mut e = Engine::start();
    ucci(&mut e);
    e.send("position fen rnbakabnr/9/1c5c1 w - - 0 1");
    let (err, _) = e.expect_prefix("info message error: ", PROMPT);
    assert!(err.contains("previous position is kept"), "{err}");
    e.send("position startpos moves h2e9");
    e.expect_prefix("info message error: ", PROMPT);
    e.send("flibber");
    e.expect_prefix("info message error: ", PROMPT);
    e.expect_perft(1, 44);
}

#[test]
fn mate_in_one_gets_a_mate_score_and_the_mated_side_gets_nobestmove() {
    let mut e = Engine::start();
    ucci(&mut e);
    // Black's general on d9 cannot step onto the e-file (flying general with e0): a chariot on the
    // d-file mates, one on rank 8 leaves Black without a move (also a loss in xiangqi).
    // Both checked with pyffish: legal_moves after a2d2 / a2a9 (its ranks 1-10) is empty.
    let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let (best, before) = e.expect_prefix("bestmove", Duration::from_secs(10));
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(mv == "a1d1" || mv == "a1a8", "{before:?} {best}");
    let last_score: i32 = before
        .iter()
        .rev()
        .find_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w.iter().position(|x| *x == "score")?;
            w.get(i + 1)?.parse().ok()
        })
        .unwrap();
    assert!(
        last_score > 9000,
        "UCCI mate scores are near 10000: {before:?}"
    );
    e.send(&format!("position fen {fen} moves a1d1"));
    e.send("go depth 3");
    e.expect_prefix("nobestmove", Duration::from_secs(10));
}

#[test]
fn a_draw_offer_is_accepted_only_without_advantage() {
    let mut e = Engine::start();
    ucci(&mut e);
    // Red without its chariots: behind, so Red accepts Black's offer.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w - - 0 1");
    e.send("go draw depth 3");
    let (best, _) = e.expect_prefix("bestmove", Duration::from_secs(10));
    assert!(best.ends_with(" draw"), "{best}");
    // Black without its chariots, Red to move: Red declines.
    e.send("position fen 1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    e.send("go draw depth 3");
    let (best, _) = e.expect_prefix("bestmove", Duration::from_secs(10));
    assert!(!best.contains("draw"), "{best}");
    // The offer belongs to that search only.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w - - 0 1");
    e.send("go depth 3");
    let (best, _) = e.expect_prefix("bestmove", Duration::from_secs(10));
    assert!(!best.contains("draw"), "{best}");
    // ponderhit draw makes the offer while pondering.
    e.send("go ponder depth 3");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ponderhit draw");
    let (best, _) = e.expect_prefix("bestmove", Duration::from_secs(10));
    assert!(best.ends_with(" draw"), "{best}");
}

/// The `wdl W D L` of every `info` line that has a score (None when a scored line lacks one).
fn wdl_of(lines: &[String]) -> Vec<Option<(u32, u32, u32)>> {
    lines
        .iter()
        .filter(|l| l.starts_with("info ") && l.contains(" score "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w.iter().position(|x| *x == "wdl")?;
            let n = |k: usize| w.get(i + k).and_then(|v| v.parse::<u32>().ok());
            Some((n(1)?, n(2)?, n(3)?))
        })
        .collect()
}

/// `setoption showwdl true` in UCCI gives the same `wdl` as `UCI_ShowWDL` in UCI for the same
/// search (one model per game), per mille summing to 1000 on every scored line; a mate is
/// 1000 0 0; off again, no line has it.
#[test]
fn showwdl_in_ucci_matches_uci() {
    let search = |ucci_dialect: bool, fen: &str, show: bool| -> Vec<String> {
        let mut e = Engine::start();
        if ucci_dialect {
            ucci(&mut e);
            e.send(&format!("setoption showwdl {show}"));
        } else {
            e.send("uci");
            e.expect_prefix("uciok", PROMPT);
            e.send("setoption name UCI_Variant value xiangqi");
            e.send(&format!("setoption name UCI_ShowWDL value {show}"));
        }
        e.send(&format!("position fen {fen}"));
        e.send("go depth 6");
        let (_, lines) = e.expect_prefix("bestmove", PROMPT);
        lines
    };
    let ucci_lines = search(true, START, true);
    let uci_lines = search(false, START, true);
    let a = wdl_of(&ucci_lines);
    assert!(
        !a.is_empty() && a.iter().all(Option::is_some),
        "{ucci_lines:?}"
    );
    assert_eq!(a, wdl_of(&uci_lines), "{ucci_lines:?}\n{uci_lines:?}");
    for (w, d, l) in a.into_iter().flatten() {
        assert_eq!(w + d + l, 1000);
    }
    // Red mates in one (the chariot to the back rank): the mate lines say 1000 0 0.
    let mate = "4k4/9/4P4/9/9/9/9/9/9/R3K4 w - - 0 1";
    let lines = search(true, mate, true);
    let last = wdl_of(&lines).pop().flatten();
    assert_eq!(last, Some((1000, 0, 0)), "{lines:?}");
    let off = search(true, START, false);
    assert!(wdl_of(&off).iter().all(Option::is_none), "{off:?}");
}
