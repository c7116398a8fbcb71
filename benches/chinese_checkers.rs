//! Chinese checkers benchmarks: bulk-counted perft (leaves per second), move generation and
//! make/undo.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sanqi::game::chinese_checkers::{ChineseCheckers, ChineseCheckersConfig};
use sanqi::game::prelude::*;

/// A 2-player middle-game position from the shared perft file (many jump chains).
const MIDGAME: &str = "1/1D/DDD/4/5D7/6D5/5A5/3DD5/1D7/5AA3/4D6/4A7/3AA1A6/3A/2A/A1/1 AD A 40";

fn perft(c: &mut Criterion) {
    let config = ChineseCheckersConfig::default();
    let mut group = c.benchmark_group("chinese_checkers_perft");
    group.sample_size(10);
    let start = ChineseCheckers::startpos(&config);
    group.throughput(Throughput::Elements(87_946_884));
    group.bench_function("startpos_2p_depth6", |b| {
        let mut pos = start.clone();
        b.iter(|| assert_eq!(pos.perft(black_box(6)), 87_946_884));
    });
    let mid = ChineseCheckers::from_fen(MIDGAME, &config).unwrap();
    group.throughput(Throughput::Elements(9_461_934));
    group.bench_function("midgame_2p_depth4", |b| {
        let mut pos = mid.clone();
        b.iter(|| assert_eq!(pos.perft(black_box(4)), 9_461_934));
    });
    group.finish();
}

fn movegen(c: &mut Criterion) {
    let config = ChineseCheckersConfig::default();
    let mid = ChineseCheckers::from_fen(MIDGAME, &config).unwrap();
    let mut group = c.benchmark_group("chinese_checkers_movegen");
    group.bench_function("generate_midgame", |b| {
        let mut list = <ChineseCheckers as Rules>::MoveList::default();
        b.iter(|| {
            black_box(&mid).generate_moves(&mut list);
            list.len()
        });
    });
    group.bench_function("count_midgame", |b| {
        b.iter(|| black_box(&mid).count_moves());
    });
    group.bench_function("make_undo_all_midgame", |b| {
        let mut pos = mid.clone();
        let mut list = <ChineseCheckers as Rules>::MoveList::default();
        pos.generate_moves(&mut list);
        b.iter(|| {
            for &m in &list {
                pos.make_move(m);
                pos.undo_move(m);
            }
            pos.hash()
        });
    });
    group.finish();
}

criterion_group!(benches, perft, movegen);
criterion_main!(benches);
