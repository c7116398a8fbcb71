//! Search speed on a toy game (connect four written against the `Game` trait): fixed-depth
//! searches from the start position, reported by criterion, plus nodes per second printed once.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use common::Connect4;
use criterion::{criterion_group, criterion_main, Criterion};
use sanqi::search::{bench, SearchControl, SearchLimits, SearchOptions, Searcher};

fn search_speed(c: &mut Criterion) {
    let positions = vec![Connect4::new()];
    // One measured run for a nodes-per-second line.
    let start = Instant::now();
    let nodes = bench(&positions, 10);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "connect4 depth 10: {nodes} nodes, {:.0} nodes/s",
        nodes as f64 / secs
    );

    c.bench_function("connect4 bench depth 8", |b| {
        b.iter(|| bench(&positions, 8))
    });

    let mut searcher = Searcher::new(16);
    let limits = SearchLimits {
        nodes: Some(100_000),
        ..SearchLimits::default()
    };
    c.bench_function("connect4 100k nodes", |b| {
        b.iter(|| {
            searcher.clear();
            searcher.search(
                &positions[0],
                &limits,
                &SearchOptions::default(),
                None,
                &SearchControl::new(),
                &mut |_| {},
            )
        })
    });
}

criterion_group!(benches, search_speed);
criterion_main!(benches);
