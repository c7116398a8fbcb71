//! Protocol latencies of the built engine over pipes (README: "Latencies"):
//! `isready` -> `readyok` during `go infinite`, `stop` -> `bestmove`, `quit` -> process exit.
//!
//! Run: `cargo bench --bench latency`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sanqi"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take().unwrap();
        let (tx, rx) = channel();
        thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine {
            child,
            stdin,
            lines: rx,
        };
        e.send("uci");
        e.wait_for("uciok");
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn wait_for(&mut self, prefix: &str) {
        loop {
            let l = self.lines.recv_timeout(Duration::from_secs(10)).unwrap();
            if l.starts_with(prefix) {
                return;
            }
        }
    }
}

fn latencies(c: &mut Criterion) {
    let mut group = c.benchmark_group("latency");
    group.sample_size(20);

    group.bench_function("readyok during go infinite", |b| {
        let mut e = Engine::start();
        e.send("position startpos");
        e.send("go infinite");
        thread::sleep(Duration::from_millis(100));
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let t = Instant::now();
                e.send("isready");
                e.wait_for("readyok");
                total += t.elapsed();
            }
            total
        });
        e.send("stop");
        e.wait_for("bestmove");
        e.send("quit");
        let _ = e.child.wait();
    });

    group.bench_function("bestmove after stop", |b| {
        let mut e = Engine::start();
        e.send("position startpos");
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                e.send("go infinite");
                thread::sleep(Duration::from_millis(30));
                let t = Instant::now();
                e.send("stop");
                e.wait_for("bestmove");
                total += t.elapsed();
            }
            total
        });
        e.send("quit");
        let _ = e.child.wait();
    });

    group.bench_function("exit after quit during search", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut e = Engine::start();
                e.send("go infinite");
                thread::sleep(Duration::from_millis(30));
                let t = Instant::now();
                e.send("quit");
                let _ = e.child.wait();
                total += t.elapsed();
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, latencies);
criterion_main!(benches);
