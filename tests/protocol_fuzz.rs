//! Random protocol traffic (tests/python/fuzz_protocol.py) with fixed seeds: the engine must
//! survive every line, still answer `isready`, and exit cleanly on `quit` with nothing on stderr.

use std::process::Command;

#[test]
fn random_protocol_traffic_never_kills_the_engine() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/fuzz_protocol.py");
    for seed in ["11", "12"] {
        let out = Command::new("python3")
            .args([script, env!("CARGO_BIN_EXE_sanqi"), seed, "6", "3"])
            .output()
            .expect("python3 must be installed");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "seed {seed}:\n{stdout}\n{stderr}");
    }
}
