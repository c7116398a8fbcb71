//! Random games checked position by position against python-chess (an independent move
//! generator): legal moves, check, insufficient material, the FEN we write, and which moves give
//! check (the search's `gives_check` hint and the quiet checks of quiescence search). Skipped with a
//! message when `python3 -c 'import chess'` is not available (required under CI).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::prelude::*;
use sanqi::game::MoveBuffer;
use support::{python_oracle, run_python, Rng};

/// A random Chess960 back rank (bishops on opposite colours, king between the rooks).
fn chess960_fen(rng: &mut Rng) -> String {
    let mut rank = [' '; 8];
    rank[rng.below(4) * 2] = 'b';
    rank[rng.below(4) * 2 + 1] = 'b';
    let mut free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
    let q = free.remove(rng.below(free.len()));
    rank[q] = 'q';
    for _ in 0..2 {
        let n = free.remove(rng.below(free.len()));
        rank[n] = 'n';
    }
    rank[free[0]] = 'r';
    rank[free[1]] = 'k';
    rank[free[2]] = 'r';
    let black: String = rank.iter().collect();
    let white = black.to_uppercase();
    let f = |i: usize| (b'a' + free[i] as u8) as char;
    let rights = format!(
        "{}{}{}{}",
        f(2).to_ascii_uppercase(),
        f(0).to_ascii_uppercase(),
        f(2),
        f(0)
    );
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights} - 0 1")
}

/// The moves in the notation python-chess reads (UCI, Chess960 castling as king takes rook).
fn move_texts(pos: &Chess, moves: &[<Chess as Rules>::Move], config: &ChessConfig) -> Vec<String> {
    moves.iter().map(|&m| pos.format_move(m, config)).collect()
}

const CHECKER: &str = r#"
import sys, chess
bad = 0
n = 0
for line in sys.stdin:
    fen, moves, check, insufficient, checks, quiet_checks = line.rstrip("\n").split("\t")
    b = chess.Board(fen, chess960=True)
    n += 1
    ours = set(moves.split()) if moves else set()
    theirs = {b.uci(m, chess960=True) for m in b.legal_moves}
    problems = []
    if ours != theirs:
        problems.append("moves: missing %s extra %s" % (sorted(theirs - ours), sorted(ours - theirs)))
    if (check == "1") != b.is_check():
        problems.append("check flag %s" % check)
    their_checks = {b.uci(m, chess960=True) for m in b.legal_moves if b.gives_check(m)}
    if set(checks.split()) != their_checks:
        problems.append("gives_check: missing %s extra %s" % (sorted(their_checks - set(checks.split())), sorted(set(checks.split()) - their_checks)))
    their_quiet = {b.uci(m, chess960=True) for m in b.legal_moves
                   if b.gives_check(m) and not b.is_capture(m) and m.promotion is None}
    listed = quiet_checks.split()
    if set(listed) != their_quiet or len(listed) != len(set(listed)):
        problems.append("quiet checks: %s, python-chess %s" % (sorted(listed), sorted(their_quiet)))
    if (insufficient == "1") != b.is_insufficient_material():
        problems.append("insufficient material flag %s" % insufficient)
    written = b.shredder_fen(en_passant="fen").split()
    mine = fen.split()
    if written[:3] != mine[:3] or written[4:] != mine[4:]:
        problems.append("fen differs: python-chess writes %s" % " ".join(written))
    if problems:
        bad += 1
        if bad <= 10:
            print(fen, "|", "; ".join(problems))
print("checked", n, "positions,", bad, "bad")
sys.exit(1 if bad else 0)
"#;

#[test]
fn random_games_agree_with_python_chess() {
    if !python_oracle("chess") {
        return;
    }
    let config = ChessConfig { chess960: true };
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut starts: Vec<String> = vec![
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".into(),
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1".into(),
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1".into(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9".into(),
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9".into(),
        "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9".into(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".into(),
        "4k3/1P6/8/2pP4/8/8/6p1/4K3 w - c6 0 1".into(),
    ];
    for _ in 0..12 {
        starts.push(chess960_fen(&mut rng));
    }
    let mut input = String::new();
    let mut positions = 0;
    // Zobrist keys: equal positions (first four FEN fields) have equal keys and vice versa.
    let mut by_key: std::collections::HashMap<u64, String> = std::collections::HashMap::new();
    let mut by_fen: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
    for start in &starts {
        for _game in 0..4 {
            let mut pos = Chess::from_fen(start, &config).unwrap();
            for _ply in 0..160 {
                let mut list = <Chess as Rules>::MoveList::default();
                pos.generate_moves(&mut list);
                let texts = move_texts(&pos, list.moves(), &config);
                assert_eq!(pos.legal_move_count(), list.len() as u64);
                assert_eq!(
                    pos.hash(),
                    pos.compute_hash(),
                    "incremental key of {}",
                    pos.to_fen()
                );
                let key_fen = pos
                    .to_fen()
                    .split(' ')
                    .take(4)
                    .collect::<Vec<_>>()
                    .join(" ");
                let old = by_key.entry(pos.hash()).or_insert_with(|| key_fen.clone());
                assert_eq!(*old, key_fen, "two positions share a key");
                assert_eq!(*by_fen.entry(key_fen).or_insert(pos.hash()), pos.hash());
                let checks: Vec<_> = list
                    .moves()
                    .iter()
                    .copied()
                    .filter(|&m| pos.gives_check(m).unwrap())
                    .collect();
                let checks = move_texts(&pos, &checks, &config);
                let mut quiet = <Chess as Rules>::MoveList::default();
                pos.push_quiet_checks(&mut quiet);
                let quiet = move_texts(&pos, quiet.moves(), &config);
                input.push_str(&format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\n",
                    pos.to_fen(),
                    texts.join(" "),
                    u8::from(pos.in_check()),
                    u8::from(pos.insufficient_material()),
                    checks.join(" "),
                    quiet.join(" ")
                ));
                positions += 1;
                if list.is_empty() || pos.rule_outcome().is_some() {
                    break;
                }
                let m = list[rng.below(list.len())];
                pos.make_move(m);
            }
        }
    }
    let (status, report) = run_python(CHECKER, input);
    println!("{positions} positions sent; {report}");
    assert!(status.success(), "python-chess disagrees:\n{report}");
}
