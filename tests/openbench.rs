//! OpenBench's client reads `sanqi bench` with its own parser (re-run in Python, copied from the
//! client, by `tests/python/openbench_bench.py`): the signature and the speed are found, and two
//! runs give the same signature.

use std::process::Command;

#[test]
fn openbench_parses_the_bench_and_its_signature_is_deterministic() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/python/openbench_bench.py"
    );
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_sanqi"))
        .output()
        .expect("python3 must be installed (see .ci/run)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let bench: u64 = stdout
        .trim()
        .strip_prefix("bench ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(bench > 0, "{stdout}");
}
