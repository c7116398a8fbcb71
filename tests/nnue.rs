//! The networks (NNUE): the accumulators that make/undo keep up to date equal the ones computed
//! from scratch after every move and take-back of long random games (chess with castling, en
//! passant and promotions, Chess960, xiangqi); the evaluation of a colour-flipped position is
//! the same; the embedded networks load; `Use NNUE` and `EvalFile` work over the protocol.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::chess::Chess;
use sanqi::game::prelude::*;
use sanqi::game::xiangqi::Xiangqi;
use sanqi::game::MoveBuffer;
use support::driver::{Engine, PROMPT};

/// A small deterministic generator.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays `plies` random moves from `pos` with the search's accumulator stack, checking the
/// evaluation against the from-scratch one after every move, then takes every move back,
/// checking again.
fn walk<G: Game>(mut pos: G, plies: usize, seed: u64, dead: fn(&G) -> bool) -> usize {
    sanqi::nnue::set_enabled(true);
    pos.prepare_search();
    let mut rng = Rng(seed | 1);
    let mut played = Vec::new();
    let mut checked = 0;
    for _ in 0..plies {
        let mut list = G::MoveList::default();
        pos.generate_moves(&mut list);
        if list.moves().is_empty() || pos.rule_outcome().is_some() {
            break;
        }
        // Prefer captures and promotions half the time, so that they are covered.
        let noisy: Vec<_> = list
            .moves()
            .iter()
            .copied()
            .filter(|&m| pos.is_noisy(m))
            .collect();
        let m = if !noisy.is_empty() && rng.below(2) == 0 {
            noisy[rng.below(noisy.len())]
        } else {
            list.moves()[rng.below(list.moves().len())]
        };
        pos.make_move(m);
        played.push(m);
        let (v, fresh) = incremental(&pos, dead);
        assert_eq!(
            Some(v),
            fresh,
            "after {} plies: {}",
            played.len(),
            pos.to_fen()
        );
        checked += 1;
    }
    while let Some(m) = played.pop() {
        pos.undo_move(m);
        let (v, fresh) = incremental(&pos, dead);
        assert_eq!(Some(v), fresh, "{}", pos.to_fen());
    }
    checked
}

/// The evaluation the search sees (from the stack) next to the network's from scratch, kept
/// within the same bounds; a position `dead` says has no mating material (chess evaluates it 0
/// whatever the network says) expects 0.
fn incremental<G: Game>(pos: &G, dead: fn(&G) -> bool) -> (i32, Option<i32>) {
    let fresh = pos.network_eval().map(|v| v.clamp(-10_000, 10_000));
    (pos.evaluate(), if dead(pos) { Some(0) } else { fresh })
}

#[test]
fn chess_accumulators_match_a_fresh_computation() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut checked = 0;
    for (i, fen) in fens.iter().enumerate() {
        for seed in 0..8 {
            let pos = Chess::from_fen(fen, &Default::default()).unwrap();
            checked += walk(
                pos,
                200,
                1000 * i as u64 + seed,
                Chess::insufficient_material,
            );
        }
    }
    let frc = sanqi::game::chess::ChessConfig { chess960: true };
    for n in [0, 518, 959] {
        let pos = Chess::numbered_startpos(n, &frc).unwrap();
        checked += walk(pos, 200, n as u64, Chess::insufficient_material);
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn xiangqi_accumulators_match_a_fresh_computation() {
    let mut checked = 0;
    for seed in 0..20 {
        let pos = Xiangqi::startpos(&Default::default());
        checked += walk(pos, 200, seed, |_| false);
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn the_embedded_networks_load_and_are_for_their_games() {
    let chess = sanqi::game::chess::nnue::NET.embedded().unwrap();
    assert_eq!((chess.game.as_str(), chess.inputs), ("chess", 768));
    let xq = sanqi::game::xiangqi::nnue::NET.embedded().unwrap();
    assert_eq!((xq.game.as_str(), xq.inputs), ("xiangqi", 1260));
}

#[test]
fn colour_flipped_positions_evaluate_the_same() {
    // The position with colours swapped and the board turned top to bottom: the side to move
    // sees the same pieces, so the network gives the same value.
    let pairs = [
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
        ),
        (
            "8/5k2/8/3p4/8/2N5/5PK1/8 w - - 0 1",
            "8/5pk1/2n5/8/3P4/8/5K2/8 b - - 0 1",
        ),
    ];
    for (a, b) in pairs {
        let pa = Chess::from_fen(a, &Default::default()).unwrap();
        let pb = Chess::from_fen(b, &Default::default()).unwrap();
        assert_eq!(pa.network_eval(), pb.network_eval(), "{a} / {b}");
        assert!(pa.network_eval().is_some());
    }
    let red = Xiangqi::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        &Default::default(),
    )
    .unwrap();
    let black = Xiangqi::from_fen(
        "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 1 1",
        &Default::default(),
    )
    .unwrap();
    assert_eq!(red.network_eval(), black.network_eval());
}

/// The value of the `eval` line named `name` (`info string eval <name> <value>`); reads the
/// whole output of one `eval`, whose last line is `used (side to move)`.
fn eval_line(e: &mut Engine, name: &str) -> i32 {
    e.send("eval");
    let (last, mut lines) = e.expect_prefix("info string eval used (side to move) ", PROMPT);
    lines.push(last);
    let want = format!("info string eval {name} ");
    let line = lines.iter().find(|l| l.starts_with(&want)).unwrap();
    line[want.len()..].trim().parse().unwrap()
}

#[test]
fn use_nnue_and_evalfile_over_uci() {
    let dir = std::env::temp_dir().join(format!("sanqi-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut e = Engine::uci();
    e.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let hand = eval_line(&mut e, "total (side to move)");
    let net = eval_line(&mut e, "network (side to move)");
    e.send("setoption name Use NNUE value true");
    assert_eq!(eval_line(&mut e, "used (side to move)"), net);
    e.send("setoption name Use NNUE value false");
    assert_eq!(eval_line(&mut e, "used (side to move)"), hand);

    // A network whose output bias is one unit (400 centipawns) higher evaluates exactly 400
    // more for the side to move.
    let mut shifted = sanqi::game::chess::nnue::NET.embedded().unwrap();
    shifted.out_bias += sanqi::nnue::QA * sanqi::nnue::QB;
    let path = dir.join("shifted.nnue");
    std::fs::write(&path, shifted.to_bytes()).unwrap();
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    e.expect_prefix("info string loaded chess network", PROMPT);
    assert_eq!(eval_line(&mut e, "network (side to move)"), net + 400);

    // Bad files: an error line each, and the network in use stays.
    let garbage = dir.join("garbage.nnue");
    std::fs::write(&garbage, b"SQNN\x01\x00\x00\x00junk").unwrap();
    for bad in [
        dir.join("missing.nnue").display().to_string(),
        garbage.display().to_string(),
    ] {
        e.send(&format!("setoption name EvalFile value {bad}"));
        let (line, _) = e.expect_prefix("info string error:", PROMPT);
        assert!(line.contains(&bad), "{line}");
        assert_eq!(eval_line(&mut e, "network (side to move)"), net + 400);
    }
    // Files that are not network files at all, each of which once held the command thread:
    // `/dev/zero` (read without end), a FIFO nobody writes (open blocks), a 2 GiB sparse file
    // (read whole before the error), a folder. Each is one error at once; `isready` answers
    // right after; the network in use stays.
    let fifo = dir.join("fifo.nnue");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.map(|s| s.success()).unwrap_or(false), "mkfifo");
    let sparse = dir.join("sparse.nnue");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    for (bad, why) in [
        ("/dev/zero".to_string(), "not a regular file"),
        (fifo.display().to_string(), "not a regular file"),
        (sparse.display().to_string(), "larger than"),
        (dir.display().to_string(), "not a regular file"),
    ] {
        e.send(&format!("setoption name EvalFile value {bad}"));
        e.send("isready");
        let (line, _) = e.expect_prefix("info string error:", PROMPT);
        assert!(line.contains(&bad) && line.contains(why), "{line}");
        e.expect_prefix("readyok", PROMPT);
        assert_eq!(eval_line(&mut e, "network (side to move)"), net + 400);
    }
    // A xiangqi network goes to xiangqi and leaves chess's alone.
    let xq = sanqi::game::xiangqi::nnue::NET.embedded().unwrap();
    let xq_path = dir.join("xiangqi.nnue");
    std::fs::write(&xq_path, xq.to_bytes()).unwrap();
    e.send(&format!(
        "setoption name EvalFile value {}",
        xq_path.display()
    ));
    e.expect_prefix("info string loaded xiangqi network", PROMPT);
    assert_eq!(eval_line(&mut e, "network (side to move)"), net + 400);
    // Back to the embedded networks.
    e.send("setoption name EvalFile value <internal>");
    e.expect_prefix("info string loaded the embedded networks", PROMPT);
    assert_eq!(eval_line(&mut e, "network (side to move)"), net);
    // A search with the network plays a legal move.
    e.send("setoption name Use NNUE value true");
    e.send("go nodes 20000");
    e.expect_one_bestmove();
    e.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
}
