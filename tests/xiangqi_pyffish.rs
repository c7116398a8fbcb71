//! Cross-check with Fairy-Stockfish's python binding: along pseudo-random games from every
//! position of the perft file, the legal move set (in pyffish's ranks 1-10 notation, so the
//! `XiangqiConfig::ranks_from_one` writer is exercised too), the in-check flag, the moves that
//! give check (the search's `gives_check` hint, decided without making the move) and the quiet
//! ones among them (what quiescence adds with `Use QS Checks`) must agree with `pyffish`; and
//! the squares the exchange test calls attacked (`board::attacked_by`) must cover every capture
//! pyffish allows; and the exchange test's values must match, in nearly every capture, a full
//! search of the legal captures on the target square played through pyffish.
//! Skipped (with a note) when python3 or pyffish is not installed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::prelude::*;
use sanqi::game::xiangqi::board::{self, Square};
use sanqi::game::xiangqi::{Xiangqi, XiangqiConfig};
use support::{legal_texts, perft_rows, python_oracle, run_python, Rng};

const SCRIPT: &str = r#"
import sys, pyffish
for line in sys.stdin:
    fen, want_checks = line.rstrip("\n").split("\t")
    moves = sorted(pyffish.legal_moves("xiangqi", fen, []))
    checks = [m for m in moves if want_checks == "1" and pyffish.gives_check("xiangqi", fen, [m])]
    quiet = [m for m in checks if not pyffish.is_capture("xiangqi", fen, [], m)]
    print("|".join([" ".join(moves), str(pyffish.gives_check("xiangqi", fen, [])), " ".join(checks), " ".join(quiet)]))
"#;

#[test]
fn legal_moves_agree_with_pyffish() {
    if !python_oracle("pyffish") {
        return;
    }
    let config = XiangqiConfig {
        ranks_from_one: true,
    };
    let mut starts: Vec<String> = perft_rows("xiangqi.tsv")
        .into_iter()
        .map(|r| r.position)
        .collect();
    starts.dedup();

    // Collect positions (FEN, our sorted moves, our in-check flag, and in every eighth position
    // our sorted checking moves: pyffish answers one move at a time, about 1.6 ms each) along
    // random games.
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let games = if cfg!(debug_assertions) { 3 } else { 12 };
    let mut samples = Vec::new();
    for start in &starts {
        for _ in 0..games {
            let mut p: Xiangqi = support::pos_with(start, &config);
            for _ in 0..80 {
                let list = support::legal(&p);
                let ours = legal_texts(&p, &config);
                let checks = (samples.len() % 8 == 0).then(|| {
                    let mut checks: Vec<String> = list
                        .iter()
                        .filter(|&&m| p.gives_check(m).unwrap())
                        .map(|&m| p.format_move(m, &config))
                        .collect();
                    checks.sort();
                    // The quiet checks quiescence adds with `Use QS Checks` (duplicates kept, so
                    // that a move listed twice fails the comparison).
                    let mut quiet = <Xiangqi as Rules>::MoveList::default();
                    p.push_quiet_checks(&mut quiet);
                    let mut quiet: Vec<String> =
                        quiet.iter().map(|&m| p.format_move(m, &config)).collect();
                    quiet.sort();
                    (checks.join(" "), quiet.join(" "))
                });
                samples.push((
                    p.to_fen(),
                    ours.join(" "),
                    p.in_check(),
                    checks,
                    attacked_pieces(&p),
                ));
                if list.is_empty() || p.rule_outcome().is_some() {
                    break;
                }
                let m = list[rng.below(list.len())];
                p.make_move(m);
            }
        }
    }

    let mut input = String::new();
    for (fen, _, _, checks, _) in &samples {
        input.push_str(fen);
        input.push_str(if checks.is_some() { "\t1\n" } else { "\t0\n" });
    }
    let (status, text) = run_python(SCRIPT, input);
    assert!(status.success());
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), samples.len());
    let mut checking_moves = 0;
    let mut quiet_checks = 0;
    let (mut captured_squares, mut pinned_only) = (0, 0);
    for ((fen, ours, check, our_checks, our_attacked), answer) in samples.iter().zip(answers) {
        let mut fields = answer.split('|');
        let (moves, theirs_check, their_checks, their_quiet) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let mut theirs: Vec<&str> = moves.split_whitespace().collect();
        theirs.sort();
        assert_eq!(ours, &theirs.join(" "), "legal moves of {fen}");
        // Every square pyffish's side to move can capture on is attacked for the exchange test;
        // attacked squares with no legal capture are allowed only where pins or the generals
        // make every capture illegal, which the exchange test ignores (counted below).
        let mut captures: Vec<&str> = theirs
            .iter()
            .map(|m| &m[m.find(|c: char| c.is_ascii_digit()).unwrap() + 1..])
            .map(|rest| &rest[rest.find(|c: char| c.is_ascii_alphabetic()).unwrap()..])
            .filter(|to| is_occupied(fen, to))
            .collect();
        captures.sort();
        captures.dedup();
        for to in &captures {
            assert!(
                our_attacked
                    .iter()
                    .any(|(sq, attacked)| sq == to && *attacked),
                "{to} can be captured in {fen} but the exchange test sees no attacker"
            );
        }
        captured_squares += captures.len();
        pinned_only += our_attacked
            .iter()
            .filter(|(sq, attacked)| *attacked && !captures.contains(&sq.as_str()))
            .count();
        assert_eq!(
            check.to_string(),
            theirs_check.to_lowercase(),
            "in check: {fen}"
        );
        if let Some((our_checks, our_quiet)) = our_checks {
            let mut theirs: Vec<&str> = their_checks.split_whitespace().collect();
            theirs.sort();
            assert_eq!(our_checks, &theirs.join(" "), "moves giving check: {fen}");
            checking_moves += theirs.len();
            let mut theirs: Vec<&str> = their_quiet.split_whitespace().collect();
            theirs.sort();
            assert_eq!(
                our_quiet,
                &theirs.join(" "),
                "quiet moves giving check: {fen}"
            );
            quiet_checks += theirs.len();
        }
    }
    // The random games must have met checks often enough to mean something.
    let least = if cfg!(debug_assertions) { 30 } else { 200 };
    assert!(
        checking_moves > least,
        "only {checking_moves} checking moves"
    );
    eprintln!(
        "{} positions ({checking_moves} moves giving check, {quiet_checks} of them quiet) agree \
         with pyffish",
        samples.len()
    );
    // Pins and the generals' rules spoil few captures; a test that counted attacks through
    // pieces or at a distance (a general along its file) would exceed this by far.
    eprintln!(
        "{captured_squares} squares with a legal capture, {pinned_only} attacked squares without one"
    );
    assert!(captured_squares > 1000, "only {captured_squares} captures");
    assert!(
        pinned_only * 20 < captured_squares,
        "{pinned_only} attacked squares without a legal capture against {captured_squares} with one"
    );
}

/// Each square holding a piece of the side not to move other than its general (in pyffish's
/// ranks 1-10 notation), with whether [`board::attacked_by`] says the side to move attacks it.
fn attacked_pieces(p: &Xiangqi) -> Vec<(String, bool)> {
    let stm = p.side_to_move();
    let b = board_of(p);
    let mut out = Vec::new();
    for rank in 0..10u8 {
        for file in 0..9u8 {
            let s: Square = board::square(file, rank);
            let piece = p.piece_at(s);
            if piece == board::EMPTY
                || board::side_of(piece) == stm
                || board::kind_of(piece) == board::KING
            {
                continue;
            }
            let name = format!("{}{}", char::from(b'a' + file), rank + 1);
            out.push((name, board::attacked_by(&b, s, stm)));
        }
    }
    out
}

/// The padded mailbox of `p`, read square by square.
fn board_of(p: &Xiangqi) -> [u8; 256] {
    let mut b = [0u8; 256];
    for (s, cell) in b.iter_mut().enumerate() {
        *cell = p.piece_at(s as Square);
    }
    b
}

/// Whether the square `to` (ranks 1-10) holds a piece in the board of `fen`.
fn is_occupied(fen: &str, to: &str) -> bool {
    let file = usize::from(to.as_bytes()[0] - b'a');
    let rank: usize = to[1..].parse().unwrap();
    let row = fen
        .split(' ')
        .next()
        .unwrap()
        .split('/')
        .nth(10 - rank)
        .unwrap();
    let mut f = 0;
    for c in row.chars() {
        if let Some(n) = c.to_digit(10) {
            f += n as usize;
        } else {
            if f == file {
                return true;
            }
            f += 1;
        }
    }
    false
}

/// For each line "FEN<TAB>move": the material the move wins once the legal captures on its target
/// square are searched to the end, each side free to stop (horse and cannon 100, chariot 220,
/// soldier, advisor and elephant 20), a search independent of the exchange test's swap list.
const EXCHANGE_SCRIPT: &str = r#"
import re, sys, pyffish
V = {"p": 20, "a": 20, "b": 20, "n": 100, "r": 220, "c": 100, "k": 10000}
def board(fen):
    b = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                b["abcdefghi"[f] + str(10 - i)] = ch.lower()
                f += 1
    return b
def gain(fen, sq):
    best = 0
    victim = V[board(fen)[sq]]
    for m in pyffish.legal_moves("xiangqi", fen, []):
        if re.findall(r"[a-i]\d+", m)[1] == sq:
            best = max(best, victim - gain(pyffish.get_fen("xiangqi", fen, [m]), sq))
    return best
for line in sys.stdin:
    fen, m = line.rstrip("\n").split("\t")
    sq = re.findall(r"[a-i]\d+", m)[1]
    print(V[board(fen)[sq]] - gain(pyffish.get_fen("xiangqi", fen, [m]), sq))
"#;

#[test]
fn exchange_values_agree_with_a_search_of_the_legal_captures() {
    if !python_oracle("pyffish") {
        return;
    }
    let config = XiangqiConfig {
        ranks_from_one: true,
    };
    let mut starts: Vec<String> = perft_rows("xiangqi.tsv")
        .into_iter()
        .map(|r| r.position)
        .collect();
    starts.dedup();
    // Captures along random games: every capture of every fourth position.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let games = if cfg!(debug_assertions) { 2 } else { 8 };
    let mut samples = Vec::new();
    let mut seen = 0;
    for start in &starts {
        for _ in 0..games {
            let mut p: Xiangqi = support::pos_with(start, &config);
            for _ in 0..100 {
                let list = support::legal(&p);
                if list.is_empty() || p.rule_outcome().is_some() {
                    break;
                }
                seen += 1;
                if seen % 4 == 0 {
                    for &m in list.iter().filter(|&&m| p.is_noisy(m)) {
                        samples.push((p.to_fen(), p.format_move(m, &config), see_value(&p, m)));
                    }
                }
                p.make_move(list[rng.below(list.len())]);
            }
        }
    }
    let mut input = String::new();
    for (fen, m, _) in &samples {
        input.push_str(&format!("{fen}\t{m}\n"));
    }
    let (status, text) = run_python(EXCHANGE_SCRIPT, input);
    assert!(status.success());
    let answers: Vec<i32> = text.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(answers.len(), samples.len());
    let mut differ = Vec::new();
    for ((fen, m, ours), theirs) in samples.iter().zip(&answers) {
        if ours != theirs {
            differ.push(format!("{fen} {m}: ours {ours}, searched {theirs}"));
        }
    }
    eprintln!(
        "{} captures, {} with another value than the search of the legal captures, e.g.:\n{}",
        samples.len(),
        differ.len(),
        differ
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    let least = if cfg!(debug_assertions) { 100 } else { 1000 };
    assert!(samples.len() > least, "only {} captures", samples.len());
    // The swap list differs from the search only where the least valuable capturer is not the
    // best one (a cannon's screen) or where pins and the generals make a capture illegal.
    assert!(
        differ.len() * 50 < samples.len(),
        "{} of {} exchange values differ from the search",
        differ.len(),
        samples.len()
    );
}

/// The exact result `see_ge` gives the move `m`: the highest threshold it still meets.
fn see_value(p: &Xiangqi, m: <Xiangqi as Rules>::Move) -> i32 {
    let (mut low, mut high) = (-20_000, 20_000);
    assert!(p.see_ge(m, low) && !p.see_ge(m, high));
    while high - low > 1 {
        let mid = (low + high) / 2;
        if p.see_ge(m, mid) {
            low = mid;
        } else {
            high = mid;
        }
    }
    low
}
