//! Chess move generation, make/undo, perft, static evaluation and Syzygy probes (when
//! `.ci/fetch-test-data` has put the 3-4-piece tables in `.test-data/syzygy`).
//! `cargo bench --bench chess`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::prelude::*;
use sanqi::game::MoveBuffer;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn positions() -> Vec<(&'static str, Chess)> {
    let cfg = ChessConfig::default();
    vec![
        ("startpos", Chess::startpos(&cfg)),
        ("kiwipete", Chess::from_fen(KIWIPETE, &cfg).unwrap()),
    ]
}

fn movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("chess_movegen");
    for (name, pos) in positions() {
        g.bench_function(format!("list_{name}"), |b| {
            let mut list = <Chess as Rules>::MoveList::default();
            b.iter(|| {
                black_box(&pos).generate_moves(&mut list);
                list.moves().len()
            })
        });
        g.bench_function(format!("count_{name}"), |b| {
            b.iter(|| black_box(&pos).legal_move_count())
        });
        g.bench_function(format!("noisy_{name}"), |b| {
            let mut list = <Chess as Rules>::MoveList::default();
            b.iter(|| {
                black_box(&pos).generate_noisy(&mut list);
                list.moves().len()
            })
        });
    }
    g.finish();
}

fn make_undo(c: &mut Criterion) {
    let mut g = c.benchmark_group("chess_make_undo");
    for (name, mut pos) in positions() {
        let mut list = <Chess as Rules>::MoveList::default();
        pos.generate_moves(&mut list);
        g.throughput(Throughput::Elements(list.len() as u64));
        g.bench_function(format!("all_moves_{name}"), |b| {
            b.iter(|| {
                for &m in list.moves() {
                    pos.make_move(m);
                    black_box(pos.hash());
                    pos.undo_move(m);
                }
            })
        });
    }
    g.finish();
}

fn perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("chess_perft");
    g.sample_size(10);
    for (name, depth, nodes) in [("startpos", 5, 4_865_609u64), ("kiwipete", 4, 4_085_603)] {
        let mut pos = positions().into_iter().find(|(n, _)| *n == name).unwrap().1;
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(format!("{name}_depth_{depth}"), |b| {
            b.iter(|| assert_eq!(pos.perft(black_box(depth)), nodes))
        });
    }
    g.finish();
}

fn evaluate(c: &mut Criterion) {
    let mut g = c.benchmark_group("chess_evaluate");
    let cfg = ChessConfig::default();
    let mut all = positions();
    all.push((
        "endgame",
        Chess::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &cfg).unwrap(),
    ));
    for (name, pos) in all {
        g.bench_function(name, |b| b.iter(|| black_box(&pos).evaluate()));
    }
    g.finish();
}

/// WDL and DTZ probes of 3- and 4-piece positions (captures, en passant and the DTZ search
/// that a probe resolves included) through the memory-mapped tables.
fn syzygy(c: &mut Criterion) {
    use sanqi::game::chess::syzygy::Tablebases;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/.test-data/syzygy");
    let (tb, _) = Tablebases::open(dir);
    if tb.wdl_count() < 35 {
        eprintln!("chess_syzygy skipped: run .ci/fetch-test-data for the tables in {dir}");
        return;
    }
    let cfg = ChessConfig::default();
    let fens = [
        ("kqvkr", "8/8/3k4/8/2r5/8/1Q6/4K3 w - - 0 1"),
        ("krpvk", "8/8/4k3/8/3PK3/8/8/3R4 b - - 0 1"),
        ("kbnvk", "8/8/8/4k3/8/8/8/1NB1K3 w - - 0 1"),
        ("kpvkp_ep", "8/8/8/8/3pP3/8/5K1k/8 b - e3 0 1"),
    ];
    let mut g = c.benchmark_group("chess_syzygy");
    for (name, fen) in fens {
        let pos = Chess::from_fen(fen, &cfg).unwrap();
        g.bench_function(format!("wdl_{name}"), |b| {
            let mut p = pos.clone();
            b.iter(|| tb.probe_wdl(black_box(&mut p)).unwrap())
        });
        g.bench_function(format!("dtz_{name}"), |b| {
            let mut p = pos.clone();
            b.iter(|| tb.probe_dtz(black_box(&mut p)).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, movegen, make_undo, perft, evaluate, syzygy);
criterion_main!(benches);
