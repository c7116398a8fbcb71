//! The bench lines as OpenBench's client reads them (its `Client/bench.py`, read, not copied: it
//! replaces every non-alphanumeric character by a space and takes `nodes searched <N>` and
//! `nodes second <N>` from the last lines that have them): both are found, and two runs give the
//! same signature (the client compares the runs of all its threads).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

/// (nodes, nodes per second) from `sanqi bench`, read as the client does.
fn bench_numbers() -> (u64, u64) {
    let out = Command::new(env!("CARGO_BIN_EXE_sanqi"))
        .arg("bench")
        .output()
        .expect("run sanqi bench");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_lowercase();
    let find = |key: &str| -> Option<u64> {
        text.lines().rev().find_map(|line| {
            let clean: String = line
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
                .collect();
            let words: Vec<&str> = clean.split_whitespace().collect();
            let k: Vec<&str> = key.split(' ').collect();
            words
                .windows(k.len() + 1)
                .find(|w| w[..k.len()] == k[..])
                .and_then(|w| w[k.len()].parse().ok())
        })
    };
    let nodes = find("nodes searched").expect("a `Nodes searched` line");
    let nps = find("nodes second").expect("a `Nodes/second` line");
    (nodes, nps)
}

#[test]
fn openbench_reads_the_bench_and_its_signature_is_deterministic() {
    let (nodes, nps) = bench_numbers();
    assert!(nodes > 100_000 && nps > 0, "{nodes} {nps}");
    assert_eq!(bench_numbers().0, nodes);
}
