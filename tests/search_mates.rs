//! Mate-in-N positions for chess and xiangqi: the mate distance must equal the one Stockfish
//! (chess) or Fairy-Stockfish (xiangqi) reports, asked at test time when the program is installed
//! (required under CI), and the principal variation must really mate.

#![allow(clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

mod support;

use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::prelude::*;
use sanqi::game::xiangqi::Xiangqi;
use sanqi::search::{SearchLimits, SearchScore, Searcher};
use support::{iterations, legal, oracle_missing, search_default};

const STOCKFISH: &str = "/usr/games/stockfish";
const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

/// Positions with a forced mate for one side (puzzles), plus a stalemate.
const CHESS_POSITIONS: [&str; 8] = [
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
    "k7/8/1K6/8/8/8/8/7R b - - 0 1",
    "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
    "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
    "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1",
    "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1",
    "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1",
];

/// Positions with a forced mate for Red (a rook pair, a rook and a cannon).
const XIANGQI_POSITIONS: [&str; 5] = [
    "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/R8/3K1R3 w - - 0 1",
    "4k4/9/1R7/9/9/9/9/9/R8/3K5 w - - 0 1",
    "3k5/4a4/9/9/9/9/9/4C4/4R4/4K4 w - - 0 1",
    "4ka3/9/4b4/9/9/9/9/9/1R7/3K1R3 w - - 0 1",
];

/// The oracle's last score for each position at `depth` (`Mate(n)`, or `Cp(0)` for a position
/// without a legal move), or `None` when the program is not installed. `setup` follows `uci`.
fn oracle_scores(
    program: &str,
    setup: &str,
    depth: u32,
    fens: &[&str],
) -> Option<Vec<SearchScore>> {
    let mut child = Command::new(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut input = child.stdin.take()?;
    let mut output = BufReader::new(child.stdout.take()?);
    writeln!(input, "uci{setup}").ok()?;
    let mut scores = Vec::new();
    for fen in fens {
        writeln!(input, "position fen {fen}\ngo depth {depth}").ok()?;
        input.flush().ok()?;
        let mut last = None;
        loop {
            let mut line = String::new();
            if output.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if let Some(i) = tokens.iter().position(|&t| t == "score") {
                let value: i32 = tokens.get(i + 2)?.parse().ok()?;
                last = Some(match *tokens.get(i + 1)? {
                    "mate" => SearchScore::Mate(value),
                    _ => SearchScore::Cp(value),
                });
            }
            if line.starts_with("bestmove") {
                break;
            }
        }
        scores.push(last?);
    }
    writeln!(input, "quit").ok()?;
    let _ = child.wait();
    Some(scores)
}

/// Searches each position to the oracle's mate distance and checks score and mating line.
/// `mate_needs_check`: chess mates are checks; in xiangqi a stalemate loses too.
fn check_mates<G: Game>(fens: &[&str], expected: Vec<SearchScore>, mate_needs_check: bool) {
    let config = G::Config::default();
    let mut searcher = Searcher::new(16);
    for (fen, want) in fens.iter().zip(expected) {
        let pos = G::from_fen(fen, &config).expect("valid FEN");
        let depth = match want {
            SearchScore::Mate(n) => 2 * n.unsigned_abs() + 2,
            SearchScore::Cp(_) => 4,
        };
        searcher.clear();
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let (result, events) = search_default(&mut searcher, &pos, &limits);
        let pv = iterations(&events).pop().map(|i| i.pv).unwrap_or_default();
        match want {
            SearchScore::Mate(n) => {
                assert_eq!(result.score, SearchScore::Mate(n), "{fen}");
                let best = result.best.expect("a move");
                assert_eq!(pv.first(), Some(&best), "{fen}");
                // Play the pv: every move legal, and no reply left after the mate length.
                let plies = if n > 0 { 2 * n - 1 } else { 2 * -n } as usize;
                assert_eq!(pv.len(), plies, "{fen}: pv {pv:?}");
                let mut p = pos.clone();
                for &m in &pv {
                    assert!(legal(&p).contains(&m), "{fen}: illegal pv move");
                    p.make_move(m);
                }
                assert!(legal(&p).is_empty(), "{fen}: pv {pv:?} does not mate");
                assert!(
                    !mate_needs_check || p.in_check(),
                    "{fen}: pv ends in stalemate"
                );
            }
            SearchScore::Cp(_) => {
                // No legal move: (chess) stalemate is a draw and there is no best move.
                assert!(legal(&pos).is_empty(), "{fen}: the oracle finds no mate");
                assert_eq!(result.best, None);
                assert_eq!(result.score, SearchScore::Cp(0), "{fen}");
            }
        }
    }
}

/// The tests of this file change the search parameters (process-wide), so they run one at a
/// time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Search switches added in issue 32's thirteenth session (the first five), fifteenth session
/// (the next two) and seventeenth session (the last four): off by default in xiangqi, and in
/// chess those not in [`ON_IN_CHESS_32`].
const OFF_BY_DEFAULT_32: [&str; 11] = [
    "Use Cut Node LMR",
    "Use TT Noisy LMR",
    "Use LMR Deeper",
    "Use Double Extension",
    "Use QS Futility",
    "Use Followup History",
    "Use QS Refined Eval",
    "Use Fifty Scale",
    "Use Piece Correction",
    "Use RFP Blend",
    "Use Noisy LMR",
];

/// Those of [`OFF_BY_DEFAULT_32`] that chess uses by default (SPRT together, docs/search.md).
const ON_IN_CHESS_32: [&str; 3] = [
    "Use Cut Node LMR",
    "Use TT Noisy LMR",
    "Use Double Extension",
];

/// The techniques that are off by default (ProbCut in both games, singular extensions in
/// xiangqi, the switches of [`OFF_BY_DEFAULT_32`]; chess extends singular moves by default)
/// must not spoil mate scores or mating lines either: the same oracle distances with them all on.
#[test]
fn mates_keep_their_distances_with_probcut_and_singular_on() {
    let _serial = serial();
    let chess = oracle_scores(STOCKFISH, "", 18, &CHESS_POSITIONS);
    let setup = "\nsetoption name UCI_Variant value xiangqi";
    let xiangqi = oracle_scores(FAIRY_STOCKFISH, setup, 30, &XIANGQI_POSITIONS);
    // With the switches of issue 32's thirteenth and fifteenth sessions (docs/search.md).
    let names: Vec<String> = ["Chess", "Xiangqi"]
        .iter()
        .flat_map(|game| {
            ["Use ProbCut", "Use Singular"]
                .iter()
                .chain(OFF_BY_DEFAULT_32.iter())
                .map(move |switch| format!("Search {game} {switch}"))
        })
        .collect();
    for n in &names {
        support::param(n).set(1).expect("in range");
    }
    match chess {
        Some(expected) => check_mates::<Chess>(&CHESS_POSITIONS, expected, true),
        None => oracle_missing(STOCKFISH),
    }
    match xiangqi {
        Some(expected) => check_mates::<Xiangqi>(&XIANGQI_POSITIONS, expected, false),
        None => oracle_missing(FAIRY_STOCKFISH),
    }
    for n in &names {
        let p = support::param(n);
        p.set(i64::from(p.default)).expect("in range");
    }
}

#[test]
fn chess_mates_have_stockfish_distances_and_real_mating_lines() {
    let _serial = serial();
    match oracle_scores(STOCKFISH, "", 18, &CHESS_POSITIONS) {
        Some(expected) => check_mates::<Chess>(&CHESS_POSITIONS, expected, true),
        None => oracle_missing(STOCKFISH),
    }
}

/// Fairy-Stockfish is asked at depth 30: at depth 20 it still reports a mate in 4 in the last
/// position, where a mate in 2 ending in a losing stalemate exists.
#[test]
fn xiangqi_mates_have_fairy_stockfish_distances_and_real_mating_lines() {
    let _serial = serial();
    let setup = "\nsetoption name UCI_Variant value xiangqi";
    match oracle_scores(FAIRY_STOCKFISH, setup, 30, &XIANGQI_POSITIONS) {
        Some(expected) => check_mates::<Xiangqi>(&XIANGQI_POSITIONS, expected, false),
        None => oracle_missing(FAIRY_STOCKFISH),
    }
}

#[test]
fn chess_nodes_search_is_deterministic_and_exact() {
    let _serial = serial();
    let pos = Chess::startpos(&ChessConfig::default());
    let limits = SearchLimits {
        nodes: Some(20_000),
        ..SearchLimits::default()
    };
    let mut searcher = Searcher::new(16);
    let mut results = Vec::new();
    for _ in 0..2 {
        searcher.clear();
        let (r, lines) = search_default(&mut searcher, &pos, &limits);
        assert_eq!(r.nodes, 20_000);
        assert!(legal(&pos).contains(&r.best.expect("move")));
        let lines: Vec<_> = lines
            .into_iter()
            .filter_map(|e| match e {
                sanqi::search::SearchEvent::Iteration(i) => Some((i.depth, i.score, i.pv)),
                sanqi::search::SearchEvent::CurrMove { .. } => None,
            })
            .collect();
        results.push((r, lines));
    }
    assert_eq!(results[0], results[1]);
}

/// python-chess's answer: the moves of the side to move after which the other side has no
/// mate in one (`None` without python-chess).
fn moves_without_mate_in_one_reply(fen: &str) -> Option<Vec<String>> {
    if !support::python_oracle("chess") {
        return None;
    }
    const SCRIPT: &str = r#"
import sys, chess
b = chess.Board(sys.stdin.read().strip())
safe = []
for m in list(b.legal_moves):
    b.push(m)
    mated = False
    for r in list(b.legal_moves):
        b.push(r)
        mated = mated or b.is_checkmate()
        b.pop()
    b.pop()
    if not mated:
        safe.append(m.uci())
print(" ".join(safe))
"#;
    let (status, out) = support::run_python(SCRIPT, fen.to_string());
    assert!(status.success(), "python-chess failed: {out}");
    Some(out.split_whitespace().map(str::to_string).collect())
}

/// With `Use QS Checks`, quiescence search's first ply tries quiet checks: at depth 1 the
/// search sees the back-rank mate (a quiet rook check) that grabbing the knight allows, and
/// plays a move python-chess confirms leaves no mate in one. Without it, the depth-1 search
/// takes the knight.
#[test]
fn quiescence_checks_see_a_quiet_mate_at_depth_one() {
    let _serial = serial();
    let fen = "3r2k1/5ppp/8/8/8/n7/1B3PPP/6K1 w - - 0 1";
    let Some(safe) = moves_without_mate_in_one_reply(fen) else {
        return;
    };
    let config = ChessConfig::default();
    let pos = Chess::from_fen(fen, &config).expect("valid FEN");
    let limits = SearchLimits {
        depth: Some(1),
        ..SearchLimits::default()
    };
    let mut searcher = Searcher::new(16);
    let name = "Search Chess Use QS Checks";
    let param = support::param(name);
    let mut best = Vec::new();
    for on in [1, 0] {
        param.set(on).expect("in range");
        searcher.clear();
        let (result, _) = search_default(&mut searcher, &pos, &limits);
        best.push(pos.format_move(result.best.expect("a move"), &config));
    }
    param.set(i64::from(param.default)).expect("in range");
    assert!(
        safe.contains(&best[0]),
        "with {name}: {} allows mate; safe: {safe:?}",
        best[0]
    );
    assert!(
        !safe.contains(&best[1]),
        "without {name}: {} (the test position no longer tempts)",
        best[1]
    );
}

/// The moves of the xiangqi position `fen` (ICCS, ranks 0-9) after which the opponent has no
/// move that leaves the mover without a legal move (xiangqi's mate and stalemate both lose),
/// by pyffish; `None` when pyffish is not installed.
fn xiangqi_moves_without_mate_in_one_reply(fen: &str) -> Option<Vec<String>> {
    if !support::python_oracle("pyffish") {
        return None;
    }
    const SCRIPT: &str = r#"
import re, sys, pyffish as sf
fen = sys.stdin.read().strip()
def iccs(m):
    return "".join(f + str(int(r) - 1) for f, r in re.findall(r"([a-i])(\d+)", m))
safe = []
for m in sf.legal_moves("xiangqi", fen, []):
    if all(sf.legal_moves("xiangqi", fen, [m, r]) for r in sf.legal_moves("xiangqi", fen, [m])):
        safe.append(iccs(m))
print(" ".join(safe))
"#;
    let (status, out) = support::run_python(SCRIPT, fen.to_string());
    assert!(status.success(), "pyffish failed: {out}");
    Some(out.split_whitespace().map(str::to_string).collect())
}

/// Xiangqi's `Use QS Checks`: at depth 1, taking the horse with the soldier lets Black's chariot
/// mate on the back rank with a quiet check (i3i0: the cannon on d1 shuts the general in). With
/// the switch, quiescence sees the check and the search plays a move pyffish confirms leaves no
/// mate in one; without it, the soldier takes the horse. (The exchange test must not count the
/// general on d0 as guarding i0 from afar, or the check is thrown away unsearched.)
#[test]
fn xiangqi_quiescence_checks_see_a_quiet_mate_at_depth_one() {
    let _serial = serial();
    let fen = "4k4/9/9/2n6/2P6/9/8r/3A5/3C5/3K5 w - - 0 1";
    let Some(safe) = xiangqi_moves_without_mate_in_one_reply(fen) else {
        return;
    };
    let pos = Xiangqi::parse_fen(fen).expect("valid FEN");
    let config = sanqi::game::xiangqi::XiangqiConfig::default();
    let limits = SearchLimits {
        depth: Some(1),
        ..SearchLimits::default()
    };
    let mut searcher = Searcher::new(16);
    let name = "Search Xiangqi Use QS Checks";
    let param = support::param(name);
    let mut best = Vec::new();
    for on in [1, 0] {
        param.set(on).expect("in range");
        searcher.clear();
        let (result, _) = search_default(&mut searcher, &pos, &limits);
        best.push(pos.format_move(result.best.expect("a move"), &config));
    }
    param.set(i64::from(param.default)).expect("in range");
    assert!(
        safe.contains(&best[0]),
        "with {name}: {} allows mate; safe: {safe:?}",
        best[0]
    );
    assert!(
        !safe.contains(&best[1]),
        "without {name}: {} (the test position no longer tempts)",
        best[1]
    );
}

/// Xiangqi positions from self-play where Red mates in 2 or 3 and the mating line has a quiet
/// check that late move pruning reaches at depth 3.
const XIANGQI_LATE_CHECK_POSITIONS: [&str; 3] = [
    "3krRR2/9/9/9/8p/9/8P/9/4A4/3A1K3 w - - 1 43",
    "4R1R2/3k5/9/9/8p/9/8P/9/4A4/3A1K3 w - - 1 44",
    "3a2b2/4k1N2/3a1R3/5N3/p8/2p6/2r3P1P/4B4/9/3AKAB2 w - - 0 34",
];

/// Xiangqi searches late quiet checks by default (`Use Late Checks`, issue 32): at depth 3 the
/// default search finds Fairy-Stockfish's mate distance in each position, and its line mates.
/// With the switch off, late move pruning drops the quiet check and no mate of that distance
/// is seen at depth 3 (checked too, so that the positions keep testing the switch).
#[test]
fn xiangqi_late_quiet_checks_find_mates_that_late_move_pruning_drops() {
    let _serial = serial();
    let setup = "\nsetoption name UCI_Variant value xiangqi";
    let Some(expected) = oracle_scores(FAIRY_STOCKFISH, setup, 20, &XIANGQI_LATE_CHECK_POSITIONS)
    else {
        return oracle_missing(FAIRY_STOCKFISH);
    };
    let config = <Xiangqi as Rules>::Config::default();
    let limits = SearchLimits {
        depth: Some(3),
        ..SearchLimits::default()
    };
    let name = "Search Xiangqi Use Late Checks";
    let param = support::param(name);
    let mut searcher = Searcher::new(16);
    for (fen, want) in XIANGQI_LATE_CHECK_POSITIONS.iter().zip(expected) {
        let SearchScore::Mate(n) = want else {
            panic!("{fen}: Fairy-Stockfish finds no mate ({want:?})");
        };
        let pos = Xiangqi::from_fen(fen, &config).expect("valid FEN");
        searcher.clear();
        let (result, events) = search_default(&mut searcher, &pos, &limits);
        assert_eq!(result.score, SearchScore::Mate(n), "{fen}: default search");
        let pv = iterations(&events).pop().map(|i| i.pv).unwrap_or_default();
        assert_eq!(pv.len(), (2 * n - 1) as usize, "{fen}: pv {pv:?}");
        let mut p = pos.clone();
        for &m in &pv {
            assert!(legal(&p).contains(&m), "{fen}: illegal pv move");
            p.make_move(m);
        }
        assert!(legal(&p).is_empty(), "{fen}: pv {pv:?} does not mate");

        param.set(0).expect("in range");
        searcher.clear();
        let (off, _) = search_default(&mut searcher, &pos, &limits);
        param.set(i64::from(param.default)).expect("in range");
        assert_ne!(
            off.score,
            SearchScore::Mate(n),
            "{fen}: without {name} (the position no longer tests the switch)"
        );
    }
}

/// The node counts of the searches from `positions` to `depth`, each with a fresh table, with
/// the parameters `names` all set to `setting` (their defaults with `None`); they are back at
/// their defaults afterwards.
fn tree_nodes<G: sanqi::game::Searchable>(
    names: &[&str],
    positions: &[G],
    depth: u32,
    setting: Option<i64>,
) -> Vec<u64> {
    for &n in names {
        let p = support::param(n);
        p.set(setting.unwrap_or(i64::from(p.default)))
            .expect("in range");
    }
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let mut searcher = Searcher::new(16);
    let counts = positions
        .iter()
        .map(|pos| {
            searcher.clear();
            search_default(&mut searcher, pos, &limits).0.nodes
        })
        .collect();
    for &n in names {
        let p = support::param(n);
        p.set(i64::from(p.default)).expect("in range");
    }
    counts
}

/// Checks that the default search's tree from `positions` at `depth` is the one with the
/// switches `names` all on, and not the one with them all off.
fn assert_default_tree_has_switches_on<G: sanqi::game::Searchable>(
    names: &[&str],
    positions: &[G],
    depth: u32,
) {
    let default = tree_nodes(names, positions, depth, None);
    assert_eq!(
        default,
        tree_nodes(names, positions, depth, Some(1)),
        "the default tree is the one with {names:?} on"
    );
    assert_ne!(
        default,
        tree_nodes(names, positions, depth, Some(0)),
        "{names:?} no longer change the tree"
    );
}

/// Xiangqi orders losing captures after the quiet moves and reads capture history by default
/// (issue 32, with the swap-list exchange test): the default search's tree from two positions at
/// depth 6 is the one with both switches set on, and not the one with both off.
#[test]
fn xiangqi_searches_losing_captures_last_with_capture_history_by_default() {
    let _serial = serial();
    let positions = tree_test_xiangqi_positions();
    assert_default_tree_has_switches_on(
        &[
            "Search Xiangqi Use Bad Noisy Last",
            "Search Xiangqi Use Capture History",
        ],
        &positions,
        6,
    );
}

/// The two xiangqi positions the default-tree tests search: the start and a developed opening.
fn tree_test_xiangqi_positions() -> [Xiangqi; 2] {
    [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
    ]
    .map(|fen| Xiangqi::parse_fen(fen).expect("valid FEN"))
}

/// The two chess positions the default-tree tests search: the start and an Italian game.
fn tree_test_chess_positions() -> [Chess; 2] {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ]
    .map(|fen| Chess::from_fen(fen, &ChessConfig::default()).expect("valid FEN"))
}

/// Chess extends singular moves by default (issue 32, measured by SPRT): the default search's
/// tree from two positions at depth 8 is the one with `Use Singular` on, and not the one with it
/// off.
#[test]
fn chess_extends_singular_moves_by_default() {
    let _serial = serial();
    let positions = tree_test_chess_positions();
    assert_default_tree_has_switches_on(&["Search Chess Use Singular"], &positions, 8);
}

/// Chess reduces expected cut nodes and quiet moves after a noisy table move more, and extends
/// doubly, by default (issue 32, thirteenth and fourteenth sessions, measured by SPRT together):
/// for each of the three, the default search's tree from two positions at depth 8 is the one
/// with it on, and not the one with it off.
#[test]
fn chess_reduces_cut_nodes_and_extends_doubly_by_default() {
    let _serial = serial();
    let positions = tree_test_chess_positions();
    for switch in ON_IN_CHESS_32 {
        assert_default_tree_has_switches_on(&[&format!("Search Chess {switch}")], &positions, 8);
    }
}

/// The switches screened in issue 32's thirteenth and fifteenth sessions are off by default in xiangqi (in
/// chess, those not in [`ON_IN_CHESS_32`]), and each one, set on, changes the tree (its code is
/// reached): the default search's tree at depth 8 from two positions of each game is the one
/// with the switch off, and not the one with it on.
#[test]
fn screened_switches_are_off_by_default_and_change_the_tree_when_on() {
    let _serial = serial();
    let chess = tree_test_chess_positions();
    let xiangqi = tree_test_xiangqi_positions();
    for switch in OFF_BY_DEFAULT_32 {
        let name = format!("Search Chess {switch}");
        if !ON_IN_CHESS_32.contains(&switch) {
            let default = tree_nodes(&[&name], &chess, 8, None);
            assert_eq!(default, tree_nodes(&[&name], &chess, 8, Some(0)), "{name}");
            assert_ne!(default, tree_nodes(&[&name], &chess, 8, Some(1)), "{name}");
        }
        let name = format!("Search Xiangqi {switch}");
        let default = tree_nodes(&[&name], &xiangqi, 8, None);
        assert_eq!(
            default,
            tree_nodes(&[&name], &xiangqi, 8, Some(0)),
            "{name}"
        );
        // Double extensions need singular extensions, and the refined quiescence evaluation and
        // the piece corrections the correction history (xiangqi's quiescence keeps no table):
        // both off in xiangqi. The switch is compared on top of what it needs.
        let needs = match switch {
            "Use Double Extension" => Some("Search Xiangqi Use Singular"),
            "Use QS Refined Eval" | "Use Piece Correction" => {
                Some("Search Xiangqi Use Correction History")
            }
            _ => None,
        };
        let (base, on) = match needs {
            Some(other) => (
                tree_nodes(&[other], &xiangqi, 8, Some(1)),
                tree_nodes(&[&name, other], &xiangqi, 8, Some(1)),
            ),
            None => (default, tree_nodes(&[&name], &xiangqi, 8, Some(1))),
        };
        assert_ne!(base, on, "{name}");
    }
}

/// `History Bonus Slope` (issue 32, fifteenth session): chess's histories learn with a bonus of
/// 256 per ply of depth by default (measured by SPRT), xiangqi keeps the square of the depth: the
/// default search's tree at depth 8 from two positions of each game is the one with the game's
/// default slope, and not the one with the other game's.
#[test]
fn history_bonus_is_linear_in_chess_and_the_square_of_the_depth_in_xiangqi() {
    let _serial = serial();
    let chess = tree_test_chess_positions();
    let xiangqi = tree_test_xiangqi_positions();
    let name = "Search Chess History Bonus Slope";
    let default = tree_nodes(&[name], &chess, 8, None);
    assert_eq!(default, tree_nodes(&[name], &chess, 8, Some(256)), "{name}");
    assert_ne!(default, tree_nodes(&[name], &chess, 8, Some(0)), "{name}");
    let name = "Search Xiangqi History Bonus Slope";
    let default = tree_nodes(&[name], &xiangqi, 8, None);
    assert_eq!(default, tree_nodes(&[name], &xiangqi, 8, Some(0)), "{name}");
    assert_ne!(
        default,
        tree_nodes(&[name], &xiangqi, 8, Some(256)),
        "{name}"
    );
}
