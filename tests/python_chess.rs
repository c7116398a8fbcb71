//! python-chess (PyPI `chess`, installed by .ci/run) opens the engine as a real UCI client, reads
//! its options and plays a complete game against itself at a fixed node count.

use std::process::Command;

mod support;

#[test]
fn python_chess_plays_a_complete_game() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/python/selfplay_chess.py"
    );
    let out = Command::new(support::python())
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_sanqi"))
        .arg("1500")
        .output()
        .expect("python3 must be installed (see the README's test command)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python-chess session failed (pip install chess):\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("game over after"), "{stdout}");
}

/// `UCI_ShowWDL` as python-chess reads it (`info["wdl"]`): per mille summing to 1000, on the
/// side of the score, a certain win or loss for a mate, and none once it is off.
#[test]
fn python_chess_reads_the_win_draw_loss() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/wdl_chess.py");
    let out = Command::new(support::python())
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_sanqi"))
        .output()
        .expect("python3 must be installed (see the README's test command)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.ends_with("ok\n"), "{stdout}");
}
