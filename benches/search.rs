//! Search speed: fixed-depth searches of connect four (a toy game written against the `Game`
//! trait, from the tests), chess and xiangqi start positions, reported by criterion, plus one
//! nodes-per-second line per game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
#[path = "../tests/support/toys.rs"]
mod toys;

use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use sanqi::game::chess::Chess;
use sanqi::game::prelude::*;
use sanqi::game::xiangqi::Xiangqi;
use sanqi::game::Plain;
use sanqi::search::{bench, SearchControl, SearchLimits, SearchOptions, Searcher};
use toys::Connect4;

fn nps_line<G: Game>(positions: &[G], depth: u32) {
    let start = Instant::now();
    let nodes = bench(positions, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} bench depth {depth}: {nodes} nodes, {:.0} nodes/s",
        G::NAME,
        nodes as f64 / secs
    );
}

fn search_speed(c: &mut Criterion) {
    let positions = vec![Plain(Connect4::new())];
    let chess = vec![Chess::startpos(&Default::default())];
    let xiangqi = vec![Xiangqi::startpos(&Default::default())];
    nps_line(&positions, 12);
    nps_line(&chess, 12);
    nps_line(&xiangqi, 10);
    c.bench_function("chess bench depth 7", |b| b.iter(|| bench(&chess, 7)));
    c.bench_function("xiangqi bench depth 6", |b| b.iter(|| bench(&xiangqi, 6)));

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
