//! Criterion benches of the xiangqi rules (legal move generation, make/undo, perft) and of the
//! static evaluation.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sanqi::game::prelude::*;
use sanqi::game::xiangqi::{Xiangqi, XiangqiConfig, XiangqiMoveList};

const POSITIONS: [(&str, &str); 3] = [
    (
        "startpos",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "middlegame",
        "rnbaka3/5n2r/8b/pcp1p1pcp/9/9/P1P1P1P1P/1C4C1R/4A4/RNBAK1B2 w - - 10 7",
    ),
    (
        "check",
        "r7r/1c2k4/b3b3n/p1p1C1p2/9/7C1/P3P1P1P/4B4/R1c1A4/1N2KABNR b - - 0 10",
    ),
];

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("xiangqi_movegen");
    for (name, fen) in POSITIONS {
        let p = Xiangqi::from_fen(fen, &XiangqiConfig::default()).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut list = XiangqiMoveList::new();
                black_box(&p).generate_moves(&mut list);
                black_box(list.len())
            })
        });
    }
    group.finish();
}

fn make_undo(c: &mut Criterion) {
    let mut group = c.benchmark_group("xiangqi_make_undo");
    for (name, fen) in POSITIONS {
        let mut p = Xiangqi::from_fen(fen, &XiangqiConfig::default()).unwrap();
        let mut list = XiangqiMoveList::new();
        p.generate_moves(&mut list);
        group.throughput(Throughput::Elements(list.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for &m in list.iter() {
                    p.make_move(m);
                    black_box(p.hash());
                    p.undo_move(m);
                }
            })
        });
    }
    group.finish();
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("xiangqi_perft");
    group.sample_size(10);
    let mut p = Xiangqi::startpos(&XiangqiConfig::default());
    let nodes = p.perft(4);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("startpos_4", |b| b.iter(|| black_box(p.perft(4))));
    group.finish();
}

fn evaluate(c: &mut Criterion) {
    let mut group = c.benchmark_group("xiangqi_evaluate");
    for (name, fen) in POSITIONS {
        let p = Xiangqi::from_fen(fen, &XiangqiConfig::default()).unwrap();
        group.bench_function(name, |b| b.iter(|| black_box(black_box(&p).evaluate())));
    }
    group.finish();
}

criterion_group!(benches, movegen, make_undo, perft, evaluate);
criterion_main!(benches);
