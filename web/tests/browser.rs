//! Runs the real-browser test (`browser_test.py`: headless Chromium driven by Selenium) against the
//! built `sanqi-web` and the `sanqi` beside it. Skips when Chromium, chromedriver, Selenium or the
//! engine binary is missing, unless `CI` is set (then a missing piece fails the test).
//! Screenshots go to `target/sanqi-web-*.png`; `SANQI_WEB_README_SHOT=web/screenshot.png` also
//! renews the README's picture.

use std::path::{Path, PathBuf};
use std::process::Command;

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

fn missing(what: &str) {
    assert!(!ci(), "CI is set and the browser test cannot run: {what}");
    eprintln!("skipping the browser test: {what} (set CI=true to make this a failure)");
}

/// The Python of the tests: `SANQI_PYTHON` when set, else the workspace's virtual environment
/// `.venv/bin/python3` when there is one (the README's test command makes it: Debian 12 and
/// Ubuntu 24.04 refuse `pip install` into the system Python, PEP 668), else `python3`; the same
/// rule as the engine's tests (`tests/support/mod.rs`).
fn python() -> String {
    if let Some(p) = std::env::var_os("SANQI_PYTHON") {
        return p.to_string_lossy().into_owned();
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python3");
    if venv.is_file() {
        return venv.to_string_lossy().into_owned();
    }
    "python3".to_string()
}

#[test]
fn browser() {
    let server = PathBuf::from(env!("CARGO_BIN_EXE_sanqi-web"));
    let Some(bin_dir) = server.parent() else {
        return missing("no folder of sanqi-web");
    };
    let engine = bin_dir.join("sanqi");
    if !engine.is_file() {
        return missing("no sanqi engine beside sanqi-web (cargo build --release)");
    }
    for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] {
        if !Path::new(tool).exists() {
            return missing(&format!(
                "{tool} (apt-get install chromium chromium-driver)"
            ));
        }
    }
    let python = python();
    let selenium = Command::new(&python)
        .args(["-c", "import selenium"])
        .status()
        .is_ok_and(|s| s.success());
    if !selenium {
        return missing(&format!(
            "{python} with selenium (the README's test command)"
        ));
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser_test.py");
    let shots = bin_dir.parent().unwrap_or(bin_dir).join("sanqi-web");
    let mut cmd = Command::new(&python);
    cmd.arg(&script)
        .arg("--server")
        .arg(&server)
        .arg("--engine")
        .arg(&engine)
        .arg("--shots")
        .arg(&shots);
    if let Some(shot) = std::env::var_os("SANQI_WEB_README_SHOT") {
        cmd.arg("--readme-shot").arg(shot);
    }
    let status = cmd.status();
    assert!(
        status.as_ref().is_ok_and(|s| s.success()),
        "browser_test.py failed: {status:?}"
    );
}
