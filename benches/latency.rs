//! Protocol latencies of the built engine over pipes (docs/speed.md, "Latencies"):
//! `isready` -> `readyok` during `go infinite`, `stop` -> `bestmove`, `quit` -> process exit.
//!
//! Run: `cargo bench --bench latency`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
#[path = "../tests/support/driver.rs"]
mod driver;

use std::thread;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use driver::Engine;

/// Waits (up to 10 s) for a line starting with `prefix`.
fn wait_for(e: &mut Engine, prefix: &str) {
    e.expect_prefix(prefix, Duration::from_secs(10));
}

fn latencies(c: &mut Criterion) {
    let mut group = c.benchmark_group("latency");
    group.sample_size(20);

    group.bench_function("readyok during go infinite", |b| {
        let mut e = Engine::uci();
        e.send("position startpos");
        e.send("go infinite");
        thread::sleep(Duration::from_millis(100));
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let t = Instant::now();
                e.send("isready");
                wait_for(&mut e, "readyok");
                total += t.elapsed();
            }
            total
        });
        e.send("stop");
        wait_for(&mut e, "bestmove");
        e.send("quit");
        e.wait();
    });

    group.bench_function("bestmove after stop", |b| {
        let mut e = Engine::uci();
        e.send("position startpos");
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                e.send("go infinite");
                thread::sleep(Duration::from_millis(30));
                let t = Instant::now();
                e.send("stop");
                wait_for(&mut e, "bestmove");
                total += t.elapsed();
            }
            total
        });
        e.send("quit");
        e.wait();
    });

    group.bench_function("exit after quit during search", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut e = Engine::uci();
                e.send("go infinite");
                thread::sleep(Duration::from_millis(30));
                let t = Instant::now();
                e.send("quit");
                e.wait();
                total += t.elapsed();
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, latencies);
criterion_main!(benches);
